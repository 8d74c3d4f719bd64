package txs

import (
	"encoding/json"
	"fmt"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/internal/txjson"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// The JSON forms of txs and blocks that avm.getTx and avm.getBlock return with the json
// encoding, key for key as the reference node writes them (reference/platform-exchange.md §6.5,
// the avm.getTx(json) vectors): numbers are plain JSON numbers, IDs CB58, byte strings "0x" + hex
// without checksum, addresses `X-<hrp>1…`, and every output and input carries the secp256k1fx ID.

type (
	txJSON     = txjson.Tx[credentialJSON]
	baseTxJSON = txjson.BaseTx[*txjson.TransferInput]
	// forms renders the X-Chain's transferable outputs, which hold a TransferOutput, and its
	// inputs, which hold a TransferInput.
	forms = txjson.Forms[*secp256k1fx.TransferOutput, transferOutputKind, *secp256k1fx.TransferInput, transferInputKind, *txjson.TransferInput]
)

type createAssetTxJSON struct {
	baseTxJSON
	Name          string             `json:"name"`
	Symbol        string             `json:"symbol"`
	Denomination  uint8              `json:"denomination"`
	InitialStates []initialStateJSON `json:"initialStates"`
}

// mintOutputJSON, like txjson.TransferOutput, has its keys in alphabetical order: the reference
// marshals OutputOwners through a map (§6.5).
type mintOutputJSON struct {
	Addresses []string `json:"addresses"`
	Locktime  uint64   `json:"locktime"`
	Threshold uint32   `json:"threshold"`
}

type initialStateJSON struct {
	FxIndex uint32 `json:"fxIndex"`
	FxID    ids.ID `json:"fxID"`
	Outputs []any  `json:"outputs"`
}

type credentialJSON struct {
	FxID       ids.ID         `json:"fxID"`
	Credential signaturesJSON `json:"credential"`
}

type signaturesJSON struct {
	Signatures []string `json:"signatures"`
}

type blockJSON struct {
	ParentID   ids.ID   `json:"parentID"`
	Height     uint64   `json:"height"`
	Time       uint64   `json:"time"`
	MerkleRoot ids.ID   `json:"merkleRoot"`
	Txs        []txJSON `json:"txs"`
	ID         ids.ID   `json:"id"`
}

// jsonFormatter renders txs and blocks with the addresses of one chain and network.
type jsonFormatter struct {
	alias, hrp string
}

// TxJSON returns the JSON form of tx that avm.getTx gives, with addresses formatted as
// `<alias>-<hrp>1…` (alias "X" on the X-Chain).
func TxJSON(tx *Tx, alias, hrp string) ([]byte, error) {
	v, err := jsonFormatter{alias: alias, hrp: hrp}.tx(tx)
	if err != nil {
		return nil, err
	}
	return json.Marshal(v)
}

// BlockJSON returns the JSON form of blk that avm.getBlock gives.
func BlockJSON(blk *StandardBlock, alias, hrp string) ([]byte, error) {
	v, err := jsonFormatter{alias: alias, hrp: hrp}.block(blk)
	if err != nil {
		return nil, err
	}
	return json.Marshal(v)
}

func (f jsonFormatter) block(blk *StandardBlock) (*blockJSON, error) {
	out := &blockJSON{
		ParentID:   blk.Parent(),
		Height:     blk.Height(),
		Time:       blk.Time(),
		MerkleRoot: blk.MerkleRoot(),
		ID:         blk.ID(),
	}
	// The genesis block has no txs: null, as in the reference.
	if txs := blk.Txs(); len(txs) > 0 {
		out.Txs = make([]txJSON, len(txs))
		for i, tx := range txs {
			v, err := f.tx(tx)
			if err != nil {
				return nil, err
			}
			out.Txs[i] = *v
		}
	}
	return out, nil
}

func (f jsonFormatter) tx(tx *Tx) (*txJSON, error) {
	out := &txJSON{ID: tx.ID()}
	form := &unsignedJSON{f: f}
	if err := tx.Unsigned().Visit(form); err != nil {
		return nil, err
	}
	out.UnsignedTx = form.out
	// A tx without credentials (a genesis asset) shows null, as in the reference.
	if creds := tx.Creds(); len(creds) > 0 {
		out.Credentials = make([]credentialJSON, len(creds))
		for i := range creds {
			out.Credentials[i] = credentialJSON{FxID: txjson.Secp256k1fxID, Credential: signaturesJSON{Signatures: txjson.Signatures(creds[i].Sigs)}}
		}
	}
	return out, nil
}

func (f jsonFormatter) forms() forms {
	return forms{
		Output: func(o *secp256k1fx.TransferOutput) (any, error) { return f.output(o) },
		Input: func(in *secp256k1fx.TransferInput) (*txjson.TransferInput, error) {
			return txjson.NewTransferInput(in), nil
		},
	}
}

func (f jsonFormatter) base(tx *BaseTx) (*baseTxJSON, error) {
	return f.forms().BaseTx((*baseFields)(tx))
}

func (f jsonFormatter) output(o Output) (any, error) {
	switch o := o.(type) {
	case *secp256k1fx.TransferOutput:
		addrs, err := f.addresses(o.Addrs)
		if err != nil {
			return nil, err
		}
		return &txjson.TransferOutput{Addresses: addrs, Amount: o.Amount, Locktime: o.Locktime, Threshold: o.Threshold}, nil
	case *secp256k1fx.MintOutput:
		addrs, err := f.addresses(o.Addrs)
		if err != nil {
			return nil, err
		}
		return &mintOutputJSON{Addresses: addrs, Locktime: o.Locktime, Threshold: o.Threshold}, nil
	}
	return nil, fmt.Errorf("%w: output %T", ErrUnsupportedTx, o)
}

func (f jsonFormatter) addresses(addrs []ids.ShortID) ([]string, error) {
	return txjson.Addresses(f.alias, f.hrp, addrs)
}

// unsignedJSON forms each kind: out is the form of the tx visited. The kinds the chain does not
// execute have none.
type unsignedJSON struct {
	f   jsonFormatter
	out any
}

func (j *unsignedJSON) BaseTx(tx *BaseTx) error {
	base, err := j.f.base(tx)
	if err != nil {
		return err
	}
	j.out = base
	return nil
}

func (j *unsignedJSON) CreateAssetTx(tx *CreateAssetTx) error {
	base, err := j.f.base(&tx.BaseTx)
	if err != nil {
		return err
	}
	ca := &createAssetTxJSON{
		baseTxJSON:    *base,
		Name:          tx.Name,
		Symbol:        tx.Symbol,
		Denomination:  tx.Denomination,
		InitialStates: make([]initialStateJSON, len(tx.States)),
	}
	for i := range tx.States {
		st := &tx.States[i]
		js := initialStateJSON{FxIndex: st.FxIndex, FxID: txjson.Secp256k1fxID, Outputs: make([]any, len(st.Outs))}
		for k, o := range st.Outs {
			if js.Outputs[k], err = j.f.output(o); err != nil {
				return err
			}
		}
		ca.InitialStates[i] = js
	}
	j.out = ca
	return nil
}

func (*unsignedJSON) OperationTx(tx *OperationTx) error {
	return fmt.Errorf("%w: %T", ErrUnsupportedTx, tx)
}

func (j *unsignedJSON) ImportTx(tx *ImportTx) error {
	base, err := j.f.base(&tx.BaseTx)
	if err != nil {
		return err
	}
	j.out, err = j.f.forms().ImportTx(base, &tx.Import)
	return err
}

func (j *unsignedJSON) ExportTx(tx *ExportTx) error {
	base, err := j.f.base(&tx.BaseTx)
	if err != nil {
		return err
	}
	j.out, err = j.f.forms().ExportTx(base, &tx.Export)
	return err
}
