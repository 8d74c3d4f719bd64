package txs

import (
	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// CreateChainTx creates a blockchain on SubnetID (type ID 15). The chain's ID is the tx's ID,
// including the genesis X and C chains (§2.3).
type CreateChainTx struct {
	BaseTx
	SubnetID ids.ID
	// ChainName is at most 128 ASCII letters, digits and spaces (checked by the chain, §4.3).
	ChainName string
	VMID      ids.ID
	// FxIDs must be sorted and unique.
	FxIDs []ids.ID
	// GenesisData is the chain's genesis, at most 1 MiB.
	GenesisData []byte
	// SubnetAuth names the subnet owner's signers; written with type ID 10.
	SubnetAuth secp256k1fx.Input
}

func (*CreateChainTx) isUnsignedTx() {}

// Visit calls v.CreateChainTx with tx.
func (tx *CreateChainTx) Visit(v Visitor) error { return v.CreateChainTx(tx) }

// Marshal writes the BaseTx fields, subnet ID, name, VM ID, fx IDs, genesis and authorization.
func (tx *CreateChainTx) Marshal(p *codec.Packer) {
	tx.BaseTx.Marshal(p)
	p.ID(tx.SubnetID)
	p.Str(tx.ChainName)
	p.ID(tx.VMID)
	p.IDs(tx.FxIDs)
	p.VarBytes(tx.GenesisData)
	marshalAuth(p, &tx.SubnetAuth)
}

// Unmarshal reads the fields written by Marshal.
func (tx *CreateChainTx) Unmarshal(u *codec.Unpacker) {
	tx.BaseTx.Unmarshal(u)
	tx.SubnetID = u.ID()
	tx.ChainName = u.Str()
	tx.VMID = u.ID()
	tx.FxIDs = u.IDs()
	tx.GenesisData = u.VarBytes()
	unmarshalAuth(u, "subnet authorization", &tx.SubnetAuth)
}
