package platform

import "github.com/cornice-node/cornice/vms/platform/txs"

// The kinds this VM decodes and shows but does not execute yet (issue #5): RegisterL1ValidatorTx
// and SetL1ValidatorWeightTx. The syntactic check refuses them, so the executor never sees one.

func (*syntacticCheck) RegisterL1ValidatorTx(*txs.RegisterL1ValidatorTx) error {
	return unsupportedTxError("RegisterL1ValidatorTx")
}

func (*syntacticCheck) SetL1ValidatorWeightTx(*txs.SetL1ValidatorWeightTx) error {
	return unsupportedTxError("SetL1ValidatorWeightTx")
}

func (*executor) RegisterL1ValidatorTx(*txs.RegisterL1ValidatorTx) error {
	return unsupportedTxError("RegisterL1ValidatorTx")
}

func (*executor) SetL1ValidatorWeightTx(*txs.SetL1ValidatorWeightTx) error {
	return unsupportedTxError("SetL1ValidatorWeightTx")
}

func (txIndexer) RegisterL1ValidatorTx(*txs.RegisterL1ValidatorTx) error { return nil }

func (txIndexer) SetL1ValidatorWeightTx(*txs.SetL1ValidatorWeightTx) error { return nil }
