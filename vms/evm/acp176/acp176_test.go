package acp176

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

const nAVAX = 1_000_000_000

// The vectors below are the reference implementation's own (avalanchego vms/evm/acp176 tests):
// states with their target, maximum capacity and price, and the results of each operation.
var readerVectors = []struct {
	name        string
	state       State
	skipDesired bool // the target excess is not the smallest for its target
	target      uint64
	maxCapacity uint64
	gasPrice    uint64
}{
	{name: "zero", target: MinTargetPerSecond, maxCapacity: 10 * MinTargetPerSecond, gasPrice: MinGasPrice},
	{name: "almost_excess_change", state: State{Excess: 60_303_808, TargetExcess: 33}, skipDesired: true,
		target: MinTargetPerSecond, maxCapacity: 10 * MinTargetPerSecond, gasPrice: 2},
	{name: "small_excess_change", state: State{Excess: 60_303_868, TargetExcess: 34},
		target: MinTargetPerSecond + 1, maxCapacity: 10 * (MinTargetPerSecond + 1), gasPrice: 2},
	{name: "max_initial_excess_change", state: State{Excess: 95_672_652, TargetExcess: MaxTargetExcessDiff}, skipDesired: true,
		target: MinTargetPerSecond + 977, maxCapacity: 10 * (MinTargetPerSecond + 977), gasPrice: 3},
	{name: "current_target", state: State{Excess: 2_704_386_192, TargetExcess: 13_605_152},
		target: 1_500_000, maxCapacity: 15_000_000, gasPrice: nAVAX + 2},
	{name: "3m_target", state: State{Excess: 6_610_721_802, TargetExcess: 36_863_312},
		target: 3_000_000, maxCapacity: 30_000_000, gasPrice: 100*nAVAX + 4},
	{name: "10m_target", state: State{Excess: 22_035_739_340, TargetExcess: 77_261_935},
		target: 10_000_000, maxCapacity: 100_000_000, gasPrice: 100*nAVAX + 5},
	{name: "low_1b_target", state: State{Excess: 2_203_573_881_110, TargetExcess: 231_785_804},
		target: 1_000_000_000 - 24, maxCapacity: 10 * (1_000_000_000 - 24), gasPrice: 100 * nAVAX},
	{name: "high_1b_target", state: State{Excess: 2_203_573_947_217, TargetExcess: 231_785_805},
		target: 1_000_000_000 + 6, maxCapacity: 10 * (1_000_000_000 + 6), gasPrice: 100 * nAVAX},
	{name: "largest_max_capacity", state: State{Excess: math.MaxUint64, TargetExcess: 947_688_691},
		target: 1_844_674_384_269_701_322, maxCapacity: 18_446_743_842_697_013_220, gasPrice: 2},
	{name: "largest_int64_target", state: State{Excess: math.MaxUint64, TargetExcess: 1_001_692_466},
		target: 9_223_371_923_824_614_091, maxCapacity: math.MaxUint64, gasPrice: 2},
	{name: "largest_uint64_target", state: State{Excess: math.MaxUint64, TargetExcess: maxTargetExcess},
		target: math.MaxUint64, maxCapacity: math.MaxUint64, gasPrice: 2},
	{name: "largest_excess", state: State{Excess: math.MaxUint64, TargetExcess: math.MaxUint64}, skipDesired: true,
		target: math.MaxUint64, maxCapacity: math.MaxUint64, gasPrice: 2},
}

func TestReaders(t *testing.T) {
	for _, v := range readerVectors {
		t.Run(v.name, func(t *testing.T) {
			require.Equal(t, v.target, v.state.Target(), "target")
			require.Equal(t, v.maxCapacity, v.state.MaxCapacity(), "max capacity")
			require.Equal(t, v.gasPrice, v.state.GasPrice(), "gas price")
			if !v.skipDesired {
				require.Equal(t, v.state.TargetExcess, DesiredTargetExcess(v.target), "desired target excess")
			}
		})
	}
}

