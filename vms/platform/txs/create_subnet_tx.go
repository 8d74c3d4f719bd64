package txs

import (
	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// CreateSubnetTx creates a subnet owned by Owner (type ID 16). The subnet's ID is the tx's ID
// (§2.3).
type CreateSubnetTx struct {
	BaseTx
	// Owner must authorize the subnet's CreateChainTx, AddSubnetValidatorTx and
	// ConvertSubnetToL1Tx. It is written with type ID 11.
	Owner secp256k1fx.OutputOwners
}

func (*CreateSubnetTx) isUnsignedTx() {}

// Visit calls v.CreateSubnetTx with tx.
func (tx *CreateSubnetTx) Visit(v Visitor) error { return v.CreateSubnetTx(tx) }

// Marshal writes the BaseTx fields, then the owner.
func (tx *CreateSubnetTx) Marshal(p *codec.Packer) {
	tx.BaseTx.Marshal(p)
	marshalOwner(p, &tx.Owner)
}

// Unmarshal reads the fields written by Marshal.
func (tx *CreateSubnetTx) Unmarshal(u *codec.Unpacker) {
	tx.BaseTx.Unmarshal(u)
	unmarshalOwner(u, "subnet owner", &tx.Owner)
}
