package node

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
)

// TestChainFilesJSONError: a chain's upgrade.json or config.json that is not JSON is refused
// with its path, line and column; an empty one is no file (issue #17 §2).
func TestChainFilesJSONError(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	id := ids.ID{7}
	chainDir := filepath.Join(dir, id.String())
	require.NoError(t, os.MkdirAll(chainDir, 0o700))
	upgrade := filepath.Join(chainDir, "upgrade.json")
	config := filepath.Join(chainDir, "config.json")

	require.NoError(t, os.WriteFile(upgrade, []byte("{\n  \"precompileUpgrades\": [\n}\n"), 0o600))
	_, _, err := chainFiles(dir, id, nil)
	require.EqualError(t, err, "chain config "+upgrade+":3:1: invalid character '}' looking for beginning of value")

	require.NoError(t, os.WriteFile(upgrade, nil, 0o600))
	require.NoError(t, os.WriteFile(config, []byte(`{"rpc-gas-cap": 1`), 0o600))
	_, _, err = chainFiles(dir, id, nil)
	require.EqualError(t, err, "chain config "+config+":1:18: unexpected end of file: the JSON value is not closed")

	require.NoError(t, os.WriteFile(config, []byte(`{"rpc-gas-cap": 1}`), 0o600))
	up, cfg, err := chainFiles(dir, id, nil)
	require.NoError(t, err)
	require.Empty(t, up)
	require.JSONEq(t, `{"rpc-gas-cap": 1}`, string(cfg))
}
