package platform

import (
	"context"
	"fmt"
	"time"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/internal/processing"
	"github.com/cornice-node/cornice/vms/platform/txs"
)

// issue adds tx to the mempool for the VM's Intake: verified against the accepted state advanced
// to the node's clock and the pending txs, it fails if tx is pending or committed already, too
// large, invalid, or conflicts with a pending tx.
func (vm *VM) issue(tx *txs.Tx) error {
	verify := func(src utxoSource) (*effects, error) {
		last := vm.Last()
		next, ok, err := vm.acceptedNextChange(last)
		if err != nil {
			return nil, err
		}
		t := clampBlockTime(vm.now(), last.fees, next, ok)
		fees, _, err := vm.advance(vm.state, last.fees, t)
		if err != nil {
			return nil, err
		}
		at := warpAt{s: vm.state}
		if _, ok := warpMessageOf(tx); ok {
			at.height = vm.Height() // a read of the state, which only a warp message needs
		}
		return vm.verifyTx(tx, src, vm.state, t, vm.issuePrice(fees), fees.accrued, at, make(map[ids.ID]struct{}, 1))
	}
	return vm.side.Issue(tx, vm.state,
		func() (*effects, error) { return verify(vm.state) },
		func(pending *overlay) (*effects, error) { return verify(pending) })
}

// pending reports whether tx is in the mempool.
func (vm *VM) pending(id ids.ID) bool {
	vm.side.Mu.Lock()
	defer vm.side.Mu.Unlock()
	return vm.side.Pool.Has(id)
}

// BuildBlock implements chains.Builder: on a proposal block, its option (proposal.go); when the
// block's time reaches the first staker's end, a proposal block rewarding it; otherwise a Banff
// standard block on the preferred block at the later of now and the parent's time, with the
// pending txs in arrival order up to about 128 KiB and the fee state's capacity (§4.1). A
// pending tx that no longer verifies is dropped from the mempool; one that does not fit waits
// for the next block. It reads the preferred block's view and the accepted state without
// vm.side.Mu, as Verify does: only the engine goroutine, which calls both, changes them
// (mempool.Side.Pick).
func (vm *VM) BuildBlock(context.Context) (chains.Block, error) {
	parent, view := vm.Preferred()
	if pb, ok := parent.blk.(*txs.ProposalBlock); ok {
		return vm.buildOption(parent, pb, view)
	}
	t, err := vm.blockTime(view, parent.fees)
	if err != nil {
		return nil, err
	}
	if first, err := view.firstStakers(1); err != nil {
		return nil, err
	} else if len(first) == 1 && first[0].end == t {
		return vm.buildProposal(parent, t, first[0])
	}
	fees, evicted, err := vm.advance(view, parent.fees, t)
	if err != nil {
		return nil, err
	}
	price := fees.price(&vm.rules.fees)
	ov := newOverlay(view)
	ov.Apply(&effects{l1Validators: evicted})
	seen := make(map[ids.ID]struct{})
	at := warpAt{s: vm.accepted, height: min(parent.Height(), vm.Last().Height())}
	var gas uint64
	picked, effs := vm.side.Pick(vm.log,
		func(id ids.ID) bool { return processing.InProcessing(view, id) },
		func(tx *txs.Tx) (*effects, error) {
			return vm.verifyTx(tx, ov, view, t, price, fees.accrued, at, seen)
		},
		func(eff *effects) bool {
			if gas+eff.gas > fees.capacity {
				return false
			}
			ov.Apply(eff)
			gas += eff.gas
			return true
		})
	// A block without txs is built only to deactivate the validators that ran out (§4.7).
	if len(picked) == 0 && len(evicted) == 0 {
		return nil, chains.ErrNoWork
	}
	after, _ := fees.consume(gas)
	blk, err := txs.NewStandardBlock(parent.ID(), parent.Height()+1, t, picked)
	if err != nil {
		return nil, fmt.Errorf("build block: %w", err)
	}
	return &chainBlock{vm: vm, blk: blk, Verified: processing.Verified[*effects]{Effs: effs, On: parent.ID()}, evicted: evicted, fees: after, built: ov}, nil
}

