package platform

import "github.com/cornice-node/cornice/vms/platform/txs"

// The kinds this VM decodes and shows but does not execute yet: RegisterL1ValidatorTx and
// SetL1ValidatorWeightTx (issue #5), RemoveSubnetValidatorTx and TransferSubnetOwnershipTx. The
// syntactic check refuses them, so the executor never sees one.

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

func (*syntacticCheck) RemoveSubnetValidatorTx(*txs.RemoveSubnetValidatorTx) error {
	return unsupportedTxError("RemoveSubnetValidatorTx")
}

func (*syntacticCheck) TransferSubnetOwnershipTx(*txs.TransferSubnetOwnershipTx) error {
	return unsupportedTxError("TransferSubnetOwnershipTx")
}

func (*executor) RemoveSubnetValidatorTx(*txs.RemoveSubnetValidatorTx) error {
	return unsupportedTxError("RemoveSubnetValidatorTx")
}

func (*executor) TransferSubnetOwnershipTx(*txs.TransferSubnetOwnershipTx) error {
	return unsupportedTxError("TransferSubnetOwnershipTx")
}

func (txIndexer) RemoveSubnetValidatorTx(*txs.RemoveSubnetValidatorTx) error { return nil }

func (txIndexer) TransferSubnetOwnershipTx(*txs.TransferSubnetOwnershipTx) error { return nil }

func (txIndexer) RegisterL1ValidatorTx(*txs.RegisterL1ValidatorTx) error { return nil }

func (txIndexer) SetL1ValidatorWeightTx(*txs.SetL1ValidatorWeightTx) error { return nil }
