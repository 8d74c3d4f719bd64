// Package txjson holds the JSON forms of a signed tx, of the fields every tx kind starts with and
// of the ImportTx and ExportTx, which the X- and P-Chains' getTx and getBlock (json encoding) write
// key for key alike (reference/platform-exchange.md §5.0, §6.5). Each chain's txs package
// instantiates them with its own credential, output and input forms, which differ (X-Chain
// credentials carry the fxID, P-Chain outputs and inputs may be stakeable locks); Forms turns the
// shared UTXO model's transferable outputs and inputs into them. The pieces both write alike (the
// secp256k1fx ID, transfer outputs and inputs, addresses, signatures) are here too.
package txjson

import (
	"encoding/hex"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/address"
	"github.com/cornice-node/cornice/vms/components/utxo"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// Tx is the JSON form of a signed tx; C is the chain's credential form.
type Tx[C any] struct {
	UnsignedTx  any    `json:"unsignedTx"`
	Credentials []C    `json:"credentials"`
	ID          ids.ID `json:"id"`
}

// BaseTx is the JSON form of a BaseTx's fields; F is the chain's form of an input.
type BaseTx[F any] struct {
	NetworkID    uint32                 `json:"networkID"`
	BlockchainID ids.ID                 `json:"blockchainID"`
	Outputs      []TransferableOutput   `json:"outputs"`
	Inputs       []TransferableInput[F] `json:"inputs"`
	Memo         string                 `json:"memo"`
}

// ImportTx is the JSON form of an ImportTx on both chains: the BaseTx fields, then the source
// chain and the imported inputs.
type ImportTx[F any] struct {
	BaseTx[F]
	SourceChain    ids.ID                 `json:"sourceChain"`
	ImportedInputs []TransferableInput[F] `json:"importedInputs"`
}

// ExportTx is the JSON form of an ExportTx on both chains: the BaseTx fields, then the
// destination chain and the exported outputs.
type ExportTx[F any] struct {
	BaseTx[F]
	DestinationChain ids.ID               `json:"destinationChain"`
	ExportedOutputs  []TransferableOutput `json:"exportedOutputs"`
}

// TransferableOutput is the JSON form of a transferable output; Output is the chain's form of the
// output it holds.
type TransferableOutput struct {
	AssetID ids.ID `json:"assetID"`
	FxID    ids.ID `json:"fxID"`
	Output  any    `json:"output"`
}

// TransferableInput is the JSON form of a transferable input; F is the chain's form of the input
// it holds.
type TransferableInput[F any] struct {
	TxID        ids.ID `json:"txID"`
	OutputIndex uint32 `json:"outputIndex"`
	AssetID     ids.ID `json:"assetID"`
	FxID        ids.ID `json:"fxID"`
	Input       F      `json:"input"`
}

// TransferInput is the JSON form of a secp256k1fx.TransferInput.
type TransferInput struct {
	Amount           uint64   `json:"amount"`
	SignatureIndices []uint32 `json:"signatureIndices"`
}

// NewTransferInput returns in's form; no signature indices print [], never null.
func NewTransferInput(in *secp256k1fx.TransferInput) *TransferInput {
	idx := in.SigIndices
	if idx == nil {
		idx = []uint32{}
	}
	return &TransferInput{Amount: in.Amount, SignatureIndices: idx}
}

// Forms renders a chain's transferable outputs and inputs, and the BaseTx, ImportTx and ExportTx
// fields made of them: O and I are the chain's output and input types (OK and IK their Kinds), F
// its form of an input. Every output and input names the secp256k1fx ID.
type Forms[O any, OK utxo.Kinds[O], I any, IK utxo.Kinds[I], F any] struct {
	// Output returns the form of an output, or fails for one the chain has no form of.
	Output func(O) (any, error)
	// Input returns the form of an input, or fails for one the chain has no form of.
	Input func(I) (F, error)
}

// Outputs forms outs: a tx's own outputs, an ExportTx's exported ones or a validator's stake.
func (fm Forms[O, OK, I, IK, F]) Outputs(outs []utxo.TransferableOutput[O, OK]) ([]TransferableOutput, error) {
	js := make([]TransferableOutput, len(outs))
	for i := range outs {
		o, err := fm.Output(outs[i].Out)
		if err != nil {
			return nil, err
		}
		js[i] = TransferableOutput{AssetID: outs[i].AssetID, FxID: Secp256k1fxID, Output: o}
	}
	return js, nil
}

// Inputs forms ins: a tx's own inputs or an ImportTx's imported ones.
func (fm Forms[O, OK, I, IK, F]) Inputs(ins []utxo.TransferableInput[I, IK]) ([]TransferableInput[F], error) {
	js := make([]TransferableInput[F], len(ins))
	for i := range ins {
		in := &ins[i]
		v, err := fm.Input(in.In)
		if err != nil {
			return nil, err
		}
		js[i] = TransferableInput[F]{TxID: in.TxID, OutputIndex: in.OutputIndex, AssetID: in.AssetID, FxID: Secp256k1fxID, Input: v}
	}
	return js, nil
}

// BaseTx forms a BaseTx's fields; the memo is "0x" + hex.
func (fm Forms[O, OK, I, IK, F]) BaseTx(tx *utxo.BaseTx[O, OK, I, IK]) (*BaseTx[F], error) {
	outs, err := fm.Outputs(tx.Outs)
	if err != nil {
		return nil, err
	}
	ins, err := fm.Inputs(tx.Ins)
	if err != nil {
		return nil, err
	}
	return &BaseTx[F]{
		NetworkID:    tx.NetworkID,
		BlockchainID: tx.BlockchainID,
		Outputs:      outs,
		Inputs:       ins,
		Memo:         "0x" + hex.EncodeToString(tx.Memo),
	}, nil
}

// ImportTx forms an ImportTx whose BaseTx fields base holds.
func (fm Forms[O, OK, I, IK, F]) ImportTx(base *BaseTx[F], im *utxo.Import[I, IK]) (*ImportTx[F], error) {
	ins, err := fm.Inputs(im.ImportedIns)
	if err != nil {
		return nil, err
	}
	return &ImportTx[F]{BaseTx: *base, SourceChain: im.SourceChain, ImportedInputs: ins}, nil
}

// ExportTx forms an ExportTx whose BaseTx fields base holds.
func (fm Forms[O, OK, I, IK, F]) ExportTx(base *BaseTx[F], ex *utxo.Export[O, OK]) (*ExportTx[F], error) {
	outs, err := fm.Outputs(ex.ExportedOuts)
	if err != nil {
		return nil, err
	}
	return &ExportTx[F]{BaseTx: *base, DestinationChain: ex.DestinationChain, ExportedOutputs: outs}, nil
}

// Secp256k1fxID is the ID of the feature extension that every output and input of both chains
// names in its JSON form (§2.3).
var Secp256k1fxID = ids.FromName("secp256k1fx")

// TransferOutput is the JSON form of a secp256k1fx.TransferOutput. Its keys are in alphabetical
// order: the reference marshals OutputOwners through a map (§5.0, §6.5).
type TransferOutput struct {
	Addresses []string `json:"addresses"`
	Amount    uint64   `json:"amount"`
	Locktime  uint64   `json:"locktime"`
	Threshold uint32   `json:"threshold"`
}

// Addresses formats addrs as the chain's addresses, `<chainAlias>-<hrp>1…`.
func Addresses(chainAlias, hrp string, addrs []ids.ShortID) ([]string, error) {
	out := make([]string, len(addrs))
	for i, a := range addrs {
		s, err := address.Format(chainAlias, hrp, a)
		if err != nil {
			return nil, err
		}
		out[i] = s
	}
	return out, nil
}

// Signatures writes each signature as "0x" + hex, without checksum.
func Signatures(sigs []secp256k1fx.Signature) []string {
	out := make([]string, len(sigs))
	for i := range sigs {
		out[i] = "0x" + hex.EncodeToString(sigs[i][:])
	}
	return out
}
