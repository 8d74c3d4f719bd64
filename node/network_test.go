package node_test

import (
	"log/slog"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/node"
)

// TestDataDirNetwork: a data directory made for one network is refused for another, before the
// node writes anything, and still opens for its own (issue #17 §3).
func TestDataDirNetwork(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t)
	n := start(t, cfg)
	require.NoError(t, n.stop())

	other := cfg
	other.NetworkID = 5
	require.NoError(t, other.ResolveUpgrades())
	_, err := node.New(other, slog.New(slog.DiscardHandler), nil)
	require.EqualError(t, err, "data directory "+cfg.DataDir+" was made for network local (12345), not fuji (5): give another --data-dir, or --network-id local")

	custom := cfg
	custom.NetworkID = 1337
	require.NoError(t, custom.ResolveUpgrades())
	_, err = node.New(custom, slog.New(slog.DiscardHandler), nil)
	require.EqualError(t, err, "data directory "+cfg.DataDir+" was made for network local (12345), not network-1337 (1337): give another --data-dir, or --network-id local")

	n = start(t, cfg)
	require.NoError(t, n.stop())
}
