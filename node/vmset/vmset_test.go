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

// TestForEVMConfig checks that --evm-logs-block-range-cap reaches the C-Chain's and the L1s'
// factories, with 0 (no cap) as evm.Config's negative value.
func TestForEVMConfig(t *testing.T) {
	t.Parallel()
	require.EqualValues(t, evm.DefaultLogsBlockRangeCap, config.DefaultEVMLogsBlockRangeCap)
	tests := []struct {
		name string
		cap  uint64
		want int
	}{
		{name: "default", cap: config.DefaultEVMLogsBlockRangeCap, want: 2048},
		{name: "small", cap: 10, want: 10},
		{name: "no cap", cap: 0, want: -1},
		{name: "beyond any height", cap: 1 << 40, want: -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg := config.Default()
			cfg.EVMLogsBlockRangeCap = tt.cap
			vms := vmset.For(cfg)
			c, ok := vms[genesis.EVMID].(evm.Factory)
			require.True(t, ok)
			require.Equal(t, tt.want, c.Config.LogsBlockRangeCap)
			l1, ok := vms[node.SubnetEVMID].(evm.L1Factory)
			require.True(t, ok)
			require.Equal(t, tt.want, l1.Config.LogsBlockRangeCap)
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