// blockTime returns the time of a block on a parent with the fee state parent: the node's time,
// but no earlier than the parent's and no later than when the next L1 validator runs out or the
// next staker ends (§4.1, §4.7).
func (vm *VM) blockTime(view chainView, parent feeState) (uint64, error) {
	next, ok, err := vm.nextChange(view, parent)
	if err != nil {
		return 0, err
	}
	return clampBlockTime(vm.now(), parent, next, ok), nil
}

// clampBlockTime is blockTime with the parent's next timed change given: the time now, but no
// earlier than the parent's and no later than next (when ok).
func clampBlockTime(now uint64, parent feeState, next uint64, ok bool) uint64 {
	t := max(now, parent.time)
	if !ok {
		return t
	}
	return max(min(t, next), parent.time)
}

// changeMemo remembers nextChange on the accepted state for one last accepted block.
type changeMemo struct {
	block ids.ID
	t     uint64
	ok    bool
}

// acceptedNextChange is nextChange on the accepted state, whose last block is last. The issue
// path asks for it at every tx and the eviction timer after every block; reading it costs two
// iterators and a read of the state, and only an accepted block changes it, so it is remembered
// per last accepted block. vm.side.Mu must be held.
func (vm *VM) acceptedNextChange(last *chainBlock) (uint64, bool, error) {
	if m := vm.nextChangeMemo; m.block == last.ID() {
		return m.t, m.ok, nil
	}
	t, ok, err := vm.nextChange(vm.state, last.fees)
	if err != nil {
		return 0, false, err
	}
	vm.nextChangeMemo = changeMemo{block: last.ID(), t: t, ok: ok}
	return t, ok, nil
}

// priceMemo remembers the gas price at one fee excess.
type priceMemo struct {
	set           bool
	excess, price uint64
}

// issuePrice is fees.price, remembered for the last excess: every issueTx prices its tx, the
// excess changes only with a block, and CalculatePrice's big.Int series costs a dozen
// allocations. vm.side.Mu must be held.
func (vm *VM) issuePrice(fees feeState) uint64 {
	if m := vm.priceMemo; m.set && m.excess == fees.excess {
		return m.price
	}
	price := fees.price(&vm.rules.fees)
	vm.priceMemo = priceMemo{set: true, excess: fees.excess, price: price}
	return price
}

// nextChange returns the chain time of the next timed change after the state view whose fee
// state is parent: the first L1 validator running out or the first staker's end; ok is false
// when there is none.
func (vm *VM) nextChange(view chainView, parent feeState) (t uint64, ok bool, err error) {
	evict, evictOK, err := vm.nextEviction(view, parent)
	if err != nil {
		return 0, false, err
	}
	end, endOK, err := nextStakerEnd(view)
	switch {
	case err != nil:
		return 0, false, err
	case evictOK && endOK:
		return min(evict, end), true, nil
	case endOK:
		return end, true, nil
	}
	return evict, evictOK, nil
}

// evictionPoll bounds the eviction timer's wait, so that a clock that jumps (a fake one in
// tests, or a system clock set forward) is noticed within it.
const evictionPoll = time.Second

// scheduleEviction signals WorkReady when the next L1 validator runs out of balance or the next
// staker ends by the node's clock, so that the pipeline builds the block that deactivates it
// (§4.7) or the proposal that rewards it (§4.10).
func (vm *VM) scheduleEviction() {
	vm.side.Mu.Lock()
	defer vm.side.Mu.Unlock()
	if vm.closed {
		return
	}
	if vm.evictTimer != nil {
		vm.evictTimer.Stop()
		vm.evictTimer = nil
	}
	next, ok, err := vm.acceptedNextChange(vm.Last())
	switch {
	case err != nil:
		vm.log.Error("next L1 validator eviction or staker end", "err", err)
		return
	case !ok:
		return
	}
	if now := vm.now(); next <= now {
		vm.Signal()
		return
	} else if d := time.Duration(next-now) * time.Second; d < evictionPoll {
		vm.evictTimer = vm.clock.AfterFunc(d, vm.scheduleEviction)
		return
	}
	vm.evictTimer = vm.clock.AfterFunc(evictionPoll, vm.scheduleEviction)
}
