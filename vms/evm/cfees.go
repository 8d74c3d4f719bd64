package evm

import (
	"math/big"

	"github.com/ethereum/go-ethereum/core/types"

	"github.com/cornice-node/cornice/vms/evm/acp176"
)

// The C-Chain's fees from Fortuna on (ACP-176, l1-evm.md §8; package acp176), active from
// genesis on local networks. A block's header carries the fee state after the block in its
// Extra (24 bytes: capacity, excess, target excess), as the reference's does, so the state
// is in the block's hash and survives restarts with the block. The state before a block is
// its parent's advanced to the block's time: the base fee is its price, the gas limit its
// maximum capacity (10M at the initial target of 1M gas/s), and the block's gas may not pass
// its capacity. Before Fortuna, and on L1s, the base fee is the window of l1-evm.md §3.6.

// acp176At reports whether ACP-176 prices a block at time t: on the C-Chain from Fortuna on.
func (vm *VM) acp176At(t uint64) bool { return vm.l1 == nil && t >= vm.fortuna }

// feeStateAfter returns the fee state a block leaves: zero for the genesis and for a block
// before Fortuna, as at the reference's activation. A C-Chain block written before cornice
// priced with ACP-176 carries the 80-byte window instead, and counts as a block before
// Fortuna: the state starts from zero after it.
func (vm *VM) feeStateAfter(h *types.Header) acp176.State {
	if h.Number.Sign() == 0 || !vm.acp176At(h.Time) || len(h.Extra) != acp176.StateSize {
		return acp176.State{}
	}
	s, _ := acp176.ParseState(h.Extra) // the length is right: it cannot fail
	return s
}

// childFees is what the fee rules fix for a block at a given time on a given parent.
type childFees struct {
	baseFee  *big.Int
	gasLimit uint64
	// window is the Extra of a block priced by the window; nil under ACP-176.
	window []byte
	// state is the ACP-176 fee state before the block executes; nil without ACP-176.
	state *acp176.State
}

// childFees returns the fees of a block at time t on parent, whose children's rules are r.
func (vm *VM) childFees(parent *types.Header, r *childRules, t uint64) (childFees, error) {
	if t < parent.Time {
		return childFees{}, timestampError(t, parent.Time)
	}
	if !vm.acp176At(t) {
		baseFee, window, err := NextBaseFee(r.fees, parent, t)
		if err != nil {
			return childFees{}, err
		}
		return childFees{baseFee: baseFee, gasLimit: r.gasLimit, window: window}, nil
	}
	s := vm.feeStateAfter(parent)
	s.AdvanceSeconds(t - parent.Time)
	return childFees{baseFee: new(big.Int).SetUint64(s.GasPrice()), gasLimit: s.MaxCapacity(), state: &s}, nil
}

// capacity is the gas a block with these fees may use.
func (f childFees) capacity() uint64 {
	if f.state != nil {
		return min(f.state.Capacity, f.gasLimit)
	}
	return f.gasLimit
}

// extra returns the Extra of a block with these fees that used gasUsed: the window, or the
// fee state after the block with its target excess moved toward desired (nil: kept).
func (f childFees) extra(gasUsed uint64, desired *uint64) ([]byte, error) {
	if f.state == nil {
		return f.window, nil
	}
	s := *f.state
	if err := s.ConsumeGas(gasUsed); err != nil {
		return nil, gasUsedError(err)
	}
	if desired != nil {
		s.UpdateTargetExcess(*desired)
	}
	return s.Bytes(), nil
}
