package utxo

import (
	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// The smallest transferable output and input either chain encodes: a secp256k1fx TransferOutput
// with no addresses and a TransferInput with no signatures, after their asset ID (and UTXO
// reference) and type ID. They bound slice counts before allocating.
const (
	MinTransferableOutputSize = ids.IDLen + 4 + secp256k1fx.MinTransferOutputSize
	MinTransferableInputSize  = IDSize + ids.IDLen + 4 + secp256k1fx.MinTransferInputSize
)

// TransferableOutput is an output of AssetID, as it appears in a tx (§3.1): O is the chain's
// output type and K the Kinds that encode it. The reference's FxID is not serialized and not kept.
type TransferableOutput[O any, K Kinds[O]] struct {
	AssetID ids.ID
	Out     O
}

// Marshal writes the asset ID, then the output's type ID and body.
func (o *TransferableOutput[O, K]) Marshal(p *codec.Packer) {
	p.ID(o.AssetID)
	var k K
	k.Write(p, o.Out)
}

// Unmarshal reads the fields written by Marshal.
func (o *TransferableOutput[O, K]) Unmarshal(u *codec.Unpacker) {
	o.AssetID = u.ID()
	var k K
	o.Out = k.Read(u)
}

// TransferableInput spends the UTXO UTXOID, of asset AssetID (§3.1): I is the chain's input type
// and K the Kinds that encode it.
type TransferableInput[I any, K Kinds[I]] struct {
	UTXOID
	AssetID ids.ID
	In      I
}

// Marshal writes the UTXO reference, the asset ID, then the input's type ID and body.
func (in *TransferableInput[I, K]) Marshal(p *codec.Packer) {
	in.UTXOID.Marshal(p)
	p.ID(in.AssetID)
	var k K
	k.Write(p, in.In)
}

// Unmarshal reads the fields written by Marshal.
func (in *TransferableInput[I, K]) Unmarshal(u *codec.Unpacker) {
	in.UTXOID.Unmarshal(u)
	in.AssetID = u.ID()
	var k K
	in.In = k.Read(u)
}

// PayTo returns the output that pays amount to addr alone, spendable at once by its key
// (threshold 1, no locktime): the plain payment that wallets and tests build on both chains, each
// chain's txs.TransferTo wrapping it with the asset.
func PayTo(amount uint64, addr ids.ShortID) *secp256k1fx.TransferOutput {
	return &secp256k1fx.TransferOutput{
		Amount: amount, OutputOwners: secp256k1fx.OutputOwners{Threshold: 1, Addrs: []ids.ShortID{addr}},
	}
}

// Spend returns the input that spends amount of a UTXO with the signature of its owner at
// sigIndex: what a one-signature wallet puts in either chain's TransferableInput.
func Spend(amount uint64, sigIndex uint32) *secp256k1fx.TransferInput {
	return &secp256k1fx.TransferInput{Amount: amount, Input: secp256k1fx.Input{SigIndices: []uint32{sigIndex}}}
}
