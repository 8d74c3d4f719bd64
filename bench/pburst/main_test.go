package main

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCPUTime checks that the CPU time is read from /proc for a live process and skipped for 0.
func TestCPUTime(t *testing.T) {
	t.Parallel()
	none, err := cpuTime(0)
	require.NoError(t, err)
	require.Zero(t, none)
	// Spin until this process has been charged at least one clock tick.
	for {
		own, err := cpuTime(os.Getpid())
		require.NoError(t, err)
		if own > 0 {
			break
		}
	}
	_, err = cpuTime(1 << 30) // no such process
	require.Error(t, err)
}
