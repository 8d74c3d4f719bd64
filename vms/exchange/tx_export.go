package exchange

import (
	"fmt"

	"github.com/cornice-node/cornice/chains/atomic"
	"github.com/cornice-node/cornice/vms/components/utxo"
	"github.com/cornice-node/cornice/vms/exchange/txs"
)

// An ExportTx moves outputs to another chain of the Primary Network (§6.2): they are checked like
// its own outputs and covered by its inputs with the tx fee, but become UTXOs of the destination,
// put into its shared memory in the block's batch, not UTXOs of the X-Chain.

func (c *syntacticCheck) ExportTx(tx *txs.ExportTx) error {
	if len(tx.ExportedOuts) == 0 {
		return utxo.ErrNoExportOutputs
	}
	c.fee = c.r.txFee
	c.peer, c.exported = tx.DestinationChain, tx.ExportedOuts
	return nil
}

func (o *atomicOps) ExportTx(tx *txs.ExportTx) error {
	req := o.peer(tx.DestinationChain)
	for _, ux := range tx.ExportedUTXOs(o.txID) {
		b, err := ux.Bytes()
		if err != nil {
			return fmt.Errorf("exported utxo %s: %w", ux.InputID(), err)
		}
		req.Put = append(req.Put, atomic.Element{Key: ux.InputID(), Value: b, Traits: owners(&ux)})
	}
	return nil
}
