package secp256k1fx

import "github.com/cornice-node/cornice/codec"

// TransferInput spends a TransferOutput of Amount (type ID 5 on both chains).
type TransferInput struct {
	Amount uint64
	Input
}

// MinTransferInputSize is the encoded size of a TransferInput with no signature indices.
const MinTransferInputSize = 8 + 4

// Marshal writes the amount, then the signature indices.
func (in *TransferInput) Marshal(p *codec.Packer) {
	p.Uint64(in.Amount)
	in.Input.Marshal(p)
}

// Unmarshal reads the fields written by Marshal.
func (in *TransferInput) Unmarshal(u *codec.Unpacker) {
	in.Amount = u.Uint64()
	in.Input.Unmarshal(u)
}

// Verify checks that the amount is positive and the indices are valid (§3.1).
func (in *TransferInput) Verify() error {
	if in.Amount == 0 {
		return ErrNoValueInput
	}
	return in.Input.Verify()
}
