package secp256k1fx

import "github.com/cornice-node/cornice/codec"

// TransferOutput is an amount of an asset owned by OutputOwners (type ID 7 on both chains).
type TransferOutput struct {
	Amount uint64
	OutputOwners
}

// MinTransferOutputSize is the encoded size of a TransferOutput with no addresses.
const MinTransferOutputSize = 8 + minOwnersSize

// Marshal writes the amount, then the owners.
func (o *TransferOutput) Marshal(p *codec.Packer) {
	p.Uint64(o.Amount)
	o.OutputOwners.Marshal(p)
}

// Unmarshal reads the fields written by Marshal.
func (o *TransferOutput) Unmarshal(u *codec.Unpacker) {
	o.Amount = u.Uint64()
	o.OutputOwners.Unmarshal(u)
}

// Verify checks that the amount is positive and the owners are valid (§3.1).
func (o *TransferOutput) Verify() error {
	switch {
	case o == nil:
		return ErrNilOutput
	case o.Amount == 0:
		return ErrNoValueOutput
	}
	return o.OutputOwners.Verify()
}
