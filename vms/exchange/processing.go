package exchange

import (
	"context"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/internal/processing"
)

// Processing blocks (chains.Block's contract): a verified block that is neither accepted nor
// rejected keeps the UTXO set it leaves as a blockView, an overlay of its txs' effects on the
// set its parent leaves, so that a child can be verified and built on it before either is
// accepted. The accepted state stays untouched until a block's batch is committed. The VM's
// processing.Chain keeps the processing blocks, their views and the preference.

// chainView is a UTXO set a block can be verified on: the accepted state (*state) or the set a
// processing block leaves (*blockView).
type chainView interface {
	utxoSource
	// HasTx reports whether tx id is accepted, or in a processing block of the view.
	HasTx(id ids.ID) (bool, error)
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

// HasTx implements chainView.
func (v *blockView) HasTx(id ids.ID) (bool, error) {
	if found, accepted := v.Find(id); !found {
		return accepted.HasTx(id)
	}
	return true, nil
}

// rebase moves the view onto the accepted state s once its parent block is accepted.
func (v *blockView) rebase(s *state) {
	v.Rebase(s)
	v.base = s
}

// processed records b as processing, with the view ov and its txs leave on parent.
func (vm *VM) processed(b *Block, parent chainView, ov *overlay) {
	vm.AddProcessing(b, &blockView{overlay: ov, Lineage: processing.NewLineage(parent, b.blk.Txs())})
}

// Reject implements chains.Block: the block is forgotten; its txs stay in the mempool, which
// they leave only when a block holding them is accepted.
func (b *Block) Reject(context.Context) error {
	b.vm.MarkRejected(b)
	return nil
}
