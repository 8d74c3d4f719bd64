package exchange

import (
	"context"
	"fmt"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/internal/processing"
)

// Processing blocks (chains.Block's contract): a verified block that is neither accepted nor
// rejected keeps the UTXO set it leaves as a blockView, an overlay of its txs' effects on the
// set its parent leaves, so that a child can be verified and built on it before either is
// accepted. The accepted state stays untouched until a block's batch is committed. vm.proc (a
// processing.Tree) keeps the processing blocks, their views and the preference.

// chainView is a UTXO set a block can be verified on: the accepted state (*state) or the set a
// processing block leaves (*blockView).
type chainView interface {
	utxoSource
	// hasTx reports whether tx id is accepted, or in a processing block of the view.
	hasTx(id ids.ID) (bool, error)
}

var (
	_ chainView = (*state)(nil)
	_ chainView = (*blockView)(nil)
)

// blockView is the UTXO set a processing block leaves, and its lineage: the view it was verified
// on (once that block is accepted, the accepted state, which then holds the same) and its txs.
type blockView struct {
	*overlay
	processing.Lineage[chainView]
}

// hasTx implements chainView.
func (v *blockView) hasTx(id ids.ID) (bool, error) {
	if found, accepted := v.Find(id); !found {
		return accepted.hasTx(id)
	}
	return true, nil
}

// parentLocked returns the block id names if it can be built or verified on: the last accepted
// block or a processing one, with the view it leaves. vm.mu must be held.
func (vm *VM) parentLocked(id ids.ID) (*Block, chainView, bool) {
	return vm.proc.Parent(id, vm.last, vm.state)
}

// parent is parentLocked, taking vm.mu.
func (vm *VM) parent(id ids.ID) (*Block, chainView, bool) {
	vm.mu.Lock()
	defer vm.mu.Unlock()
	return vm.parentLocked(id)
}

// processed records b as processing, with the view ov and its txs leave on parent.
func (vm *VM) processed(b *Block, parent chainView, ov *overlay) {
	v := &blockView{overlay: ov, Lineage: processing.NewLineage(parent, b.blk.Txs())}
	vm.mu.Lock()
	defer vm.mu.Unlock()
	vm.proc.Add(b, v)
}

// acceptedLocked forgets accepted block b as processing, and moves its children's views onto
// the accepted state, which now holds what b's view held. vm.mu must be held.
func (vm *VM) acceptedLocked(b *Block) {
	for v := range vm.proc.Accepted(b) {
		v := v.(*blockView)
		v.Rebase(vm.state)
		v.base = vm.state
	}
}

// processingBlock returns processing block id.
func (vm *VM) processingBlock(id ids.ID) (*Block, bool) {
	vm.mu.Lock()
	defer vm.mu.Unlock()
	return vm.proc.Get(id)
}

// SetPreference implements chains.Builder: BuildBlock builds on block id next.
func (vm *VM) SetPreference(_ context.Context, id ids.ID) error {
	vm.mu.Lock()
	defer vm.mu.Unlock()
	if !vm.proc.Prefer(id, vm.last) {
		return fmt.Errorf("prefer block %s: %w", id, chains.ErrBlockNotFound)
	}
	return nil
}

// Reject implements chains.Block: the block is forgotten; its txs stay in the mempool, which
// they leave only when a block holding them is accepted.
func (b *Block) Reject(context.Context) error {
	b.vm.mu.Lock()
	defer b.vm.mu.Unlock()
	b.vm.proc.Rejected(b)
	return nil
}
