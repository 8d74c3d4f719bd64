package evm

import (
	"math/big"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/vms/evm/l1params"
)

// TestGasCostReadyAt checks when the builder retries a block whose fee
// did not cover its block gas cost: the first second at which the cost
// (l1-evm.md §3.7) is covered, Granite included, or never.
func TestGasCostReadyAt(t *testing.T) {
	t.Parallel()
	genesis, err := os.ReadFile(filepath.Join("testdata", "l1-genesis.json"))
	require.NoError(t, err)
	const parentTime = 1_700_000_010
	vmAt := func(upgrade string) *VM {
		g, err := l1params.ParseGenesis(genesis, []byte(upgrade), 12345)
		require.NoError(t, err)
		return &VM{l1: g.Config}
	}
	// Granite 100 s after genesis, and unscheduled (9999).
	soon := vmAt(`{"networkUpgradeOverrides":{"graniteTimestamp":1700000100}}`)
	late := vmAt(`{"networkUpgradeOverrides":{"graniteTimestamp":253399622400}}`)
	def := l1params.DefaultFeeConfig()
	noStep := def.Copy()
	noStep.BlockGasCostStep = new(big.Int)
	floor := def.Copy()
	floor.MinBlockGasCost = big.NewInt(100_000)
	ptr := func(v uint64) *uint64 { return &v }
	tests := []struct {
		name       string
		vm         *VM
		fees       l1params.FeeConfig
		parentCost *uint64
		t, fee     uint64
		want       uint64
		wantOK     bool
	}{
		{"fee covers the on-target cost", late, def, ptr(400_000), parentTime, 400_000, parentTime + 2, true},
		{"fee covers 200,000 at Δ 3", late, def, ptr(400_000), parentTime, 200_000, parentTime + 3, true},
		{"a tiny fee waits for 0 at Δ 4", late, def, ptr(400_000), parentTime, 840, parentTime + 4, true},
		{"already late: the next second", late, def, ptr(400_000), parentTime + 10, 0, parentTime + 11, true},
		{"from the maximum to 0 at Δ 7", soon, def, ptr(1_000_000), parentTime, 0, parentTime + 7, true},
		{"no step: the far Granite", late, noStep, ptr(400_000), parentTime, 0, 253399622400, true},
		{"no parent cost: the minimum until Granite", soon, floor, nil, parentTime, 0, 1_700_000_100, true},
		{"no Granite, no step: never", &VM{l1: noGranite(t, genesis)}, noStep, ptr(400_000), parentTime, 0, 0, false},
		{"no step: Granite", soon, noStep, ptr(400_000), parentTime, 0, 1_700_000_100, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := &childRules{fees: &tt.fees, parentTime: parentTime, parentGasCost: tt.parentCost}
			at, ok := tt.vm.gasCostReadyAt(r, tt.t, tt.fee)
			require.Equal(t, tt.wantOK, ok)
			require.Equal(t, tt.want, at)
		})
	}
}

// noGranite returns the test L1's chain config without Granite, which no
// chain config can say but the search must handle.
func noGranite(t *testing.T, genesis []byte) *l1params.ChainConfig {
	t.Helper()
	g, err := l1params.ParseGenesis(genesis, nil, 12345)
	require.NoError(t, err)
	g.Config.GraniteTimestamp = nil
	return g.Config
}
