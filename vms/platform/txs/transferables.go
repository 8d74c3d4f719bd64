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

// outputKinds encodes an output, of a UTXO or a transferable output, with this chain's output type
// IDs.
type outputKinds struct{}

func (outputKinds) Write(p *codec.Packer, out Output) { outputs.Write(p, out) }
func (outputKinds) Read(u *codec.Unpacker) Output     { return outputs.Read(u) }

// inputKinds encodes an input with this chain's input type IDs.
type inputKinds struct{}

func (inputKinds) Write(p *codec.Packer, in Input) { inputs.Write(p, in) }
func (inputKinds) Read(u *codec.Unpacker) Input    { return inputs.Read(u) }

// minTransferableOutputSize bounds the count of a stake list before allocating.
const minTransferableOutputSize = utxo.MinTransferableOutputSize

// UTXO is an unspent output of the P-Chain: a TransferOutput, or a LockOut wrapping one (§2.2).
type UTXO = utxo.UTXO[Output, outputKinds]

// ParseUTXO decodes UTXO bytes written by Bytes. It copies b.
func ParseUTXO(b []byte) (*UTXO, error) {
	return utxo.Parse[Output, outputKinds](b)
}
