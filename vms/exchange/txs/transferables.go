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

// minOutputSize bounds slice counts before allocating: a type ID and a MintOutput with no
// addresses.
const minOutputSize = 4 + 8 + 4 + 4

// TransferableOutput is an amount of AssetID, as it appears in a tx's outputs (§3.1). Only a
// secp256k1fx TransferOutput (type ID 7) can be transferred.
type TransferableOutput = utxo.TransferableOutput[*secp256k1fx.TransferOutput, transferOutputKind]

// TransferableInput spends the UTXO UTXOID, of asset AssetID (§3.1). Only a secp256k1fx
// TransferInput (type ID 5) can spend.
type TransferableInput = utxo.TransferableInput[*secp256k1fx.TransferInput, transferInputKind]

// TransferTo returns an output of amount of asset to addr alone, spendable at once by its key
// (threshold 1, no locktime): the plain payment the wallet and the tests build.
func TransferTo(asset ids.ID, amount uint64, addr ids.ShortID) TransferableOutput {
	return TransferableOutput{AssetID: asset, Out: utxo.PayTo(amount, addr)}
}

// SpendUTXO returns the input that spends all of ux with the signature of its first owner
// (signature index 0), as for an output TransferTo made. ux must hold a
// *secp256k1fx.TransferOutput: it panics otherwise, as the wallet's and the tests' callers only
// spend those.
func SpendUTXO(ux *UTXO) TransferableInput {
	return TransferableInput{UTXOID: ux.UTXOID, AssetID: ux.AssetID, In: utxo.Spend(ux.Out.(*secp256k1fx.TransferOutput).Amount, 0)}
}

// transferOutputKind encodes a TransferableOutput's output, which can only be a TransferOutput.
type transferOutputKind struct{}

func (transferOutputKind) Write(p *codec.Packer, out *secp256k1fx.TransferOutput) {
	union.WriteOne(p, "transferable output", TypeIDTransferOutput, out)
}

func (transferOutputKind) Read(u *codec.Unpacker) *secp256k1fx.TransferOutput {
	return union.ReadOne[secp256k1fx.TransferOutput](u, "transferable output", TypeIDTransferOutput)
}

// transferInputKind encodes a TransferableInput's input, which can only be a TransferInput.
type transferInputKind struct{}

func (transferInputKind) Write(p *codec.Packer, in *secp256k1fx.TransferInput) {
	union.WriteOne(p, "transferable input", TypeIDTransferInput, in)
}

func (transferInputKind) Read(u *codec.Unpacker) *secp256k1fx.TransferInput {
	return union.ReadOne[secp256k1fx.TransferInput](u, "transferable input", TypeIDTransferInput)
}

// UTXO is an unspent output of the X-Chain: a TransferOutput, or a MintOutput that lets its owners
// mint more of AssetID (§2.2).
type UTXO = utxo.UTXO[Output, outputKinds]

// outputKinds encodes a UTXO's output with this chain's output type IDs.
type outputKinds struct{}

func (outputKinds) Write(p *codec.Packer, out Output) { outputs.Write(p, out) }
func (outputKinds) Read(u *codec.Unpacker) Output     { return outputs.Read(u) }

// ParseUTXO decodes UTXO bytes written by Bytes. It copies b.
func ParseUTXO(b []byte) (*UTXO, error) {
	return utxo.Parse[Output, outputKinds](b)
}
