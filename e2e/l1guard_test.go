package e2e_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestL1CreateChainIDInUse: `cornice l1 create` refuses an L1 with the C-Chain's EVM chain ID and
// says how to go on; with --force it makes it and warns (issue #17 §3).
func TestL1CreateChainIDInUse(t *testing.T) {
	t.Parallel()
	xn := startXNode(t, t.TempDir())
	file := filepath.Join(t.TempDir(), "same.json")
	require.NoError(t, os.WriteFile(file, l1Genesis(t, 43112), 0o600))

	code, stdout, stderr := runCLI(t, "l1", "create", "--genesis", file, "--node-uri", xn.base)
	require.Equal(t, 1, code)
	require.Empty(t, stdout)
	require.Equal(t, "cornice: EVM chain ID already in use: 43112 is the chain ID of the C-Chain, so a transaction signed for one would be valid on the other; give the genesis another chainId, or pass --force\n", stderr)

	code, stdout, stderr = runCLI(t, "l1", "create", "--genesis", file, "--node-uri", xn.base, "--force")
	require.Equal(t, 0, code, stderr)
	require.Equal(t, "warning: the L1's EVM chain ID 43112 is also that of the C-Chain: a transaction signed for one is valid on the other\n", stderr)
	m := l1Out.FindStringSubmatch(stdout)
	require.NotNil(t, m, stdout)
	require.Equal(t, "43112", m[7])
}

// TestRunL1ChainIDInUse: `cornice run --l1` refuses an L1 with the C-Chain's EVM chain ID as
// `l1 create` does, stopping the node; with --force it makes it, warns, and the banner shows the
// shared chain ID (issue #17 §3, #16 §3).
func TestRunL1ChainIDInUse(t *testing.T) {
	t.Parallel()
	dataDir := t.TempDir()
	file := filepath.Join(t.TempDir(), "same.json")
	require.NoError(t, os.WriteFile(file, l1Genesis(t, 43112), 0o600))

	code, stdout, stderr := runCLI(t, "run", "--data-dir", dataDir, "--http-port=0", "--staking-port=0", "--log-level=error", "--l1", file)
	require.Equal(t, 1, code)
	require.Empty(t, stdout)
	require.Equal(t, "cornice: --l1 same: EVM chain ID already in use: 43112 is the chain ID of the C-Chain, so a transaction signed for one would be valid on the other; give the genesis another chainId, or pass --force\n", stderr)

	b, stop := runBanner(t, dataDir, "--l1", file, "--force")
	require.Len(t, b.evm, 2)
	require.Equal(t, "43112", b.evm[1].chainID)
	require.Equal(t, "created", b.evm[1].status)
	require.Equal(t, "warning: the L1's EVM chain ID 43112 is also that of the C-Chain: a transaction signed for one is valid on the other\n", stop())
}

// TestRunL1BadGenesis: `cornice run --l1` with a genesis the node could not run stops before the
// node starts, without making its data directory, with the same wording for every problem.
func TestRunL1BadGenesis(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, []byte(text), 0o600))
		return path
	}
	syntax := write("syntax.json", "{\n  \"config\": {\"chainId\": 5,}\n}\n")
	noGas := write("nogas.json", `{"config": {"chainId": 5}, "alloc": {}}`)
	missing := filepath.Join(dir, "missing.json")
	for _, tt := range []struct{ file, want string }{
		{syntax, "cornice: --l1: L1 genesis " + syntax + ":2:27: invalid character '}' looking for beginning of object key string\n"},
		{noGas, "cornice: --l1: L1 genesis " + noGas + ": parse genesis: missing required field 'gasLimit' for Genesis\n"},
		{missing, "cornice: --l1: L1 genesis " + missing + ": no such file or directory\n"},
	} {
		data := filepath.Join(t.TempDir(), "data")
		code, stdout, stderr := runCLI(t, "run", "--data-dir", data, "--http-port=0", "--staking-port=0", "--l1", tt.file)
		require.Equal(t, 1, code)
		require.Equal(t, tt.want, stderr)
		require.Empty(t, stdout)
		require.NoDirExists(t, data)
	}
}
