package vmset_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/config"
	"github.com/cornice-node/cornice/genesis"
	"github.com/cornice-node/cornice/node"
	"github.com/cornice-node/cornice/node/vmset"
	"github.com/cornice-node/cornice/vms/evm"
)

// TestForEVMConfig checks that --evm-logs-block-range-cap and --http-batch-response-max-size
// reach the C-Chain's and the L1s' factories, with 0 (no limit) as evm.Config's negative value.
func TestForEVMConfig(t *testing.T) {
	t.Parallel()
	require.EqualValues(t, evm.DefaultLogsBlockRangeCap, config.DefaultEVMLogsBlockRangeCap)
	require.Equal(t, evm.DefaultBatchResponseMaxSize, config.DefaultHTTPBatchResponseMaxSize)
	type limits struct{ logs, batch int }
	tests := []struct {
		name        string
		logs, batch uint64
		want        limits
	}{
		{name: "defaults", logs: config.DefaultEVMLogsBlockRangeCap, batch: config.DefaultHTTPBatchResponseMaxSize, want: limits{2048, 25_000_000}},
		{name: "small", logs: 10, batch: 1000, want: limits{10, 1000}},
		{name: "none", logs: 0, batch: 0, want: limits{-1, -1}},
		{name: "beyond any height", logs: 1 << 40, batch: 1 << 40, want: limits{-1, -1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg := config.Default()
			cfg.EVMLogsBlockRangeCap = tt.logs
			cfg.HTTPBatchResponseMaxSize = tt.batch
			vms := vmset.For(cfg)
			c, ok := vms[genesis.EVMID].(evm.Factory)
			require.True(t, ok)
			require.Equal(t, tt.want, limits{c.Config.LogsBlockRangeCap, c.Config.BatchResponseMaxSize})
			l1, ok := vms[node.SubnetEVMID].(evm.L1Factory)
			require.True(t, ok)
			require.Equal(t, tt.want, limits{l1.Config.LogsBlockRangeCap, l1.Config.BatchResponseMaxSize})
		})
	}
}

// TestForCChainUpgrades checks that the C-Chain gets the node's upgrade schedule (ACP-176 from
// its Fortuna time, the times eth_getChainConfig shows) and the L1s none.
func TestForCChainUpgrades(t *testing.T) {
	t.Parallel()
	cfg := config.Default()
	cfg.Upgrades.FortunaTime = cfg.Upgrades.FortunaTime.Add(time.Hour)
	vms := vmset.For(cfg)
	c, ok := vms[genesis.EVMID].(evm.Factory)
	require.True(t, ok)
	require.Equal(t, &cfg.Upgrades, c.Config.Upgrades)
	l1, ok := vms[node.SubnetEVMID].(evm.L1Factory)
	require.True(t, ok)
	require.Nil(t, l1.Config.Upgrades)
}
