package txs

import (
	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/vms/components/utxo"
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

// TransferableOutput is an output of AssetID, as it appears in a tx (§3.1).
type TransferableOutput = utxo.TransferableOutput[Output, outputKinds]

// TransferableInput spends the UTXO UTXOID, of asset AssetID (§3.1).
type TransferableInput = utxo.TransferableInput[Input, inputKinds]

// inputKinds encodes an input with this chain's input type IDs.
type inputKinds struct{}

func (inputKinds) Write(p *codec.Packer, in Input) { inputs.Write(p, in) }
func (inputKinds) Read(u *codec.Unpacker) Input    { return inputs.Read(u) }

// minTransferableOutputSize bounds the count of a stake list before allocating.
const minTransferableOutputSize = utxo.MinTransferableOutputSize
