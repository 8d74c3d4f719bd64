package txs

import (
	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/vms/internal/union"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// AddValidatorTx is the pre-Durango way to add a Primary Network validator (type ID 12). It
// parses and shows, but the chain refuses it since Durango (§4.9).
type AddValidatorTx struct {
	BaseTx
	Validator Validator
	Stake     []TransferableOutput
	// RewardsOwner is written with type ID 11.
	RewardsOwner     secp256k1fx.OutputOwners
	DelegationShares uint32
}

func (*AddValidatorTx) isUnsignedTx() {}

// Visit calls v.AddValidatorTx with tx.
func (tx *AddValidatorTx) Visit(v Visitor) error { return v.AddValidatorTx(tx) }

// Marshal writes the BaseTx fields, validator, stake, rewards owner and delegation shares.
func (tx *AddValidatorTx) Marshal(p *codec.Packer) {
	tx.BaseTx.Marshal(p)
	tx.Validator.Marshal(p)
	union.WriteList(p, tx.Stake)
	marshalOwner(p, &tx.RewardsOwner)
	p.Uint32(tx.DelegationShares)
}

// Unmarshal reads the fields written by Marshal.
func (tx *AddValidatorTx) Unmarshal(u *codec.Unpacker) {
	tx.BaseTx.Unmarshal(u)
	tx.Validator.Unmarshal(u)
	tx.Stake = union.ReadList[TransferableOutput](u, minTransferableOutputSize)
	unmarshalOwner(u, "rewards owner", &tx.RewardsOwner)
	tx.DelegationShares = u.Uint32()
}

// AddDelegatorTx is the pre-Durango way to delegate on the Primary Network (type ID 14). It
// parses and shows, but the chain refuses it since Durango (§4.9).
type AddDelegatorTx struct {
	BaseTx
	Validator Validator
	Stake     []TransferableOutput
	// RewardsOwner is written with type ID 11.
	RewardsOwner secp256k1fx.OutputOwners
}

func (*AddDelegatorTx) isUnsignedTx() {}

// Visit calls v.AddDelegatorTx with tx.
func (tx *AddDelegatorTx) Visit(v Visitor) error { return v.AddDelegatorTx(tx) }

// Marshal writes the BaseTx fields, validator, stake and rewards owner.
func (tx *AddDelegatorTx) Marshal(p *codec.Packer) {
	tx.BaseTx.Marshal(p)
	tx.Validator.Marshal(p)
	union.WriteList(p, tx.Stake)
	marshalOwner(p, &tx.RewardsOwner)
}

// Unmarshal reads the fields written by Marshal.
func (tx *AddDelegatorTx) Unmarshal(u *codec.Unpacker) {
	tx.BaseTx.Unmarshal(u)
	tx.Validator.Unmarshal(u)
	tx.Stake = union.ReadList[TransferableOutput](u, minTransferableOutputSize)
	unmarshalOwner(u, "rewards owner", &tx.RewardsOwner)
}
