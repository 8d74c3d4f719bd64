package platform

import (
	"math"
	"testing"

	"github.com/cornice-node/cornice/vms/platform/txs"
	"github.com/stretchr/testify/require"
)

// TestCalculatePrice checks the reference's examples (platform-exchange.md §4.7, apiShapes).
func TestCalculatePrice(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name                string
		minPrice, excess, k uint64
		want                uint64
	}{
		{"zero excess", 1, 0, 2_164_043, 1},
		{"zero excess, any price", 1 << 60, 0, 7, 1 << 60},
		{"zero excess, the largest price", math.MaxUint64, 0, 3, math.MaxUint64},
		{"one K", 1, 2_164_043, 2_164_043, 2},
		{"ten million", 1, 10_000_000, 2_164_043, 101},
		{"mainnet validator fee", 512, 1_246_488_515, 1_246_488_515, 1391},
		{"local validator fee", 1, 865_617, 865_617, 2},
		{"saturates", math.MaxUint64, 1 << 40, 1, math.MaxUint64},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tt.want, CalculatePrice(tt.minPrice, tt.excess, tt.k))
		})
	}
}

// TestFeeStateAdvance checks the per-block steps of §4.8: refill and drain with time, then
// consume.
func TestFeeStateAdvance(t *testing.T) {
	t.Parallel()
	cfg := txs.LocalFeeConfig
	s := feeState{time: 100}
	require.Equal(t, s, s.advance(&cfg, 99), "time never goes back")
	s = s.advance(&cfg, 105)
	require.Equal(t, feeState{time: 105, capacity: 500_000}, s)
	s, ok := s.consume(12_016)
	require.True(t, ok)
	require.Equal(t, feeState{time: 105, capacity: 487_984, excess: 12_016}, s)
	s = s.advance(&cfg, 1<<40)
	require.Equal(t, feeState{time: 1 << 40, capacity: cfg.MaxCapacity}, s)
	_, ok = s.consume(cfg.MaxCapacity + 1)
	require.False(t, ok)
	require.Equal(t, uint64(1), s.price(&cfg))
}

// TestValidatorFeeCost checks the continuous fee's per-second charge and eviction time (§4.7).
func TestValidatorFeeCost(t *testing.T) {
	t.Parallel()
	c := LocalValidatorFeeConfig
	k := c.ExcessConversionConstant
	tests := []struct {
		name                     string
		current, excess, seconds uint64
		wantCost, wantExcess     uint64
	}{
		{"below target", 2, 0, 7, 7, 0},
		{"at target", 10_000, 0, 3, 3, 0},
		{"excess drains", 9_999, 2, 3, 3, 0},
		{"one K of excess", 10_000, k, 2, 4, k},
		{"above target", 10_000 + k, 0, 1, 2, k},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cost, excess := c.cost(tt.current, tt.excess, tt.seconds)
			require.Equal(t, tt.wantCost, cost)
			require.Equal(t, tt.wantExcess, excess)
			s := c.secondsUntil(tt.current, tt.excess, tt.wantCost, math.MaxUint64)
			require.Equal(t, tt.seconds, s)
		})
	}
	require.Equal(t, uint64(3), c.secondsUntil(2, 0, 3, 10))
	require.Equal(t, uint64(10), c.secondsUntil(2, 0, 30, 10))
}

// TestIssuePrice checks that the price issueTx remembers follows the excess: the same price as
// CalculatePrice at each excess, in any order, with repeats.
func TestIssuePrice(t *testing.T) {
	t.Parallel()
	vm := &VM{}
	vm.rules.fees = txs.LocalFeeConfig
	k := txs.LocalFeeConfig.ExcessConversionConstant
	for _, excess := range []uint64{0, 10_000_000, 10_000_000, 2 * k, 0, 3 * k, 3 * k, 10_000_000} {
		want := CalculatePrice(txs.LocalFeeConfig.MinPrice, excess, k)
		require.Equal(t, want, vm.issuePrice(feeState{excess: excess}), "excess %d", excess)
	}
}
