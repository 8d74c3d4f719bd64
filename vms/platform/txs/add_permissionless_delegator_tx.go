package txs

import (
	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/internal/union"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// AddPermissionlessDelegatorTx delegates stake to a current validator (type ID 26, §4.3).
type AddPermissionlessDelegatorTx struct {
	BaseTx
	// Validator names the validator's node, the delegation's period and its weight.
	Validator Validator
	SubnetID  ids.ID
	// Stake are the locked outputs, returned when the delegation ends.
	Stake []TransferableOutput
	// RewardsOwner receives the delegator's part of the reward; written with type ID 11.
	RewardsOwner secp256k1fx.OutputOwners
}

func (*AddPermissionlessDelegatorTx) isUnsignedTx() {}

// Visit calls v.AddPermissionlessDelegatorTx with tx.
func (tx *AddPermissionlessDelegatorTx) Visit(v Visitor) error {
	return v.AddPermissionlessDelegatorTx(tx)
}

// Marshal writes the BaseTx fields, validator, subnet ID, stake and rewards owner.
func (tx *AddPermissionlessDelegatorTx) Marshal(p *codec.Packer) {
	tx.BaseTx.Marshal(p)
	tx.Validator.Marshal(p)
	p.ID(tx.SubnetID)
	union.WriteList(p, tx.Stake)
	marshalOwner(p, &tx.RewardsOwner)
}

// Unmarshal reads the fields written by Marshal.
func (tx *AddPermissionlessDelegatorTx) Unmarshal(u *codec.Unpacker) {
	tx.BaseTx.Unmarshal(u)
	tx.Validator.Unmarshal(u)
	tx.SubnetID = u.ID()
	tx.Stake = union.ReadList[TransferableOutput](u, minTransferableOutputSize)
	unmarshalOwner(u, "rewards owner", &tx.RewardsOwner)
}
