package evm

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/big"

	"github.com/ethereum/go-ethereum/core/types"
)

// windowLen is the number of one-second slots of the base-fee window, and
// windowSize its encoding's size at the start of header.Extra
// (l1-evm.md §3.6).
const (
	windowLen  = 10
	windowSize = windowLen * 8
)

// FeeConfig is the fee config of l1-evm.md §3.1. Block gas cost fields are
// kept for the L1 configs; see NextBlockGasCost.
type FeeConfig struct {
	GasLimit                 uint64
	TargetBlockRate          uint64
	MinBaseFee               *big.Int
	TargetGas                uint64
	BaseFeeChangeDenominator uint64
	MinBlockGasCost          uint64
	MaxBlockGasCost          uint64
	BlockGasCostStep         uint64
}

// DefaultFeeConfig returns the default fee config (l1-evm.md §3.2).
func DefaultFeeConfig() FeeConfig {
	return FeeConfig{
		GasLimit:                 8_000_000,
		TargetBlockRate:          2,
		MinBaseFee:               big.NewInt(25_000_000_000),
		TargetGas:                15_000_000,
		BaseFeeChangeDenominator: 36,
		MinBlockGasCost:          0,
		MaxBlockGasCost:          1_000_000,
		BlockGasCostStep:         200_000,
	}
}

// Verify checks f as l1-evm.md §3.3 says, reporting every problem.
func (f *FeeConfig) Verify() error {
	var errs []error
	if f.GasLimit == 0 {
		errs = append(errs, feeConfigError("gasLimit cannot be less than or equal to 0", "gasLimit", f.GasLimit))
	}
	if f.TargetBlockRate == 0 {
		errs = append(errs, feeConfigError("targetBlockRate cannot be less than or equal to 0", "targetBlockRate", f.TargetBlockRate))
	}
	switch {
	case f.MinBaseFee == nil:
		errs = append(errs, errors.New("invalid fee config: minBaseFee cannot be nil"))
	case f.MinBaseFee.Sign() < 0:
		errs = append(errs, feeConfigError("minBaseFee cannot be less than 0", "minBaseFee", f.MinBaseFee))
	case f.MinBaseFee.BitLen() > 256:
		errs = append(errs, errors.New("invalid fee config: minBaseFee exceeds hash length: 32 bytes"))
	}
	if f.TargetGas == 0 {
		errs = append(errs, feeConfigError("targetGas cannot be less than or equal to 0", "targetGas", f.TargetGas))
	}
	if f.BaseFeeChangeDenominator == 0 {
		errs = append(errs, feeConfigError("baseFeeChangeDenominator cannot be less than or equal to 0", "baseFeeChangeDenominator", f.BaseFeeChangeDenominator))
	}
	if f.MinBlockGasCost > f.MaxBlockGasCost {
		errs = append(errs, feeConfigError("minBlockGasCost cannot be greater than maxBlockGasCost", "minBlockGasCost", f.MinBlockGasCost))
	}
	return errors.Join(errs...)
}

func feeConfigError(text, field string, v any) error {
	return fmt.Errorf("invalid fee config: %s: %s = %v", text, field, v)
}

// NextBaseFee returns the base fee and the Extra window of a block at time t
// (seconds) on parent, as l1-evm.md §3.6 says: the window sums the gas used
// over the last 10 seconds and the base fee moves toward targetGas by
// 1/denominator of the deviation.
func NextBaseFee(f *FeeConfig, parent *types.Header, t uint64) (*big.Int, []byte, error) {
	// Rule 1: the first block has minBaseFee and an empty window.
	if parent.Number.Sign() == 0 {
		return new(big.Int).Set(f.MinBaseFee), make([]byte, windowSize), nil
	}
	if len(parent.Extra) < windowSize {
		return nil, nil, windowLengthError(len(parent.Extra))
	}
	if t < parent.Time {
		return nil, nil, timestampError(t, parent.Time)
	}
	if parent.BaseFee == nil {
		return nil, nil, errNoParentBaseFee
	}
	var w [windowLen]uint64
	for i := range w {
		w[i] = binary.BigEndian.Uint64(parent.Extra[i*8:])
	}
	w[windowLen-1] = addSat(w[windowLen-1], parent.GasUsed)
	delta := t - parent.Time
	var shifted [windowLen]uint64
	if delta < windowLen {
		copy(shifted[:], w[delta:])
	}
	var sum uint64
	for _, g := range shifted {
		sum = addSat(sum, g)
	}
	extra := make([]byte, windowSize)
	for i, g := range shifted {
		binary.BigEndian.PutUint64(extra[i*8:], g)
	}

	base := new(big.Int).Set(parent.BaseFee)
	target := f.TargetGas
	if sum == target {
		return base, extra, nil // rule 3: unchanged, not clamped
	}
	var dev uint64
	if sum > target {
		dev = sum - target
	} else {
		dev = target - sum
	}
	d := new(big.Int).Mul(parent.BaseFee, new(big.Int).SetUint64(dev))
	d.Div(d, new(big.Int).SetUint64(target))
	d.Div(d, new(big.Int).SetUint64(f.BaseFeeChangeDenominator))
	if d.Sign() == 0 {
		d.SetInt64(1)
	}
	if sum > target {
		base.Add(base, d)
	} else {
		if m := delta / windowLen; m > 1 {
			d.Mul(d, new(big.Int).SetUint64(m))
		}
		base.Sub(base, d)
	}
	if base.Cmp(f.MinBaseFee) < 0 {
		base.Set(f.MinBaseFee)
	}
	if base.BitLen() > 256 {
		base.Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
	}
	return base, extra, nil
}

// NextBlockGasCost is the block gas cost of l1-evm.md §3.7. With Granite
// active, as on every network this node runs, it is always zero, so no
// header carries it and no block fee check applies.
func NextBlockGasCost() uint64 { return 0 }

func addSat(a, b uint64) uint64 {
	if a > math.MaxUint64-b {
		return math.MaxUint64
	}
	return a + b
}
