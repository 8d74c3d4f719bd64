package exchange

import (
	"github.com/cornice-node/cornice/vms/exchange/txs"
)

// An ImportTx spends UTXOs that another chain of the Primary Network exported to the X-Chain
// through shared memory (§6.2): its imported inputs are checked like its own (their credentials
// follow its own inputs'), and pay the tx fee with them. Accepting it removes the UTXOs from
// shared memory in the block's batch.

func (c *syntacticCheck) ImportTx(tx *txs.ImportTx) error {
	if len(tx.ImportedIns) == 0 {
		return ErrNoImportInputs
	}
	c.fee = c.r.txFee
	c.peer, c.imported = tx.SourceChain, tx.ImportedIns
	return nil
}

func (o *atomicOps) ImportTx(tx *txs.ImportTx) error {
	req := o.peer(tx.SourceChain)
	for i := range tx.ImportedIns {
		req.Remove = append(req.Remove, tx.ImportedIns[i].InputID())
	}
	return nil
}
