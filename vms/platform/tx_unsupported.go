package platform

import "github.com/cornice-node/cornice/vms/platform/txs"

// The kinds this VM decodes and shows but does not execute yet (issue #5): permissionless staking,
// RegisterL1ValidatorTx and SetL1ValidatorWeightTx. The syntactic check refuses them, so the
// executor never sees one; the genesis's AddPermissionlessValidatorTxs are committed with no index
// entry of their own.

func (*syntacticCheck) AddPermissionlessValidatorTx(*txs.AddPermissionlessValidatorTx) error {
	return unsupportedTxError("AddPermissionlessValidatorTx")
}

func (*syntacticCheck) RegisterL1ValidatorTx(*txs.RegisterL1ValidatorTx) error {
	return unsupportedTxError("RegisterL1ValidatorTx")
}

func (*syntacticCheck) SetL1ValidatorWeightTx(*txs.SetL1ValidatorWeightTx) error {
	return unsupportedTxError("SetL1ValidatorWeightTx")
}

func (*executor) AddPermissionlessValidatorTx(*txs.AddPermissionlessValidatorTx) error {
	return unsupportedTxError("AddPermissionlessValidatorTx")
}

func (*executor) RegisterL1ValidatorTx(*txs.RegisterL1ValidatorTx) error {
	return unsupportedTxError("RegisterL1ValidatorTx")
}

func (*executor) SetL1ValidatorWeightTx(*txs.SetL1ValidatorWeightTx) error {
	return unsupportedTxError("SetL1ValidatorWeightTx")
}

func (txIndexer) AddPermissionlessValidatorTx(*txs.AddPermissionlessValidatorTx) error { return nil }

func (txIndexer) RegisterL1ValidatorTx(*txs.RegisterL1ValidatorTx) error { return nil }

func (txIndexer) SetL1ValidatorWeightTx(*txs.SetL1ValidatorWeightTx) error { return nil }
