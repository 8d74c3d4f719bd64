package txs

import (
	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// AddSubnetValidatorTx adds a validator to a permissioned subnet (type ID 13).
type AddSubnetValidatorTx struct {
	BaseTx
	Validator Validator
	SubnetID  ids.ID
	// SubnetAuth names the subnet owner's signers; written with type ID 10.
	SubnetAuth secp256k1fx.Input
}

func (*AddSubnetValidatorTx) isUnsignedTx() {}

// Visit calls v.AddSubnetValidatorTx with tx.
func (tx *AddSubnetValidatorTx) Visit(v Visitor) error { return v.AddSubnetValidatorTx(tx) }

// Marshal writes the BaseTx fields, the validator, the subnet ID and the authorization.
func (tx *AddSubnetValidatorTx) Marshal(p *codec.Packer) {
	tx.BaseTx.Marshal(p)
	tx.Validator.Marshal(p)
	p.ID(tx.SubnetID)
	marshalAuth(p, &tx.SubnetAuth)
}

// Unmarshal reads the fields written by Marshal.
func (tx *AddSubnetValidatorTx) Unmarshal(u *codec.Unpacker) {
	tx.BaseTx.Unmarshal(u)
	tx.Validator.Unmarshal(u)
	tx.SubnetID = u.ID()
	unmarshalAuth(u, "subnet authorization", &tx.SubnetAuth)
}
