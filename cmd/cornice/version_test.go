package main

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestVersion(t *testing.T) {
	t.Parallel()
	_, started, code, stdout, stderr := runCLI(t, "version")
	require.False(t, started)
	require.Equal(t, 0, code)
	require.Empty(t, stderr)
	// Test binaries carry no VCS stamp.
	require.Equal(t, "cornice/0.1.0\ncommit: unknown\n", stdout)

	_, _, code, _, stderr = runCLI(t, "version", "extra")
	require.Equal(t, 1, code)
	require.Equal(t, "cornice: unknown command \"extra\" for \"cornice version\"\n", stderr)
}
