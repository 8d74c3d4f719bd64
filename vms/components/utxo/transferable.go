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
