package node

import (
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/api/health"
	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/chains/chainstest"
	"github.com/cornice-node/cornice/config"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/node/nodetest"
	"github.com/cornice-node/cornice/storage"
)

// failingRelay is a relay that cannot watch any chain.
type failingRelay struct{}

var errRelayDown = errors.New("relay down")

func (failingRelay) AddChain(ids.ID, chains.VM) error { return errRelayDown }
func (failingRelay) Start() error                     { return nil }
func (failingRelay) Close()                           {}

// relayConfig is a node on free ports with the relay on and no built-in chains, so that a test's
// chains are the only ones.
func relayConfig(t *testing.T) config.Config {
	t.Helper()
	cfg := config.Default()
	cfg.NetworkID = 1337 // no built-in chains: the test's is the only one
	require.NoError(t, cfg.ResolveUpgrades())
	cfg.DataDir = t.TempDir()
	cfg.HTTPPort = 0
	cfg.StakingPort = 0
	cfg.Relay = config.SwitchOn
	return cfg
}

// A chain the relay cannot watch still runs in full: its index routes and health check are
// registered, and the relay's error is logged (createChain used to return it, leaving the chain
// running unrouted and marked failed).
func TestCreateChainRelayFails(t *testing.T) {
	t.Parallel()
	cfg := relayConfig(t)
	var logs nodetest.Buffer
	n, err := New(cfg, slog.New(slog.NewTextHandler(&logs, nil)), nil)
	require.NoError(t, err)
	require.NoError(t, n.AttachRelay(func(RelayDeps) (Relay, error) { return failingRelay{}, nil }))
	nodetest.Run(t, n)
	ctx := t.Context()

	id, subnet := ids.ID{0xd1}, ids.ID{0x5b}
	require.NoError(t, n.createChains(ctx, []Chain{{Spec: chains.Spec{
		Chain:   chains.Chain{ID: id, SubnetID: subnet, VMID: ids.FromName("subnetevm"), Name: "dex"},
		Aliases: []string{"dex"},
		Prefix:  storage.PrefixEVM,
		Factory: chainstest.Factory{},
		Genesis: []byte("dex genesis"),
	}}}))

	url := "http://" + n.HTTPAddr().String()
	resp, err := http.Post(url+"/ext/index/dex/block", "application/json",
		strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"index.getIndex","params":{"id":"`+id.String()+`"}}`))
	require.NoError(t, err)
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode, "the chain's index is served")

	report := n.health.Report(ctx, health.Health, id.String())
	check, ok := report.Checks["chain-dex"]
	require.True(t, ok, "the chain's health check is registered")
	require.Nil(t, check.Error, "and healthy")
	require.Contains(t, logs.String(), "the relay does not watch this chain")
	require.Contains(t, logs.String(), errRelayDown.Error())
}

// A chain the relay cannot watch at start-up is logged, and the node still starts: AttachRelay
// used to return the first chain's error and stop the whole node.
func TestAttachRelayChainFails(t *testing.T) {
	t.Parallel()
	cfg := relayConfig(t)
	var logs nodetest.Buffer
	id := ids.ID{0xd2}
	n, err := New(cfg, slog.New(slog.NewTextHandler(&logs, nil)), nil, Chain{Spec: chains.Spec{
		Chain:   chains.Chain{ID: id, SubnetID: ids.ID{0x5c}, VMID: ids.FromName("subnetevm"), Name: "dex"},
		Prefix:  storage.PrefixEVM,
		Factory: chainstest.Factory{},
		Genesis: []byte("dex genesis"),
	}})
	require.NoError(t, err)
	require.NotEmpty(t, n.Chains(), "the chain runs before the relay is attached")
	require.NoError(t, n.AttachRelay(func(RelayDeps) (Relay, error) { return failingRelay{}, nil }))
	require.Contains(t, logs.String(), "the relay does not watch this chain")
	require.Contains(t, logs.String(), id.String())
	require.NoError(t, nodetest.Run(t, n)(), "the node starts and stops cleanly")
}
