package exchange

import "github.com/cornice-node/cornice/vms/exchange/txs"

// The kind this VM decodes but does not execute: no nftfx or propertyfx operations.

func (*syntacticCheck) OperationTx(*txs.OperationTx) error {
	return unsupportedTxError("OperationTx")
}

// atomicOps never sees an OperationTx: the syntactic check refuses it.
func (*atomicOps) OperationTx(*txs.OperationTx) error { return nil }
