package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// exampleGenesis is the example L1 genesis of examples/README.md.
const exampleGenesis = "../../examples/l1-genesis.json"

func TestL1CreateErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	notJSON := filepath.Join(dir, "bad.json")
	require.NoError(t, os.WriteFile(notJSON, []byte("{"), 0o600))
	missing := filepath.Join(dir, "missing.json")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no genesis", []string{"l1", "create"}, `cornice: required flag(s) "genesis" not set` + "\n"},
		{"missing file", []string{"l1", "create", "--genesis", missing}, "cornice: L1 genesis " + missing + ": no such file or directory\n"},
		{"not JSON", []string{"l1", "create", "--genesis", notJSON}, "cornice: L1 genesis " + notJSON + ":1:2: unexpected end of file: the JSON value is not closed\n"},
		{"bad name", []string{"l1", "create", "--genesis", exampleGenesis, "--name", "my-l1"},
			`cornice: --name "my-l1": a chain name is 1 to 128 letters, digits and spaces` + "\n"},
		{"run --l1 missing", []string{"run", "--l1", missing}, "cornice: --l1: L1 genesis " + missing + ": no such file or directory\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tt.want, refused(t, tt.args...))
		})
	}
}

func TestChainNameFromFile(t *testing.T) {
	t.Parallel()
	tests := []struct{ path, want string }{
		{"examples/l1-genesis.json", "l1 genesis"},
		{"/x/My_Chain.v2.json", "My Chain v2"},
		{"genesis", "genesis"},
		{"/x/--.json", "l1"},
		{"/x/é.json", "l1"},
		{strings.Repeat("a", 200) + ".json", strings.Repeat("a", 128)},
	}
	for _, tt := range tests {
		got := chainNameFromFile(tt.path)
		require.Equal(t, tt.want, got, tt.path)
		require.NoError(t, checkChainName(got))
	}
}

// TestL1ValidatorErrors checks the flags of add-validator, set-weight and remove-validator
// before any call to a node.
func TestL1ValidatorErrors(t *testing.T) {
	t.Parallel()
	const (
		subnet = "2bRCr6B4MiEfSjidDwxDpdCyviwnfUVqB2HGwhm947w9YYqb7r"
		node   = "NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg"
	)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"add: no flags", []string{"l1", "add-validator"}, `cornice: required flag(s) "subnet-id", "node-id", "bls-public-key", "bls-pop" not set` + "\n"},
		{"add: short key", []string{"l1", "add-validator", "--subnet-id", subnet, "--node-id", node, "--bls-public-key", "0x01", "--bls-pop", "00"},
			"cornice: --bls-public-key: not hex of the right length: 1 bytes, want 48\n"},
		{"set-weight: no weight", []string{"l1", "set-weight", "--subnet-id", subnet, "--node-id", node}, `cornice: required flag(s) "weight" not set` + "\n"},
		{"remove: bad node", []string{"l1", "remove-validator", "--subnet-id", subnet, "--node-id", "x"}, "cornice: --node-id: "},
		{"remove: bad manager", []string{"l1", "remove-validator", "--subnet-id", subnet, "--node-id", node, "--manager", "0x12"},
			`cornice: --manager: "0x12" is not a hex address` + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			stderr := refused(t, tt.args...)
			require.True(t, strings.HasPrefix(stderr, tt.want), stderr)
		})
	}
}

// refused runs the CLI with args, checks that it exits with 1 before starting a node and
// without output, and returns what it wrote to stderr.
func refused(t *testing.T, args ...string) string {
	t.Helper()
	_, started, code, stdout, stderr := runCLI(t, args...)
	require.False(t, started)
	require.Equal(t, 1, code)
	require.Empty(t, stdout)
	return stderr
}
