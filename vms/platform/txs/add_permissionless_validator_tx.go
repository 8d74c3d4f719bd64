package txs

import (
	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/internal/union"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// AddPermissionlessValidatorTx adds a staking validator (type ID 25). The local genesis holds one
// per initial staker (§4.6).
type AddPermissionlessValidatorTx struct {
	BaseTx
	Validator Validator
	SubnetID  ids.ID
	// Signer is the validator's BLS key: a *ProofOfPossession for the primary network.
	Signer Signer
	// Stake are the locked outputs, returned when the validator leaves.
	Stake []TransferableOutput
	// ValidatorRewardsOwner and DelegatorRewardsOwner are written with type ID 11.
	ValidatorRewardsOwner secp256k1fx.OutputOwners
	DelegatorRewardsOwner secp256k1fx.OutputOwners
	// DelegationShares is the delegation fee in parts per million.
	DelegationShares uint32
}

func (*AddPermissionlessValidatorTx) isUnsignedTx() {}

// Visit calls v.AddPermissionlessValidatorTx with tx.
func (tx *AddPermissionlessValidatorTx) Visit(v Visitor) error {
	return v.AddPermissionlessValidatorTx(tx)
}

// Marshal writes the BaseTx fields, validator, subnet ID, signer, stake, both reward owners and
// the delegation shares.
func (tx *AddPermissionlessValidatorTx) Marshal(p *codec.Packer) {
	tx.BaseTx.Marshal(p)
	tx.Validator.Marshal(p)
	p.ID(tx.SubnetID)
	signers.Write(p, tx.Signer)
	union.WriteList(p, tx.Stake)
	marshalOwner(p, &tx.ValidatorRewardsOwner)
	marshalOwner(p, &tx.DelegatorRewardsOwner)
	p.Uint32(tx.DelegationShares)
}

// Unmarshal reads the fields written by Marshal.
func (tx *AddPermissionlessValidatorTx) Unmarshal(u *codec.Unpacker) {
	tx.BaseTx.Unmarshal(u)
	tx.Validator.Unmarshal(u)
	tx.SubnetID = u.ID()
	tx.Signer = signers.Read(u)
	tx.Stake = union.ReadList[TransferableOutput](u, minTransferableOutputSize)
	unmarshalOwner(u, "validator rewards owner", &tx.ValidatorRewardsOwner)
	unmarshalOwner(u, "delegator rewards owner", &tx.DelegatorRewardsOwner)
	tx.DelegationShares = u.Uint32()
}
