package exchange

import (
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/components/utxo"
	"github.com/cornice-node/cornice/vms/exchange/txs"
)

// overlay is the UTXOs that pending txs (or the earlier txs of a block) spend and create, on top
// of the UTXOs of base. It is not safe for concurrent use; the VM guards the mempool's.
type overlay struct {
	*utxo.Overlay[txs.UTXO, *txs.UTXO]
	base utxoSource
}

func newOverlay(base utxoSource) *overlay {
	return &overlay{Overlay: utxo.NewOverlay[txs.UTXO](), base: base}
}

// utxo implements utxoSource.
func (o *overlay) utxo(ref *utxo.UTXOID) (*txs.UTXO, error) { return o.Get(ref, o.base.utxo) }

// atomicUTXO implements utxoSource: an imported UTXO that a tx of the overlay imports is a double
// spend.
func (o *overlay) atomicUTXO(peer ids.ID, ref *utxo.UTXOID) (*txs.UTXO, error) {
	return o.Get(ref, func(ref *utxo.UTXOID) (*txs.UTXO, error) { return o.base.atomicUTXO(peer, ref) })
}
