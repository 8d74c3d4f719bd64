package txs

import (
	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/components/utxo"
	"github.com/cornice-node/cornice/vms/internal/union"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// Output is a UTXO's or an initial state's output: a *secp256k1fx.TransferOutput or a
// *secp256k1fx.MintOutput. Other types fail to encode with codec.ErrUnregisteredType.
type Output interface {
	codec.Marshaler
}

// Encoded sizes used to bound slice counts before allocating.
const (
	minOutputSize             = 4 + 8 + 4 + 4 // type ID and a MintOutput with no addresses
	minTransferableOutputSize = ids.IDLen + 4 + secp256k1fx.MinTransferOutputSize
	minTransferableInputSize  = utxo.IDSize + ids.IDLen + 4 + secp256k1fx.MinTransferInputSize
)

// TransferableOutput is an amount of AssetID, as it appears in a tx's outputs (§3.1). Only a
// secp256k1fx TransferOutput (type ID 7) can be transferred. The reference's FxID is not
// serialized and not kept.
type TransferableOutput struct {
	AssetID ids.ID
	Out     *secp256k1fx.TransferOutput
}

// Marshal writes the asset ID, then the output's type ID and body.
func (o *TransferableOutput) Marshal(p *codec.Packer) {
	p.ID(o.AssetID)
	if o.Out == nil {
		p.Fail(codec.UnregisteredTypeError("transferable output", nil))
		return
	}
	p.TypeID(TypeIDTransferOutput)
	o.Out.Marshal(p)
}

// Unmarshal reads the fields written by Marshal.
func (o *TransferableOutput) Unmarshal(u *codec.Unpacker) {
	o.AssetID = u.ID()
	union.Expect(u, "transferable output", TypeIDTransferOutput)
	o.Out = &secp256k1fx.TransferOutput{}
	o.Out.Unmarshal(u)
}

// TransferableInput spends the UTXO UTXOID, of asset AssetID (§3.1). Only a secp256k1fx
// TransferInput (type ID 5) can spend.
type TransferableInput struct {
	utxo.UTXOID
	AssetID ids.ID
	In      *secp256k1fx.TransferInput
}

// Marshal writes the UTXO reference, the asset ID, then the input's type ID and body.
func (in *TransferableInput) Marshal(p *codec.Packer) {
	in.UTXOID.Marshal(p)
	p.ID(in.AssetID)
	if in.In == nil {
		p.Fail(codec.UnregisteredTypeError("transferable input", nil))
		return
	}
	p.TypeID(TypeIDTransferInput)
	in.In.Marshal(p)
}

// Unmarshal reads the fields written by Marshal.
func (in *TransferableInput) Unmarshal(u *codec.Unpacker) {
	in.UTXOID.Unmarshal(u)
	in.AssetID = u.ID()
	union.Expect(u, "transferable input", TypeIDTransferInput)
	in.In = &secp256k1fx.TransferInput{}
	in.In.Unmarshal(u)
}
