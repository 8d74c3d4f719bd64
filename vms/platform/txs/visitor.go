package txs

// Visitor does one job for every P-Chain tx kind: it has one method per kind, and each kind's
// Visit calls its own. The jobs a kind needs (its complexity here, its JSON form here, its checks
// and state changes in the VM) each implement Visitor, so adding a kind to this interface fails to
// compile until every job has its case.
type Visitor interface {
	BaseTx(tx *BaseTx) error
	CreateSubnetTx(tx *CreateSubnetTx) error
	CreateChainTx(tx *CreateChainTx) error
	AddSubnetValidatorTx(tx *AddSubnetValidatorTx) error
	AddPermissionlessValidatorTx(tx *AddPermissionlessValidatorTx) error
	AddPermissionlessDelegatorTx(tx *AddPermissionlessDelegatorTx) error
	AddValidatorTx(tx *AddValidatorTx) error
	AddDelegatorTx(tx *AddDelegatorTx) error
	RemoveSubnetValidatorTx(tx *RemoveSubnetValidatorTx) error
	TransferSubnetOwnershipTx(tx *TransferSubnetOwnershipTx) error
	RewardValidatorTx(tx *RewardValidatorTx) error
	ConvertSubnetToL1Tx(tx *ConvertSubnetToL1Tx) error
	RegisterL1ValidatorTx(tx *RegisterL1ValidatorTx) error
	SetL1ValidatorWeightTx(tx *SetL1ValidatorWeightTx) error
	IncreaseL1ValidatorBalanceTx(tx *IncreaseL1ValidatorBalanceTx) error
	DisableL1ValidatorTx(tx *DisableL1ValidatorTx) error
	ImportTx(tx *ImportTx) error
	ExportTx(tx *ExportTx) error
}
