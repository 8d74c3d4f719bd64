package config

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestCurrent(t *testing.T) {
	t.Parallel()
	require.Equal(t, "cornice/0.1.0", Current())
	require.Regexp(t, `^cornice/\d+\.\d+\.\d+$`, Current())
}

func TestGitCommit(t *testing.T) {
	t.Parallel()
	// Test binaries carry no VCS stamp; a stamped build gives a hex revision.
	require.Regexp(t, `^([0-9a-f]{40,64})?$`, GitCommit())
}
