package txs

import (
	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/components/utxo"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// Input is what a TransferableInput spends: a *secp256k1fx.TransferInput, or a *LockIn wrapping
// one. Other types fail to encode with codec.ErrUnregisteredType.
type Input interface {
	codec.Marshaler
}

// Output is what a TransferableOutput holds: a *secp256k1fx.TransferOutput, or a *LockOut wrapping
// one. Other types fail to encode with codec.ErrUnregisteredType.
type Output interface {
	codec.Marshaler
}

// Encoded sizes used to bound slice counts before allocating.
const (
	minTransferableOutputSize = ids.IDLen + 4 + secp256k1fx.MinTransferOutputSize
	minTransferableInputSize  = utxo.IDSize + ids.IDLen + 4 + secp256k1fx.MinTransferInputSize
)

// TransferableOutput is an output of AssetID, as it appears in a tx (§3.1). The reference's FxID is
// not serialized and not kept.
type TransferableOutput struct {
	AssetID ids.ID
	Out     Output
}

// Marshal writes the asset ID, then the output's type ID and body.
func (o *TransferableOutput) Marshal(p *codec.Packer) {
	p.ID(o.AssetID)
	outputs.Write(p, o.Out)
}

// Unmarshal reads the fields written by Marshal.
func (o *TransferableOutput) Unmarshal(u *codec.Unpacker) {
	o.AssetID = u.ID()
	o.Out = outputs.Read(u)
}

// TransferableInput spends the UTXO UTXOID, of asset AssetID (§3.1).
type TransferableInput struct {
	utxo.UTXOID
	AssetID ids.ID
	In      Input
}

// Marshal writes the UTXO reference, the asset ID, then the input's type ID and body.
func (in *TransferableInput) Marshal(p *codec.Packer) {
	in.UTXOID.Marshal(p)
	p.ID(in.AssetID)
	inputs.Write(p, in.In)
}

// Unmarshal reads the fields written by Marshal.
func (in *TransferableInput) Unmarshal(u *codec.Unpacker) {
	in.UTXOID.Unmarshal(u)
	in.AssetID = u.ID()
	in.In = inputs.Read(u)
}
