package evm

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/big"

	"github.com/ethereum/go-ethereum/core/types"

	"github.com/cornice-node/cornice/vms/evm/l1params"
)

// windowLen is the number of one-second slots of the base-fee window, and
// windowSize its encoding's size at the start of header.Extra
// (l1-evm.md §3.6).
const (
	windowLen  = 10
	windowSize = windowLen * 8
)

// NextBaseFee returns the base fee and the Extra window of a block at time t
// (seconds) on parent, as l1-evm.md §3.6 says: the window sums the gas used
// over the last 10 seconds and the base fee moves toward targetGas by
// 1/denominator of the deviation. f must pass f.Verify (l1params): its
// targetGas and denominator are then positive.
func NextBaseFee(f *l1params.FeeConfig, parent *types.Header, t uint64) (*big.Int, []byte, error) {
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
	// targetGas is a big integer (l1-evm.md §3.1): compare the window's sum
	// with it as one.
	total := new(big.Int).SetUint64(sum)
	target := f.TargetGas
	cmp := total.Cmp(target)
	if cmp == 0 {
		return base, extra, nil // rule 3: unchanged, not clamped
	}
	dev := total.Sub(total, target) // reuses total
	dev.Abs(dev)
	d := dev.Mul(parent.BaseFee, dev)
	d.Div(d, target)
	d.Div(d, f.BaseFeeChangeDenominator)
	if d.Sign() == 0 {
		d.SetInt64(1)
	}
	if cmp > 0 {
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

// BlockGasCost is the block gas cost of a block elapsed seconds after its
// parent, whose own cost is parentCost (nil when the parent has none), under
// the parent's fee config f, before Granite (l1-evm.md §3.7): the parent's
// cost moves up by blockGasCostStep per second the block comes sooner than
// targetBlockRate and down by as much per second later, saturating, then is
// clamped to [minBlockGasCost, maxBlockGasCost]. From Granite on the cost
// is 0 (VM.childGasCost). f must pass f.Verify.
func BlockGasCost(f *l1params.FeeConfig, parentCost *uint64, elapsed uint64) uint64 {
	lo, hi := satUint64(f.MinBlockGasCost), satUint64(f.MaxBlockGasCost)
	if parentCost == nil {
		return lo
	}
	target := f.TargetBlockRate
	dev := target - elapsed
	if elapsed > target {
		dev = elapsed - target
	}
	change := mulSat(satUint64(f.BlockGasCostStep), dev)
	var cost uint64
	if elapsed <= target {
		cost = *parentCost + change
		if cost < change { // overflow
			cost = hi
		}
	} else {
		cost = *parentCost - change
		if change > *parentCost { // underflow
			cost = lo
		}
	}
	return min(max(cost, lo), hi)
}

// blockFee is the block fee of l1-evm.md §3.7 of a block with base fee
// baseFee: Σ effectiveTip·gasUsed over its transactions, divided by the base
// fee, in gas. receipts[i] is txs[i]'s.
func blockFee(baseFee *big.Int, txs types.Transactions, receipts types.Receipts) (*big.Int, error) {
	if baseFee == nil || baseFee.Sign() <= 0 {
		return nil, errNoParentBaseFee
	}
	total, gas := new(big.Int), new(big.Int)
	for i, tx := range txs {
		tip, err := tx.EffectiveGasTip(baseFee)
		if err != nil {
			return nil, fmt.Errorf("transaction %d (%s): %w", i, tx.Hash(), err)
		}
		total.Add(total, tip.Mul(tip, gas.SetUint64(receipts[i].GasUsed)))
	}
	return total.Div(total, baseFee), nil
}

// verifyBlockFee is VerifyBlockFee of l1-evm.md §3.7: the block fee must
// cover the block gas cost; skipped when the cost is 0.
func verifyBlockFee(baseFee *big.Int, cost uint64, txs types.Transactions, receipts types.Receipts) error {
	if cost == 0 {
		return nil
	}
	fee, err := blockFee(baseFee, txs, receipts)
	if err != nil {
		return err
	}
	if fee.Cmp(new(big.Int).SetUint64(cost)) < 0 {
		return insufficientBlockFeeError(cost, fee)
	}
	return nil
}

// satUint64 is n as a uint64, 2^64−1 when larger, 0 when nil or negative.
func satUint64(n *big.Int) uint64 {
	switch {
	case n == nil || n.Sign() <= 0:
		return 0
	case !n.IsUint64():
		return math.MaxUint64
	}
	return n.Uint64()
}

func mulSat(a, b uint64) uint64 {
	if a != 0 && b > math.MaxUint64/a {
		return math.MaxUint64
	}
	return a * b
}

func addSat(a, b uint64) uint64 {
	if a > math.MaxUint64-b {
		return math.MaxUint64
	}
	return a + b
}
