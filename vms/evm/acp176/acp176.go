// Package acp176 is the C-Chain's fee state from Fortuna on (ACP-176, l1-evm.md §8): a gas
// capacity that refills at twice the target rate up to ten seconds of target, an excess that
// each block's gas raises and each second's target lowers, and a target that block builders
// move by at most 2^15 of its exponent per block. The price is 1 wei · e^(excess / 87·T).
//
// Every value is a uint64 and every operation saturates, as the reference computes them, so
// that two nodes derive the same state from the same blocks. The package knows nothing of
// blocks: the EVM VM keeps a block's state after execution in its header's Extra (Bytes).
package acp176

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"sort"

	"github.com/holiman/uint256"
)

// The parameters of ACP-176 on the C-Chain.
const (
	// MinTargetPerSecond is P, the target at a target excess of 0.
	MinTargetPerSecond = 1_000_000
	// MaxTargetExcessDiff is Q, the most a block may move the target excess.
	MaxTargetExcessDiff = 1 << 15
	// TargetConversion is D: the target is P·e^(q/D), so Q moves it by about 1/1024.
	TargetConversion = 1024 * MaxTargetExcessDiff
	// MinGasPrice is M, the price at an excess of 0, in wei.
	MinGasPrice = 1
	// TargetToMax is R/T: capacity refills at twice the target.
	TargetToMax = 2
	// TimeToFillCapacity is C/R in seconds.
	TimeToFillCapacity = 5
	// TargetToPriceUpdateConversion is K/T: at full use the price doubles in about 60 s.
	TargetToPriceUpdateConversion = 87

	// StateSize is the size of a state's encoding (Bytes).
	StateSize = 24

	// maxTargetExcess is the first target excess whose target passes 2^64−1, the upper
	// bound of DesiredTargetExcess's search.
	maxTargetExcess = 1_024_950_627
)

// ErrInsufficientCapacity is returned by ConsumeGas when a block uses more gas than the
// capacity holds.
var ErrInsufficientCapacity = errors.New("insufficient gas capacity")

// errShortState is returned by ParseState for fewer than StateSize bytes.
var errShortState = errors.New("insufficient length for fee state")

// State is the fee state after a block (or before one, once advanced to its time).
type State struct {
	// Capacity is the gas a block may still use (r).
	Capacity uint64
	// Excess is the gas used beyond the target so far (x).
	Excess uint64
	// TargetExcess sets the target (q).
	TargetExcess uint64
}

// ParseState decodes Bytes' encoding from the start of b; bytes past StateSize are ignored.
func ParseState(b []byte) (State, error) {
	if len(b) < StateSize {
		return State{}, fmt.Errorf("%w: expected at least %d bytes but got %d bytes", errShortState, StateSize, len(b))
	}
	return State{
		Capacity:     binary.BigEndian.Uint64(b),
		Excess:       binary.BigEndian.Uint64(b[8:]),
		TargetExcess: binary.BigEndian.Uint64(b[16:]),
	}, nil
}

// Bytes encodes s as capacity, excess and target excess, 8 bytes each, big-endian.
func (s State) Bytes() []byte {
	b := make([]byte, StateSize)
	binary.BigEndian.PutUint64(b, s.Capacity)
	binary.BigEndian.PutUint64(b[8:], s.Excess)
	binary.BigEndian.PutUint64(b[16:], s.TargetExcess)
	return b
}

// Target is T, the target gas per second: P·e^(q/D).
func (s State) Target() uint64 {
	return fakeExponential(MinTargetPerSecond, s.TargetExcess, TargetConversion)
}

// MaxCapacity is C, the most capacity can hold: 10·T. It is a block's gas limit.
func (s State) MaxCapacity() uint64 {
	return mulSat(s.Target(), TargetToMax*TimeToFillCapacity)
}

// GasPrice is the base fee of a block in this state: M·e^(x/(87·T)), in wei.
func (s State) GasPrice() uint64 {
	return fakeExponential(MinGasPrice, s.Excess, mulSat(s.Target(), TargetToPriceUpdateConversion))
}

