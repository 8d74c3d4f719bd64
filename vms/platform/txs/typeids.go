package txs

import (
	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/vms/internal/union"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// P-Chain type IDs (reference/platform-exchange.md §1.3). The txs and block codecs share one
// numbering, including the gaps the reference keeps for the X-Chain's types (6, 8).
const (
	TypeIDApricotCommitBlock           uint32 = 2
	TypeIDTransferInput                uint32 = 5
	TypeIDTransferOutput               uint32 = 7
	TypeIDCredential                   uint32 = 9
	TypeIDInput                        uint32 = 10
	TypeIDOutputOwners                 uint32 = 11
	TypeIDAddValidatorTx               uint32 = 12
	TypeIDAddSubnetValidatorTx         uint32 = 13
	TypeIDAddDelegatorTx               uint32 = 14
	TypeIDCreateChainTx                uint32 = 15
	TypeIDCreateSubnetTx               uint32 = 16
	TypeIDImportTx                     uint32 = 17
	TypeIDExportTx                     uint32 = 18
	TypeIDRewardValidatorTx            uint32 = 20
	TypeIDLockIn                       uint32 = 21
	TypeIDLockOut                      uint32 = 22
	TypeIDRemoveSubnetValidatorTx      uint32 = 23
	TypeIDAddPermissionlessValidatorTx uint32 = 25
	TypeIDAddPermissionlessDelegatorTx uint32 = 26
	TypeIDEmptySigner                  uint32 = 27
	TypeIDProofOfPossession            uint32 = 28
	TypeIDBanffProposalBlock           uint32 = 29
	TypeIDBanffAbortBlock              uint32 = 30
	TypeIDBanffCommitBlock             uint32 = 31
	TypeIDBanffStandardBlock           uint32 = 32
	TypeIDTransferSubnetOwnershipTx    uint32 = 33
	TypeIDBaseTx                       uint32 = 34
	TypeIDConvertSubnetToL1Tx          uint32 = 35
	TypeIDRegisterL1ValidatorTx        uint32 = 36
	TypeIDSetL1ValidatorWeightTx       uint32 = 37
	TypeIDIncreaseL1ValidatorBalanceTx uint32 = 38
	TypeIDDisableL1ValidatorTx         uint32 = 39
)

// unsignedTxs is the P-Chain's tx kinds by type ID.
var unsignedTxs = union.New("unsigned tx",
	union.Of[UnsignedTx, *BaseTx](TypeIDBaseTx),
	union.Of[UnsignedTx, *CreateSubnetTx](TypeIDCreateSubnetTx),
	union.Of[UnsignedTx, *CreateChainTx](TypeIDCreateChainTx),
	union.Of[UnsignedTx, *AddSubnetValidatorTx](TypeIDAddSubnetValidatorTx),
	union.Of[UnsignedTx, *AddPermissionlessValidatorTx](TypeIDAddPermissionlessValidatorTx),
	union.Of[UnsignedTx, *AddPermissionlessDelegatorTx](TypeIDAddPermissionlessDelegatorTx),
	union.Of[UnsignedTx, *AddValidatorTx](TypeIDAddValidatorTx),
	union.Of[UnsignedTx, *AddDelegatorTx](TypeIDAddDelegatorTx),
	union.Of[UnsignedTx, *RemoveSubnetValidatorTx](TypeIDRemoveSubnetValidatorTx),
	union.Of[UnsignedTx, *TransferSubnetOwnershipTx](TypeIDTransferSubnetOwnershipTx),
	union.Of[UnsignedTx, *RewardValidatorTx](TypeIDRewardValidatorTx),
	union.Of[UnsignedTx, *ConvertSubnetToL1Tx](TypeIDConvertSubnetToL1Tx),
	union.Of[UnsignedTx, *RegisterL1ValidatorTx](TypeIDRegisterL1ValidatorTx),
	union.Of[UnsignedTx, *SetL1ValidatorWeightTx](TypeIDSetL1ValidatorWeightTx),
	union.Of[UnsignedTx, *IncreaseL1ValidatorBalanceTx](TypeIDIncreaseL1ValidatorBalanceTx),
	union.Of[UnsignedTx, *DisableL1ValidatorTx](TypeIDDisableL1ValidatorTx),
	union.Of[UnsignedTx, *ImportTx](TypeIDImportTx),
	union.Of[UnsignedTx, *ExportTx](TypeIDExportTx),
)

// inputs is what an Input field holds: a TransferInput (5) or a LockIn (21).
var inputs = union.New("input",
	union.Of[Input, *secp256k1fx.TransferInput](TypeIDTransferInput),
	union.Of[Input, *LockIn](TypeIDLockIn),
)

// outputs is what an Output field holds: a TransferOutput (7) or a LockOut (22).
var outputs = union.New("output",
	union.Of[Output, *secp256k1fx.TransferOutput](TypeIDTransferOutput),
	union.Of[Output, *LockOut](TypeIDLockOut),
)

// signers is what a Signer field holds: EmptySigner (27) or ProofOfPossession (28).
var signers = union.New("signer",
	union.Of[Signer, *EmptySigner](TypeIDEmptySigner),
	union.Of[Signer, *ProofOfPossession](TypeIDProofOfPossession),
)

// marshalOwner writes an owner field: always an OutputOwners (11), the only owner type the P-Chain
// registers.
func marshalOwner(p *codec.Packer, o *secp256k1fx.OutputOwners) {
	p.TypeID(TypeIDOutputOwners)
	o.Marshal(p)
}

// unmarshalOwner reads an owner field written by marshalOwner.
func unmarshalOwner(u *codec.Unpacker, field string, o *secp256k1fx.OutputOwners) {
	union.Expect(u, field, TypeIDOutputOwners)
	o.Unmarshal(u)
}

// marshalAuth writes an authorization field (SubnetAuth, DisableAuth): always an Input (10).
func marshalAuth(p *codec.Packer, in *secp256k1fx.Input) {
	p.TypeID(TypeIDInput)
	in.Marshal(p)
}

// unmarshalAuth reads an authorization field written by marshalAuth.
func unmarshalAuth(u *codec.Unpacker, field string, in *secp256k1fx.Input) {
	union.Expect(u, field, TypeIDInput)
	in.Unmarshal(u)
}
