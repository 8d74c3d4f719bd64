package evm

import (
	"math"
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

// The target: each block's builder may move the target excess toward the one it prefers, by at
// most 2^15 (the reference's rule, which takes thousands of blocks to move the target far);
// this node prefers Config.GasTarget's. With developer methods on, the chain is one developer's
// (a lone local node, whose accepted blocks are not final anyway): this node prefers
// DevGasTarget unless Config.GasTarget says otherwise, and a block may move the target excess
// any distance, so the first block a developer's node builds sets it (docs/decisions.md).

// targetRule returns the gas target per second this node prefers (nil: its blocks keep their
// parent's) and the most one block may move the target excess.
func (c Config) targetRule() (preferred *uint64, step uint64) {
	if !c.DevMethods {
		return c.GasTarget, acp176.MaxTargetExcessDiff
	}
	if preferred = c.GasTarget; preferred == nil {
		dev := uint64(DevGasTarget)
		preferred = &dev
	}
	return preferred, math.MaxUint64
}

// setTargetRule sets the VM's target rule from cfg (targetRule), and logs the preference and
// how fast the chain reaches it, so that whoever loads the chain sees why it takes the load.
func (vm *VM) setTargetRule(cfg Config) {
	preferred, step := cfg.targetRule()
	vm.targetStep = step
	if preferred == nil {
		return
	}
	q := acp176.DesiredTargetExcess(*preferred)
	vm.desiredTarget = &q
	reached := "by 2^15 of the target excess a block (ACP-176)"
	if step == math.MaxUint64 {
		reached = "at the next block (developer methods on)"
	}
	vm.log.Info("gas target preferred", "gasPerSecond", *preferred, "reached", reached)
}

// acp176At reports whether ACP-176 prices a block at time t: on the C-Chain from Fortuna on.
func (vm *VM) acp176At(t uint64) bool { return vm.l1 == nil && t >= vm.fortuna }

// feeStateAfter returns the fee state a block leaves: zero for the genesis and for a block
// before Fortuna, as at the reference's activation. A C-Chain block written before cornice
// priced with ACP-176 carries the 80-byte window instead, and counts as a block before
// Fortuna: the state starts from zero after it. Warp predicate results may follow the state.
func (vm *VM) feeStateAfter(h *types.Header) acp176.State {
	if h.Number.Sign() == 0 || !vm.acp176At(h.Time) || len(h.Extra) < acp176.StateSize || len(h.Extra) == windowSize {
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
	// targetStep is the most the block may move the target excess (VM.targetStep).
	targetStep uint64
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
	return childFees{baseFee: new(big.Int).SetUint64(s.GasPrice()), gasLimit: s.MaxCapacity(), state: &s, targetStep: vm.targetStep}, nil
}

// capacity is the gas a block with these fees may use.
func (f childFees) capacity() uint64 {
	if f.state != nil {
		return min(f.state.Capacity, f.gasLimit)
	}
	return f.gasLimit
}

// extra returns the Extra of a block with these fees that used gasUsed: the window, or the
// fee state after the block with its target excess moved toward desired (nil: kept) by at most
// f.targetStep.
func (f childFees) extra(gasUsed uint64, desired *uint64) ([]byte, error) {
	if f.state == nil {
		return f.window, nil
	}
	s := *f.state
	if err := s.ConsumeGas(gasUsed); err != nil {
		return nil, gasUsedError(err)
	}
	if desired != nil {
		s.MoveTargetExcess(*desired, f.targetStep)
	}
	return s.Bytes(), nil
}
