package utxo

import (
	"iter"

	"github.com/cornice-node/cornice/ids"
)

// Ptr is a pointer to a chain's UTXO type U, which is keyed by its ID: both chains' UTXOs embed a
// UTXOID.
type Ptr[U any] interface {
	*U
	InputID() ids.ID
}

// Effects are the UTXOs an accepted tx consumes and produces. They implement mempool.Effects.
type Effects[U any, P Ptr[U]] struct {
	Tx       ids.ID
	Consumed []P
	// Imported are the atomic UTXOs the tx imports from another chain's shared memory (package
	// chains/atomic): spent as Consumed are (Spent yields them, an Overlay marks them), but never
	// in the chain's own UTXO set, so Diff leaves them out.
	Imported []P
	Produced []U
}

// TxID returns the ID of the tx these are the effects of.
func (e *Effects[U, P]) TxID() ids.ID { return e.Tx }

// Spent yields the IDs of the UTXOs the tx consumes, its own chain's then the imported ones.
func (e *Effects[U, P]) Spent() iter.Seq[ids.ID] {
	return func(yield func(ids.ID) bool) {
		for _, ux := range e.Consumed {
			if !yield(ux.InputID()) {
				return
			}
		}
		for _, ux := range e.Imported {
			if !yield(ux.InputID()) {
				return
			}
		}
	}
}

// Overlay is a UTXO set on top of a chain's state: the UTXOs that pending txs (or the earlier txs
// of a block) spend and create. It is not safe for concurrent use.
type Overlay[U any, P Ptr[U]] struct {
	// spent maps a UTXO ID to the tx that spends it.
	spent map[ids.ID]ids.ID
	// created holds the UTXOs the overlay's txs create.
	created map[ids.ID]P
}

// NewOverlay returns an empty overlay.
func NewOverlay[U any, P Ptr[U]]() *Overlay[U, P] {
	return &Overlay[U, P]{spent: make(map[ids.ID]ids.ID), created: make(map[ids.ID]P)}
}

// Get returns the UTXO ref as the overlay leaves base, which finds the UTXOs of the state below
// (its errors say why one is missing). A UTXO spent in the overlay is a double spend, unless base
// no longer has it either (the spending tx's block was committed and the mempool not yet told):
// then it is base's missing UTXO.
func (o *Overlay[U, P]) Get(ref *UTXOID, base func(ref *UTXOID) (P, error)) (P, error) {
	id := ref.InputID()
	if by, ok := o.spent[id]; ok {
		if _, mine := o.created[id]; !mine {
			if _, err := base(ref); err != nil {
				return nil, err
			}
		}
		return nil, doubleSpendError(id, by)
	}
	if ux, ok := o.created[id]; ok {
		return ux, nil
	}
	return base(ref)
}

// SpentBy returns the tx of the overlay that spends utxoID, if one does (mempool.View).
func (o *Overlay[U, P]) SpentBy(utxoID ids.ID) (ids.ID, bool) {
	by, ok := o.spent[utxoID]
	return by, ok
}

// Apply records a verified tx's effects.
func (o *Overlay[U, P]) Apply(eff *Effects[U, P]) {
	for id := range eff.Spent() {
		o.spent[id] = eff.Tx
	}
	for i := range eff.Produced {
		ux := P(&eff.Produced[i])
		o.created[ux.InputID()] = ux
	}
}

// Revert forgets a tx's effects.
func (o *Overlay[U, P]) Revert(eff *Effects[U, P]) {
	for id := range eff.Spent() {
		if o.spent[id] == eff.Tx {
			delete(o.spent, id)
		}
	}
	for i := range eff.Produced {
		delete(o.created, P(&eff.Produced[i]).InputID())
	}
}

// Diff returns what a block's txs, whose effects are effs in order, change in the UTXO set: the
// UTXOs they consume that were there before the block, to delete, and those they produce that no
// later tx of the block consumes, to write, each in the order the txs name them.
func Diff[U any, P Ptr[U]](effs []*Effects[U, P]) (deleted, written []P) {
	created := make(map[ids.ID]struct{})
	var order []P
	for _, eff := range effs {
		for _, ux := range eff.Consumed {
			id := ux.InputID()
			if _, ok := created[id]; ok {
				delete(created, id)
				continue
			}
			deleted = append(deleted, ux)
		}
		for j := range eff.Produced {
			ux := P(&eff.Produced[j])
			created[ux.InputID()] = struct{}{}
			order = append(order, ux)
		}
	}
	for _, ux := range order {
		if _, ok := created[ux.InputID()]; ok {
			written = append(written, ux)
		}
	}
	return deleted, written
}