func TestAdvanceSeconds(t *testing.T) {
	const q15 = 13_605_152 // a target of 1.5M gas/s
	for _, v := range []struct {
		name     string
		initial  State
		seconds  uint64
		expected State
	}{
		{"0_seconds", State{Excess: 2_000_000, TargetExcess: q15}, 0, State{Excess: 2_000_000, TargetExcess: q15}},
		{"1_second", State{Excess: 2_000_000, TargetExcess: q15}, 1, State{Capacity: 3_000_000, Excess: 500_000, TargetExcess: q15}},
		{"5_seconds", State{Excess: 15_000_000, TargetExcess: q15}, 5, State{Capacity: 15_000_000, Excess: 7_500_000, TargetExcess: q15}},
		{"0_seconds_over_capacity", State{Capacity: 16_000_000, Excess: 2_000_000, TargetExcess: q15}, 0,
			State{Capacity: 15_000_000, Excess: 2_000_000, TargetExcess: q15}},
		{"max_capacity_overflow", State{Excess: math.MaxUint64, TargetExcess: 947_688_692}, 1,
			State{Capacity: 3_689_348_878_490_565_692, Excess: math.MaxUint64 - 3_689_348_878_490_565_692/2, TargetExcess: 947_688_692}},
		{"max_rate_overflow", State{Excess: math.MaxUint64, TargetExcess: 1_001_692_467}, 1,
			State{Capacity: math.MaxUint64, Excess: 9_223_371_875_007_030_354, TargetExcess: 1_001_692_467}},
	} {
		t.Run(v.name, func(t *testing.T) {
			s := v.initial
			s.AdvanceSeconds(v.seconds)
			require.Equal(t, v.expected, s)
		})
	}
}

func TestConsumeGas(t *testing.T) {
	s := State{Capacity: 1_000_000, Excess: 2_000_000}
	require.NoError(t, s.ConsumeGas(0))
	require.Equal(t, State{Capacity: 1_000_000, Excess: 2_000_000}, s)
	require.NoError(t, s.ConsumeGas(100_000))
	require.Equal(t, State{Capacity: 900_000, Excess: 2_100_000}, s)

	over := State{Capacity: 1_000_000, Excess: 2_000_000}
	err := over.ConsumeGas(1_000_001)
	require.ErrorIs(t, err, ErrInsufficientCapacity)
	require.EqualError(t, err, "insufficient gas capacity: 1000001 gas used, capacity 1000000")
	require.Equal(t, State{Capacity: 1_000_000, Excess: 2_000_000}, over, "unchanged on error")

	full := State{Capacity: 10, Excess: math.MaxUint64 - 3}
	require.NoError(t, full.ConsumeGas(10))
	require.Equal(t, State{Excess: math.MaxUint64}, full, "the excess saturates")
}

func TestUpdateTargetExcess(t *testing.T) {
	for _, v := range []struct {
		name     string
		initial  State
		desired  uint64
		expected State
	}{
		{"no_change", State{Excess: 2_000_000}, 0, State{Excess: 2_000_000}},
		{"max_increase", State{Excess: 2_000_000}, MaxTargetExcessDiff + 1, State{Excess: 2_001_954, TargetExcess: MaxTargetExcessDiff}},
		{"inverse_max_increase", State{Excess: 2_001_954, TargetExcess: MaxTargetExcessDiff}, 0, State{Excess: 2_000_000}},
		{"max_decrease", State{Excess: 2_000_000_000, TargetExcess: 2 * MaxTargetExcessDiff}, 0,
			State{Excess: 1_998_047_816, TargetExcess: MaxTargetExcessDiff}},
		{"inverse_max_decrease", State{Excess: 1_998_047_816, TargetExcess: MaxTargetExcessDiff}, 2 * MaxTargetExcessDiff,
			State{Excess: 1_999_999_999, TargetExcess: 2 * MaxTargetExcessDiff}},
		{"reduce_capacity", State{Capacity: 10_019_550, Excess: 2_000_000_000, TargetExcess: 2 * MaxTargetExcessDiff}, 0,
			State{Capacity: 10_009_770, Excess: 1_998_047_816, TargetExcess: MaxTargetExcessDiff}},
		{"overflow_max_capacity", State{Capacity: math.MaxUint64, Excess: 2_000_000_000, TargetExcess: maxTargetExcess}, 0,
			State{Capacity: math.MaxUint64, Excess: 1_998_047_867, TargetExcess: maxTargetExcess - MaxTargetExcessDiff}},
		{"overflow_excess", State{Capacity: math.MaxUint64, Excess: math.MaxUint64, TargetExcess: maxTargetExcess - MaxTargetExcessDiff}, maxTargetExcess,
			State{Capacity: math.MaxUint64, Excess: math.MaxUint64, TargetExcess: maxTargetExcess}},
	} {
		t.Run(v.name, func(t *testing.T) {
			s := v.initial
			s.UpdateTargetExcess(v.desired)
			require.Equal(t, v.expected, s)
		})
	}
}

