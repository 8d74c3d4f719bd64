package processing

import (
	"context"

	"github.com/cornice-node/cornice/ids"
)

// Verified is what a UTXO VM's block keeps of its last verification, E being what one of its txs
// changes. The block embeds it.
type Verified[E any] struct {
	// Effs are the effects of the block's txs, in order, once verified.
	Effs []E
	// On is the parent block Effs were computed on.
	On ids.ID
}

// VerifiedOn reports whether the block's Effs were computed on parent.
func (v *Verified[E]) VerifiedOn(parent ids.ID) bool { return v.Effs != nil && v.On == parent }

// EnsureVerified runs verify unless the block's Effs were computed on parent, its parent now:
// what it changes on any other parent is not known.
func (v *Verified[E]) EnsureVerified(ctx context.Context, parent ids.ID, verify func(context.Context) error) error {
	if v.VerifiedOn(parent) {
		return nil
	}
	return verify(ctx)
}
