package exchange

import (
	"context"
	"fmt"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/exchange/txs"
)

// Processing blocks (chains.Block's contract): a verified block that is neither accepted nor
// rejected keeps the UTXO set it leaves as a blockView, an overlay of its txs' effects on the
// set its parent leaves, so that a child can be verified and built on it before either is
// accepted. The accepted state stays untouched until a block's batch is committed.

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

// blockView is the UTXO set a processing block leaves, and its txs.
type blockView struct {
	*overlay
	// parent is the view the block was verified on. Once the parent is accepted, the view is
	// moved onto the accepted state (rebase), which then holds the same.
	parent chainView
	txs    map[ids.ID]struct{}
}

// hasTx implements chainView.
func (v *blockView) hasTx(id ids.ID) (bool, error) {
	if _, ok := v.txs[id]; ok {
		return true, nil
	}
	return v.parent.hasTx(id)
}

// inProcessing reports whether tx id is in the block or a processing ancestor (not whether it
// is accepted).
func (v *blockView) inProcessing(id ids.ID) bool {
	for ; v != nil; v, _ = v.parent.(*blockView) {
		if _, ok := v.txs[id]; ok {
			return true
		}
	}
	return false
}

// rebase moves the view onto the accepted state once its parent block is accepted.
func (v *blockView) rebase(s *state) {
	v.parent = s
	v.base = s
}

// parentLocked returns the block id names if it can be built or verified on: the last accepted
// block or a processing one, with the view it leaves. vm.mu must be held.
func (vm *VM) parentLocked(id ids.ID) (*txs.StandardBlock, chainView, bool) {
	if id == vm.last.ID() {
		return vm.last, vm.state, true
	}
	if b, ok := vm.proc.Get(id); ok {
		return b.blk, b.view, true
	}
	return nil, nil, false
}

// preferredLocked returns the preferred block if it is processing, with the view it leaves.
// vm.mu must be held.
func (vm *VM) preferredLocked() (*txs.StandardBlock, chainView, bool) {
	b, ok := vm.proc.Preferred()
	if !ok {
		return nil, nil, false
	}
	return b.blk, b.view, true
}

// parent is parentLocked, taking vm.mu.
func (vm *VM) parent(id ids.ID) (*txs.StandardBlock, chainView, bool) {
	vm.mu.Lock()
	defer vm.mu.Unlock()
	return vm.parentLocked(id)
}

// processed records b as processing, with the view ov and its txs leave on parent.
func (vm *VM) processed(b *Block, parent chainView, ov *overlay) {
	v := &blockView{overlay: ov, parent: parent, txs: make(map[ids.ID]struct{}, len(b.blk.Txs()))}
	for _, tx := range b.blk.Txs() {
		v.txs[tx.ID()] = struct{}{}
	}
	b.view = v
	vm.mu.Lock()
	defer vm.mu.Unlock()
	vm.proc.Add(b.ID(), b)
}

// acceptedLocked forgets accepted block b as processing, and moves its children's views onto
// the accepted state, which now holds what b's view held. vm.mu must be held.
func (vm *VM) acceptedLocked(b *Block) {
	vm.proc.Decided(b.ID(), b.Parent())
	for c := range vm.proc.Blocks() {
		if c.view != nil && c.view.parent == chainView(b.view) {
			c.view.rebase(vm.state)
		}
	}
	b.view = nil
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
	if _, _, ok := vm.parentLocked(id); !ok {
		return fmt.Errorf("prefer block %s: %w", id, chains.ErrBlockNotFound)
	}
	vm.proc.Prefer(id)
	return nil
}

// Reject implements chains.Block: the block is forgotten; its txs stay in the mempool, which
// they leave only when a block holding them is accepted.
func (b *Block) Reject(context.Context) error {
	vm := b.vm
	vm.mu.Lock()
	defer vm.mu.Unlock()
	vm.proc.Decided(b.ID(), b.Parent())
	b.view = nil
	return nil
}
