package txs

import (
	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// TransferSubnetOwnershipTx gives a legacy subnet a new owner (type ID 33).
type TransferSubnetOwnershipTx struct {
	BaseTx
	SubnetID ids.ID
	// SubnetAuth names the current owner's signers; written with type ID 10.
	SubnetAuth secp256k1fx.Input
	// Owner is the new owner; written with type ID 11.
	Owner secp256k1fx.OutputOwners
}

func (*TransferSubnetOwnershipTx) isUnsignedTx() {}

// Visit calls v.TransferSubnetOwnershipTx with tx.
func (tx *TransferSubnetOwnershipTx) Visit(v Visitor) error { return v.TransferSubnetOwnershipTx(tx) }

// Marshal writes the BaseTx fields, the subnet ID, the authorization and the new owner.
func (tx *TransferSubnetOwnershipTx) Marshal(p *codec.Packer) {
	tx.BaseTx.Marshal(p)
	p.ID(tx.SubnetID)
	marshalAuth(p, &tx.SubnetAuth)
	marshalOwner(p, &tx.Owner)
}

// Unmarshal reads the fields written by Marshal.
func (tx *TransferSubnetOwnershipTx) Unmarshal(u *codec.Unpacker) {
	tx.BaseTx.Unmarshal(u)
	tx.SubnetID = u.ID()
	unmarshalAuth(u, "subnet authorization", &tx.SubnetAuth)
	unmarshalOwner(u, "owner", &tx.Owner)
}