// AdvanceSeconds moves s forward by seconds: capacity grows by 2·T a second up to C, and
// the excess falls by T a second down to 0.
func (s *State) AdvanceSeconds(seconds uint64) {
	target := s.Target()
	maxPerSecond := mulSat(target, TargetToMax)
	s.Capacity = min(addSat(s.Capacity, mulSat(maxPerSecond, seconds)), mulSat(maxPerSecond, TimeToFillCapacity))
	s.Excess = subFloor(s.Excess, mulSat(target, seconds))
}

// ConsumeGas takes a block's gas out of the capacity and adds it to the excess (saturating);
// more gas than the capacity holds is ErrInsufficientCapacity and leaves s as it was.
func (s *State) ConsumeGas(gas uint64) error {
	if gas > s.Capacity {
		return fmt.Errorf("%w: %d gas used, capacity %d", ErrInsufficientCapacity, gas, s.Capacity)
	}
	s.Capacity -= gas
	s.Excess = addSat(s.Excess, gas)
	return nil
}

// UpdateTargetExcess moves the target excess toward desired by at most Q, scales the excess
// by new target / old target so that the price stays the same, and clamps the capacity to
// the new maximum.
func (s *State) UpdateTargetExcess(desired uint64) {
	s.MoveTargetExcess(desired, MaxTargetExcessDiff)
}

// MoveTargetExcess is UpdateTargetExcess with maxDiff in place of Q: the reference's rule is
// maxDiff = Q, and math.MaxUint64 sets the target excess to desired in one step.
func (s *State) MoveTargetExcess(desired, maxDiff uint64) {
	before := s.Target()
	change := min(absDiff(s.TargetExcess, desired), maxDiff)
	if s.TargetExcess < desired {
		s.TargetExcess += change
	} else {
		s.TargetExcess -= change
	}
	after := s.Target()
	x := new(big.Int).SetUint64(s.Excess)
	x.Mul(x, new(big.Int).SetUint64(after))
	x.Quo(x, new(big.Int).SetUint64(before))
	s.Excess = math.MaxUint64
	if x.IsUint64() {
		s.Excess = x.Uint64()
	}
	s.Capacity = min(s.Capacity, mulSat(after, TargetToMax*TimeToFillCapacity))
}

// DesiredTargetExcess is the smallest target excess whose target is at least target:
// D·ln(target/P) rounded up, found exactly by binary search rather than in floating point.
func DesiredTargetExcess(target uint64) uint64 {
	return uint64(sort.Search(maxTargetExcess, func(q int) bool {
		return State{TargetExcess: uint64(q)}.Target() >= target
	}))
}

// fakeExponential approximates factor·e^(numerator/denominator) with EIP-4844's integer
// Taylor series, saturating at 2^64−1. denominator must not be 0. Every intermediate fits 256
// bits: the accumulator stays below denominator·2^64 times numerator < 2^192.
func fakeExponential(factor, numerator, denominator uint64) uint64 {
	var output, accum, num, denom, limit, div uint256.Int
	denom.SetUint64(denominator)
	num.SetUint64(numerator)
	// The output saturates once output/denominator reaches 2^64−1.
	limit.Mul(&denom, div.SetUint64(math.MaxUint64))
	accum.Mul(div.SetUint64(factor), &denom)
	for i := uint64(1); !accum.IsZero(); i++ {
		output.Add(&output, &accum)
		if output.Cmp(&limit) >= 0 {
			return math.MaxUint64
		}
		accum.Mul(&accum, &num)
		accum.Div(&accum, div.Mul(&denom, div.SetUint64(i)))
	}
	return output.Div(&output, &denom).Uint64()
}

func mulSat(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	if hi != 0 {
		return math.MaxUint64
	}
	return lo
}

func addSat(a, b uint64) uint64 {
	sum, carry := bits.Add64(a, b, 0)
	if carry != 0 {
		return math.MaxUint64
	}
	return sum
}

func subFloor(a, b uint64) uint64 {
	if b > a {
		return 0
	}
	return a - b
}

func absDiff(a, b uint64) uint64 {
	if a > b {
		return a - b
	}
	return b - a
}
