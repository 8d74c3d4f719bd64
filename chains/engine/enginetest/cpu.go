package enginetest

import (
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// CPUTime is the process's user and system CPU time so far: the engines' benchmarks report it
// beside wall time, which a loaded machine's waiting for a core inflates.
func CPUTime(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	require.NoError(tb, syscall.Getrusage(syscall.RUSAGE_SELF, &ru))
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
