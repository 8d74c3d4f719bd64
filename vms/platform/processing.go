package platform

import (
	"bytes"
	"cmp"
	"context"
	"slices"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/internal/processing"
	"github.com/cornice-node/cornice/vms/platform/txs"
)

// Processing blocks (chains.Block's contract): a verified block that is neither accepted nor
// rejected keeps the state it leaves as a blockView, an overlay of its txs' effects on the state
// its parent leaves, so that a child can be verified and built on it before either is accepted.
// The accepted state stays untouched until a block's batch is committed. The VM's
// processing.Chain keeps the processing blocks, their views and the preference.

// chainView is a state a block can be verified on: the accepted state (*state) or the state a
// processing block leaves (*blockView).
type chainView interface {
	utxoSource
	// HasTx reports whether tx id is committed, or in a processing block of the view.
	HasTx(id ids.ID) (bool, error)
	// activeL1Validators returns the active L1 validators, those that run out first first.
	activeL1Validators() ([]activeL1, error)
}

var (
	_ chainView = (*state)(nil)
	_ chainView = (*blockView)(nil)
)

// blockView is the state a processing block leaves: its overlay (the validators it evicted and
// its txs' effects, on the state its parent leaves) and its lineage: the view it was verified on
// (once that block is accepted, the accepted state, which then holds the same) and its txs.
type blockView struct {
	*overlay
	processing.Lineage[chainView]
}

// newBlockView returns the view that blockTxs, whose effects ov holds, leave on parent.
func newBlockView(parent chainView, ov *overlay, blockTxs []*txs.Tx) *blockView {
	return &blockView{overlay: ov, Lineage: processing.NewLineage(parent, blockTxs)}
}

// HasTx implements chainView.
func (v *blockView) HasTx(id ids.ID) (bool, error) {
	if found, accepted := v.Find(id); !found {
		return accepted.HasTx(id)
	}
	return true, nil
}

// activeL1Validators implements chainView: the parent's, less those the block changed, plus
// those it left active, in the state's order (end fee, then validation ID).
func (v *blockView) activeL1Validators() ([]activeL1, error) {
	base, err := v.Parent().activeL1Validators()
	if err != nil || len(v.l1Validators) == 0 {
		return base, err
	}
	out := make([]activeL1, 0, len(base)+len(v.l1Validators))
	for _, a := range base {
		if _, changed := v.l1Validators[a.validationID]; !changed {
			out = append(out, a)
		}
	}
	for id, val := range v.l1Validators {
		if val.endFee != 0 {
			out = append(out, activeL1{endFee: val.endFee, validationID: id})
		}
	}
	slices.SortFunc(out, func(a, b activeL1) int {
		return cmp.Or(cmp.Compare(a.endFee, b.endFee), bytes.Compare(a.validationID[:], b.validationID[:]))
	})
	return out, nil
}

// rebase moves the view onto the accepted state s once its parent block is accepted.
func (v *blockView) rebase(s *state) {
	v.Rebase(s)
	v.base = s
}

// processed records b as processing, with the view ov and its txs leave on parent.
func (vm *VM) processed(b *chainBlock, parent chainView, ov *overlay) {
	vm.AddProcessing(b, newBlockView(parent, ov, b.blk.Txs()))
}

// Reject implements chains.Block: the block is forgotten; its txs stay in the mempool, which
// they leave only when a block holding them is accepted.
func (b *chainBlock) Reject(context.Context) error {
	b.vm.MarkRejected(b)
	return nil
}
