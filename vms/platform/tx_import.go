package platform

import (
	"fmt"

	"github.com/cornice-node/cornice/chains/atomic"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/components/utxo"
	"github.com/cornice-node/cornice/vms/internal/mempool"
	"github.com/cornice-node/cornice/vms/platform/txs"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// An ImportTx spends UTXOs that another chain of the Primary Network exported to the P-Chain
// through shared memory (§4.3): its imported inputs are checked like its own (their credentials
// follow its own inputs') and pay the fee with them. Accepting it removes the UTXOs from shared
// memory in the block's batch.

func (c *syntacticCheck) ImportTx(tx *txs.ImportTx) error {
	if len(tx.ImportedIns) == 0 {
		return ErrNoImportInputs
	}
	if err := verifyInputs(tx.ImportedIns); err != nil {
		return fmt.Errorf("imported %w", err)
	}
	c.auths = len(tx.ImportedIns)
	return nil
}

func (x *executor) ImportTx(tx *txs.ImportTx) error {
	if err := x.r.verifyPeer(tx.SourceChain); err != nil {
		return err
	}
	req := &atomic.Requests{Remove: make([]ids.ID, 0, len(tx.ImportedIns))}
	for i := range tx.ImportedIns {
		in := &tx.ImportedIns[i]
		ux, err := x.src.atomicUTXO(tx.SourceChain, &in.UTXOID)
		if err != nil {
			return mempool.ImportError(x.tx.ID(), err, errSharedMemoryNotFound)
		}
		ti := in.In.(*secp256k1fx.TransferInput) // syntactic checked it
		if err := utxo.VerifySpend(x.r.signers, in.AssetID, ti, ux.AssetID, ux.Out, x.tx, len(tx.Ins)+i, x.now); err != nil {
			return fmt.Errorf("failed to verify transfer: imported input %d: %w", i, err)
		}
		if x.consumed[in.AssetID], err = add(x.consumed[in.AssetID], ti.Amount); err != nil {
			return err
		}
		x.eff.Imported = append(x.eff.Imported, ux)
		req.Remove = append(req.Remove, in.InputID())
	}
	x.eff.atomic = map[ids.ID]*atomic.Requests{tx.SourceChain: req}
	return nil
}

func (txIndexer) ImportTx(*txs.ImportTx) error { return nil }
