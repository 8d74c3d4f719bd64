package secp256k1fx

import "github.com/cornice-node/cornice/codec"

// MintOutput lets its owners mint more of an asset (X-Chain only, type ID 6 there).
type MintOutput struct {
	OutputOwners
}

// Marshal writes the owners.
func (o *MintOutput) Marshal(p *codec.Packer) { o.OutputOwners.Marshal(p) }

// Unmarshal reads the fields written by Marshal.
func (o *MintOutput) Unmarshal(u *codec.Unpacker) { o.OutputOwners.Unmarshal(u) }

// MintOperation spends a MintOutput and produces a new one plus a TransferOutput of the minted
// amount (X-Chain only, type ID 8 there).
type MintOperation struct {
	MintInput      Input
	MintOutput     MintOutput
	TransferOutput TransferOutput
}

// Marshal writes the input, the new mint output and the transfer output, each without a type ID.
func (op *MintOperation) Marshal(p *codec.Packer) {
	op.MintInput.Marshal(p)
	op.MintOutput.Marshal(p)
	op.TransferOutput.Marshal(p)
}

// Unmarshal reads the fields written by Marshal.
func (op *MintOperation) Unmarshal(u *codec.Unpacker) {
	op.MintInput.Unmarshal(u)
	op.MintOutput.Unmarshal(u)
	op.TransferOutput.Unmarshal(u)
}
