package exchange

import (
	"iter"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/exchange/txs"
)

// Mempool and block size limits (reference/platform-exchange.md §1.2).
const (
	// MaxTxSize is the largest tx the mempool takes: 64 KiB.
	MaxTxSize = 64 * 1024
	// MaxMempoolSize is how many bytes of txs may be pending at once.
	MaxMempoolSize = 64 * 1024 * 1024
	// targetBlockSize is the size the builder fills a block up to: 128 KiB.
	targetBlockSize = 128 * 1024
)

// overlay is a UTXO set on top of another: the UTXOs that pending txs (or the earlier txs of a
// block) spend and create. It is not safe for concurrent use; the VM guards the mempool's.
type overlay struct {
	base utxoSource
	// spent maps a UTXO ID to the tx that spends it.
	spent map[ids.ID]ids.ID
	// created holds the UTXOs the overlay's txs create.
	created map[ids.ID]*txs.UTXO
}

func newOverlay(base utxoSource) *overlay {
	return &overlay{base: base, spent: make(map[ids.ID]ids.ID), created: make(map[ids.ID]*txs.UTXO)}
}

// utxo implements utxoSource: a UTXO spent in the overlay is a double spend, unless the base no
// longer has it either (the spending tx's block was committed and the mempool not yet told):
// then it is the base's unknown UTXO.
func (o *overlay) utxo(id ids.ID) (*txs.UTXO, error) {
	if by, ok := o.spent[id]; ok {
		if _, mine := o.created[id]; !mine {
			if _, err := o.base.utxo(id); err != nil {
				return nil, err
			}
		}
		return nil, doubleSpendError(id, by)
	}
	if ux, ok := o.created[id]; ok {
		return ux, nil
	}
	return o.base.utxo(id)
}

// SpentBy implements mempool.View.
func (o *overlay) SpentBy(utxoID ids.ID) (ids.ID, bool) {
	by, ok := o.spent[utxoID]
	return by, ok
}

// Apply implements mempool.View: it records a verified tx's effects.
func (o *overlay) Apply(eff *effects) {
	for _, ux := range eff.consumed {
		o.spent[ux.InputID()] = eff.txID
	}
	for i := range eff.produced {
		ux := &eff.produced[i]
		o.created[ux.InputID()] = ux
	}
}

// Revert implements mempool.View: it forgets a tx's effects.
func (o *overlay) Revert(eff *effects) {
	for _, ux := range eff.consumed {
		if id := ux.InputID(); o.spent[id] == eff.txID {
			delete(o.spent, id)
		}
	}
	for i := range eff.produced {
		delete(o.created, eff.produced[i].InputID())
	}
}

// TxID implements mempool.Effects.
func (e *effects) TxID() ids.ID { return e.txID }

// Spent implements mempool.Effects: the IDs of the UTXOs the tx consumes.
func (e *effects) Spent() iter.Seq[ids.ID] {
	return func(yield func(ids.ID) bool) {
		for _, ux := range e.consumed {
			if !yield(ux.InputID()) {
				return
			}
		}
	}
}
