package evm

import (
	"encoding/binary"
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
