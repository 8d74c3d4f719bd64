package platform

import (
	"math"
	"math/big"
	"math/bits"
	"time"

	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// The dimensions of a tx's complexity (reference/platform-exchange.md §4.8).
const (
	Bandwidth = iota
	DBRead
	DBWrite
	Compute
	numDimensions
)

// Dimensions is a tx's complexity, or the weight of each dimension: [Bandwidth, DBRead, DBWrite,
// Compute] (§4.8).
type Dimensions [numDimensions]uint64

// FeeConfig is the dynamic tx fee mechanism's configuration (§4.8).
type FeeConfig struct {
	// Weights turn a complexity into gas: gas = Σ complexity[i]·Weights[i].
	Weights Dimensions
	// MaxCapacity bounds the gas a block may use after a long pause.
	MaxCapacity uint64
	// MaxPerSecond is how much capacity each second adds.
	MaxPerSecond uint64
	// TargetPerSecond is the gas per second above which the price rises.
	TargetPerSecond uint64
	// MinPrice is the price, in nAVAX per gas, at zero excess.
	MinPrice uint64
	// ExcessConversionConstant (K) sets how fast the price follows the excess: it grows by e
	// every K of excess.
	ExcessConversionConstant uint64
}

// LocalFeeConfig is the fee configuration of the local network, the same as mainnet's (§4.8,
// §7.6).
var LocalFeeConfig = FeeConfig{
	Weights:                  Dimensions{1, 1000, 1000, 4},
	MaxCapacity:              1_000_000,
	MaxPerSecond:             100_000,
	TargetPerSecond:          50_000,
	MinPrice:                 1,
	ExcessConversionConstant: 2_164_043,
}

// Per-part complexities that are not bandwidth: the reference's intrinsic values (§4.8,
// vms/platformvm/txs/fee/complexity.go), checked against the vectors' complexities.
const (
	// inputDBRead and inputDBWrite: an input reads and deletes its UTXO.
	inputDBRead  = 1
	inputDBWrite = 1
	// outputDBWrite: an output writes its UTXO.
	outputDBWrite = 1
	// signatureCompute is the cost of recovering one secp256k1 signature.
	signatureCompute = 200
	// createSubnetDBWrite: a CreateSubnetTx writes the subnet's owner.
	createSubnetDBWrite = 1
	// createChainDBRead: a CreateChainTx reads the subnet's owner and checks that the subnet
	// is neither transformed nor converted; createChainDBWrite: it writes the chain.
	createChainDBRead  = 3
	createChainDBWrite = 1
)

// Complexity returns tx's complexity (§4.8); wallets use it to compute the fee the chain will charge. The bandwidth is the signed tx's length: the
// reference sums intrinsic sizes per part, and for a tx with one credential per input (and one
// for its authorization) holding one signature per signature index, which verification
// requires, that sum is exactly the length of the signed bytes (the vectors confirm it).
func Complexity(tx *Tx) Dimensions {
	var c Dimensions
	c[Bandwidth] = uint64(tx.Size())
	base := tx.Unsigned().Base()
	for i := range base.Ins {
		c[DBRead] += inputDBRead
		c[DBWrite] += inputDBWrite
		c[Compute] += signatureCompute * uint64(len(sigIndices(base.Ins[i].In)))
	}
	c[DBWrite] += outputDBWrite * uint64(len(base.Outs))
	switch u := tx.Unsigned().(type) {
	case *CreateSubnetTx:
		c[DBWrite] += createSubnetDBWrite
	case *CreateChainTx:
		c[DBRead] += createChainDBRead
		c[DBWrite] += createChainDBWrite
		c[Compute] += signatureCompute * uint64(len(u.SubnetAuth.SigIndices))
	case *DisableL1ValidatorTx:
		c[Compute] += signatureCompute * uint64(len(u.DisableAuth.SigIndices))
	}
	return c
}

// sigIndices returns the signature indices of a transfer input, nil for other inputs.
func sigIndices(in Input) []uint32 {
	switch in := in.(type) {
	case *secp256k1fx.TransferInput:
		return in.SigIndices
	case *LockIn:
		if in.In != nil {
			return in.In.SigIndices
		}
	}
	return nil
}

// Gas returns the gas of complexity c under the weights w, saturating at 2^64-1.
func (w Dimensions) Gas(c Dimensions) uint64 {
	var gas uint64
	for i := range c {
		hi, lo := bits.Mul64(c[i], w[i])
		if hi != 0 {
			return math.MaxUint64
		}
		sum := gas + lo
		if sum < gas {
			return math.MaxUint64
		}
		gas = sum
	}
	return gas
}

// CalculatePrice returns minPrice·e^(excess/k) computed in integers by the Taylor series of
// EIP-4844's fake exponential, saturating at 2^64-1 (§4.7, §4.8). k must not be zero.
func CalculatePrice(minPrice, excess, k uint64) uint64 {
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
func (s feeState) advance(cfg *FeeConfig, t uint64) feeState {
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
func (s feeState) price(cfg *FeeConfig) uint64 {
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
