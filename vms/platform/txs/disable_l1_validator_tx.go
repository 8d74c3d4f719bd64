package txs

import (
	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// DisableL1ValidatorTx deactivates an L1 validator and refunds its remaining balance (type ID 39,
// §4.4). The refund is output len(Outs) of this tx.
type DisableL1ValidatorTx struct {
	BaseTx
	ValidationID ids.ID
	// DisableAuth names the deactivation owner's signers; written with type ID 10. Its credential
	// comes last (§3.3).
	DisableAuth secp256k1fx.Input
}

func (*DisableL1ValidatorTx) isUnsignedTx() {}

// Visit calls v.DisableL1ValidatorTx with tx.
func (tx *DisableL1ValidatorTx) Visit(v Visitor) error { return v.DisableL1ValidatorTx(tx) }

// Marshal writes the BaseTx fields, validation ID and authorization.
func (tx *DisableL1ValidatorTx) Marshal(p *codec.Packer) {
	tx.BaseTx.Marshal(p)
	p.ID(tx.ValidationID)
	marshalAuth(p, &tx.DisableAuth)
}

// Unmarshal reads the fields written by Marshal.
func (tx *DisableL1ValidatorTx) Unmarshal(u *codec.Unpacker) {
	tx.BaseTx.Unmarshal(u)
	tx.ValidationID = u.ID()
	unmarshalAuth(u, "disable authorization", &tx.DisableAuth)
}
