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

func (*syntacticCheck) AddPermissionlessDelegatorTx(*txs.AddPermissionlessDelegatorTx) error {
	return unsupportedTxError("AddPermissionlessDelegatorTx")
}

func (*syntacticCheck) RemoveSubnetValidatorTx(*txs.RemoveSubnetValidatorTx) error {
	return unsupportedTxError("RemoveSubnetValidatorTx")
}

func (*syntacticCheck) TransferSubnetOwnershipTx(*txs.TransferSubnetOwnershipTx) error {
	return unsupportedTxError("TransferSubnetOwnershipTx")
}

func (*syntacticCheck) RewardValidatorTx(*txs.RewardValidatorTx) error {
	return unsupportedTxError("RewardValidatorTx")
}

func (*executor) AddPermissionlessDelegatorTx(*txs.AddPermissionlessDelegatorTx) error {
	return unsupportedTxError("AddPermissionlessDelegatorTx")
}

func (*executor) RemoveSubnetValidatorTx(*txs.RemoveSubnetValidatorTx) error {
	return unsupportedTxError("RemoveSubnetValidatorTx")
}

func (*executor) TransferSubnetOwnershipTx(*txs.TransferSubnetOwnershipTx) error {
	return unsupportedTxError("TransferSubnetOwnershipTx")
}

func (*executor) RewardValidatorTx(*txs.RewardValidatorTx) error {
	return unsupportedTxError("RewardValidatorTx")
}

func (txIndexer) AddPermissionlessDelegatorTx(*txs.AddPermissionlessDelegatorTx) error { return nil }

func (txIndexer) RemoveSubnetValidatorTx(*txs.RemoveSubnetValidatorTx) error { return nil }

func (txIndexer) TransferSubnetOwnershipTx(*txs.TransferSubnetOwnershipTx) error { return nil }

func (txIndexer) RewardValidatorTx(*txs.RewardValidatorTx) error { return nil }
