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

// TransferableOutput is an output of AssetID, as it appears in a tx (§3.1).
type TransferableOutput = utxo.TransferableOutput[Output, outputKinds]

// TransferableInput spends the UTXO UTXOID, of asset AssetID (§3.1).
type TransferableInput = utxo.TransferableInput[Input, inputKinds]

// TransferTo returns an output of amount of asset to addr alone, spendable at once by its key
// (threshold 1, no locktime): the plain payment the wallet and the tests build.
func TransferTo(asset ids.ID, amount uint64, addr ids.ShortID) TransferableOutput {
	return TransferableOutput{AssetID: asset, Out: utxo.PayTo(amount, addr)}
}

// SpendUTXO returns the input that spends all of ux with the signature of its first owner
// (signature index 0), as for an output TransferTo made. ux must hold a
// *secp256k1fx.TransferOutput, not a locked one: it panics otherwise, as the wallet's and the
// tests' callers only spend those.
func SpendUTXO(ux *UTXO) TransferableInput {
	return TransferableInput{UTXOID: ux.UTXOID, AssetID: ux.AssetID, In: utxo.Spend(ux.Out.(*secp256k1fx.TransferOutput).Amount, 0)}
}

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