// TestMoveTargetExcess: without the bound of Q the target excess reaches desired in one step,
// up or down, with the excess scaled so that the price stays the same and the capacity clamped
// to the new maximum; with Q as the bound it is UpdateTargetExcess.
func TestMoveTargetExcess(t *testing.T) {
	const oneBillion = 231_785_805 // the smallest target excess of a target of 1,000,000,000 gas/s
	up := State{Capacity: 7_000_000, Excess: 2_000_000}
	up.MoveTargetExcess(oneBillion, math.MaxUint64)
	require.Equal(t, uint64(1_000_000_006), up.Target())
	require.Equal(t, State{Capacity: 7_000_000, Excess: 2_000_000_012, TargetExcess: oneBillion}, up)
	require.Equal(t, State{Excess: 2_000_000}.GasPrice(), up.GasPrice(), "the price stays the same")

	down := State{Capacity: 10_000_000_060, Excess: 2_000_000_012, TargetExcess: oneBillion}
	down.MoveTargetExcess(0, math.MaxUint64)
	require.Equal(t, State{Capacity: 10_000_000, Excess: 2_000_000}, down)

	for _, v := range []struct {
		initial State
		desired uint64
	}{
		{State{Excess: 2_000_000}, oneBillion},
		{State{Excess: 2_000_000_000, TargetExcess: 2 * MaxTargetExcessDiff}, 0},
	} {
		bounded, reference := v.initial, v.initial
		bounded.MoveTargetExcess(v.desired, MaxTargetExcessDiff)
		reference.UpdateTargetExcess(v.desired)
		require.Equal(t, reference, bounded)
	}
}

func TestParseAndBytes(t *testing.T) {
	_, err := ParseState(make([]byte, StateSize-1))
	require.EqualError(t, err, "insufficient length for fee state: expected at least 24 bytes but got 23 bytes")

	b := []byte{
		0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
		0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18,
		0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28,
	}
	want := State{Capacity: 0x0102030405060708, Excess: 0x1112131415161718, TargetExcess: 0x2122232425262728}
	s, err := ParseState(append(b, 0xff)) // trailing bytes are ignored
	require.NoError(t, err)
	require.Equal(t, want, s)
	require.Equal(t, b, s.Bytes())
}

// TestDoublingAtFullUse checks the design point of K = 87·T: at sustained full use (2·T a
// second) the excess grows by T a second and the price doubles in about 60 s.
func TestDoublingAtFullUse(t *testing.T) {
	var s State
	s.AdvanceSeconds(5)
	require.Equal(t, uint64(10_000_000), s.Capacity)
	var seconds int
	for price := uint64(1_000_000); ; seconds++ {
		// Start from an excess whose price is 10^6 wei, so rounding does not hide the doubling.
		if seconds == 0 {
			s.Excess = 87_000_000 * 13_815_511 / 1_000_000 // 87·T·ln(10^6)
			price = s.GasPrice()
		}
		s.AdvanceSeconds(1)
		require.NoError(t, s.ConsumeGas(2*MinTargetPerSecond))
		if s.GasPrice() >= 2*price {
			break
		}
	}
	require.InDelta(t, 60, seconds, 1)
}

// BenchmarkBlockFees is what a block's fees cost under ACP-176: the parent's state decoded and
// advanced a second, the price and gas limit, the block's gas consumed, the state encoded. The
// state is the one at the end of a burst of 4,000 transfers (an excess of about 47M gas).
func BenchmarkBlockFees(b *testing.B) {
	parent := State{Capacity: 0, Excess: 47_000_000}.Bytes()
	for b.Loop() {
		s, err := ParseState(parent)
		if err != nil {
			b.Fatal(err)
		}
		s.AdvanceSeconds(1)
		_, _ = s.GasPrice(), s.MaxCapacity()
		if err := s.ConsumeGas(2_000_000); err != nil {
			b.Fatal(err)
		}
		_ = s.Bytes()
	}
}
