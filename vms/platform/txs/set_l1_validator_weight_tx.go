package txs

import "github.com/cornice-node/cornice/codec"

// SetL1ValidatorWeightTx changes an L1 validator's weight, or removes it with weight 0, on the
// strength of a warp message from the L1's manager (type ID 37, §4.4).
type SetL1ValidatorWeightTx struct {
	BaseTx
	// Message is a signed warp message carrying an L1ValidatorWeight payload, kept as bytes.
	Message []byte
}

func (*SetL1ValidatorWeightTx) isUnsignedTx() {}

// Visit calls v.SetL1ValidatorWeightTx with tx.
func (tx *SetL1ValidatorWeightTx) Visit(v Visitor) error { return v.SetL1ValidatorWeightTx(tx) }

// Marshal writes the BaseTx fields, then the message.
func (tx *SetL1ValidatorWeightTx) Marshal(p *codec.Packer) {
	tx.BaseTx.Marshal(p)
	p.VarBytes(tx.Message)
}

// Unmarshal reads the fields written by Marshal.
func (tx *SetL1ValidatorWeightTx) Unmarshal(u *codec.Unpacker) {
	tx.BaseTx.Unmarshal(u)
	tx.Message = u.VarBytes()
}
