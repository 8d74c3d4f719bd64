package txs

import "github.com/cornice-node/cornice/codec"

// RegisterL1ValidatorTx adds an L1 validator on the strength of a warp message from the L1's
// manager (type ID 36). The validation ID is sha256 of the RegisterL1Validator payload inside
// Message (§2.3, §4.5).
type RegisterL1ValidatorTx struct {
	BaseTx
	// Balance pays the continuous fee (§4.7).
	Balance uint64
	// ProofOfPossession is the BLS signature proving the key in the message.
	ProofOfPossession [BLSSignatureLen]byte
	// Message is a signed warp message, kept as bytes.
	Message []byte
}

func (*RegisterL1ValidatorTx) isUnsignedTx() {}

// Visit calls v.RegisterL1ValidatorTx with tx.
func (tx *RegisterL1ValidatorTx) Visit(v Visitor) error { return v.RegisterL1ValidatorTx(tx) }

// Marshal writes the BaseTx fields, balance, proof of possession and message.
func (tx *RegisterL1ValidatorTx) Marshal(p *codec.Packer) {
	tx.BaseTx.Marshal(p)
	p.Uint64(tx.Balance)
	p.Fixed(tx.ProofOfPossession[:])
	p.VarBytes(tx.Message)
}

// Unmarshal reads the fields written by Marshal.
func (tx *RegisterL1ValidatorTx) Unmarshal(u *codec.Unpacker) {
	tx.BaseTx.Unmarshal(u)
	tx.Balance = u.Uint64()
	u.Fixed(tx.ProofOfPossession[:])
	tx.Message = u.VarBytes()
}
