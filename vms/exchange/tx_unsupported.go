package exchange

import "github.com/cornice-node/cornice/vms/exchange/txs"

// The kinds this VM decodes but does not execute: no nftfx or propertyfx operations and no shared
// memory yet.

func (*syntacticCheck) OperationTx(*txs.OperationTx) error {
	return unsupportedTxError("OperationTx")
}

func (*syntacticCheck) ImportTx(*txs.ImportTx) error { return unsupportedTxError("ImportTx") }

func (*syntacticCheck) ExportTx(*txs.ExportTx) error { return unsupportedTxError("ExportTx") }
