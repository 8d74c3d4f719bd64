package platform

import (
	"math"
	"math/big"
	"math/bits"
	"time"

	"github.com/cornice-node/cornice/vms/platform/txs"
)

// CalculatePrice returns minPrice·e^(excess/k) computed in integers by the Taylor series of
// EIP-4844's fake exponential, saturating at 2^64-1 (§4.7, §4.8). k must not be zero.
func CalculatePrice(minPrice, excess, k uint64) uint64 {
	if excess == 0 {
		// The series is its first term, minPrice·k/k: every issueTx prices its tx, and the
		// excess is 0 whenever blocks stay under the target.
		return minPrice
	}
	denom := new(big.Int).SetUint64(k)
	num := new(big.Int).SetUint64(excess)
	output := new(big.Int)
	accum := new(big.Int).Mul(new(big.Int).SetUint64(minPrice), denom)
	maxOut := new(big.Int).Mul(new(big.Int).SetUint64(math.MaxUint64), denom)
	for i := int64(1); accum.Sign() > 0; i++ {
		output.Add(output, accum)
		if output.Cmp(maxOut) >= 0 {
			return math.MaxUint64
		}
		accum.Mul(accum, num)
		accum.Quo(accum, new(big.Int).Mul(denom, big.NewInt(i)))
	}
	return output.Quo(output, denom).Uint64()
}

// feeState is the dynamic fee state carried from block to block (§4.8), with the chain time it
// was last advanced to.
type feeState struct {
	// time is the chain time in unix seconds: the last accepted block's, or the genesis time.
	time     uint64
	capacity uint64
	excess   uint64
	// validatorExcess is the L1 validators' continuous fee excess, and accrued what one validator
	// active since the genesis would have paid, in nAVAX (§4.7).
	validatorExcess uint64
	accrued         uint64
}

// advance returns the state at time t ≥ s.time: capacity refills at MaxPerSecond up to
// MaxCapacity, and excess drains at TargetPerSecond down to 0 (§4.8 step 1).
func (s feeState) advance(cfg *txs.FeeConfig, t uint64) feeState {
	if t <= s.time {
		return s
	}
	dt := t - s.time
	next := feeState{time: t, validatorExcess: s.validatorExcess, accrued: s.accrued}
	refill := uint64(math.MaxUint64)
	if hi, lo := bits.Mul64(cfg.MaxPerSecond, dt); hi == 0 {
		refill = lo
	}
	next.capacity = min(satAdd(s.capacity, refill), cfg.MaxCapacity)
	drain := uint64(math.MaxUint64)
	if hi, lo := bits.Mul64(cfg.TargetPerSecond, dt); hi == 0 {
		drain = lo
	}
	if s.excess > drain {
		next.excess = s.excess - drain
	}
	return next
}

// price returns the gas price at this state's excess (§4.8 step 2).
func (s feeState) price(cfg *txs.FeeConfig) uint64 {
	return CalculatePrice(cfg.MinPrice, s.excess, cfg.ExcessConversionConstant)
}

// consume returns the state after a block used gas, or false if the capacity is short (§4.8 step
// 3).
func (s feeState) consume(gas uint64) (feeState, bool) {
	if gas > s.capacity {
		return s, false
	}
	s.capacity -= gas
	s.excess = satAdd(s.excess, gas)
	return s, true
}

// timestamp returns the state's chain time.
func (s feeState) timestamp() time.Time { return time.Unix(int64(s.time), 0).UTC() }

func satAdd(a, b uint64) uint64 {
	if s := a + b; s >= a {
		return s
	}
	return math.MaxUint64
}

// ValidatorFeeConfig is the L1 validators' continuous fee configuration (§4.7).
type ValidatorFeeConfig struct {
	// Capacity is the most active L1 validators the fee state is sized for.
	Capacity uint64
	// Target is the number of active L1 validators above which the price rises.
	Target uint64
	// MinPrice is the price, in nAVAX per validator per second, at zero excess.
	MinPrice uint64
	// ExcessConversionConstant (K): the price grows by e every K of excess.
	ExcessConversionConstant uint64
}

// LocalValidatorFeeConfig is the local network's continuous fee configuration: the price doubles
// every minute of excess (§4.7).
var LocalValidatorFeeConfig = ValidatorFeeConfig{
	Capacity:                 20_000,
	Target:                   10_000,
	MinPrice:                 1,
	ExcessConversionConstant: 865_617,
}

// advanceExcess returns the continuous fee excess one second later with current active
// validators: it grows by current − target above the target and shrinks by target − current
// below it, floored at 0 (§4.7).
func (c *ValidatorFeeConfig) advanceExcess(current, excess uint64) uint64 {
	if current > c.Target {
		return satAdd(excess, current-c.Target)
	}
	if d := c.Target - current; excess > d {
		return excess - d
	}
	return 0
}

// cost returns what one active validator pays over the next seconds with current active
// validators and the excess, and the excess after them: each second advances the excess, then
// charges the price at it (§4.7). It saturates at 2^64-1.
func (c *ValidatorFeeConfig) cost(current, excess, seconds uint64) (uint64, uint64) {
	var total uint64
	for ; seconds > 0; seconds-- {
		if excess == 0 && current <= c.Target {
			// The price stays at the minimum from here on.
			p, overflow := mulOverflow(c.MinPrice, seconds)
			if overflow {
				return math.MaxUint64, 0
			}
			return satAdd(total, p), 0
		}
		excess = c.advanceExcess(current, excess)
		total = satAdd(total, CalculatePrice(c.MinPrice, excess, c.ExcessConversionConstant))
		if total == math.MaxUint64 {
			return total, excess
		}
	}
	return total, excess
}

// secondsUntil returns the fewest seconds after which one active validator has paid at least
// remaining, with current active validators and the excess: when a validator with that much
// left runs out (§4.7). It returns at most limit.
func (c *ValidatorFeeConfig) secondsUntil(current, excess, remaining, limit uint64) uint64 {
	var s uint64
	for s < limit {
		if excess == 0 && current <= c.Target {
			if c.MinPrice == 0 {
				return limit
			}
			return min(s+(remaining+c.MinPrice-1)/c.MinPrice, limit)
		}
		excess = c.advanceExcess(current, excess)
		s++
		p := CalculatePrice(c.MinPrice, excess, c.ExcessConversionConstant)
		if p >= remaining {
			return s
		}
		remaining -= p
	}
	return limit
}
