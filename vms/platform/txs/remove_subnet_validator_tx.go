package txs

import (
	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// RemoveSubnetValidatorTx removes a legacy subnet validator before its end time (type ID 23).
type RemoveSubnetValidatorTx struct {
	BaseTx
	NodeID   ids.NodeID
	SubnetID ids.ID
	// SubnetAuth names the subnet owner's signers; written with type ID 10.
	SubnetAuth secp256k1fx.Input
}

func (*RemoveSubnetValidatorTx) isUnsignedTx() {}

// Visit calls v.RemoveSubnetValidatorTx with tx.
func (tx *RemoveSubnetValidatorTx) Visit(v Visitor) error { return v.RemoveSubnetValidatorTx(tx) }

// Marshal writes the BaseTx fields, the node ID, the subnet ID and the authorization.
func (tx *RemoveSubnetValidatorTx) Marshal(p *codec.Packer) {
	tx.BaseTx.Marshal(p)
	p.NodeID(tx.NodeID)
	p.ID(tx.SubnetID)
	marshalAuth(p, &tx.SubnetAuth)
}

// Unmarshal reads the fields written by Marshal.
func (tx *RemoveSubnetValidatorTx) Unmarshal(u *codec.Unpacker) {
	tx.BaseTx.Unmarshal(u)
	tx.NodeID = u.NodeID()
	tx.SubnetID = u.ID()
	unmarshalAuth(u, "subnet authorization", &tx.SubnetAuth)
}
