package platform

import (
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/address"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// The JSON forms of txs and blocks that platform.getTx and platform.getBlock return with the json
// encoding, key for key as the reference node writes them (reference/platform-exchange.md §5.0,
// the platform.getTx(json) vectors): numbers are plain JSON numbers, IDs CB58, memos "0x" + hex,
// genesis data base64, addresses `P-<hrp>1…`; outputs and inputs carry the secp256k1fx ID, P-Chain
// credentials do not.

// secp256k1fxID is the ID of the feature extension of every P-Chain output and input (§2.3).
var secp256k1fxID = ids.FromName("secp256k1fx")

type txJSON struct {
	UnsignedTx  any              `json:"unsignedTx"`
	Credentials []credentialJSON `json:"credentials"`
	ID          ids.ID           `json:"id"`
}

type baseTxJSON struct {
	NetworkID    uint32                   `json:"networkID"`
	BlockchainID ids.ID                   `json:"blockchainID"`
	Outputs      []transferableOutputJSON `json:"outputs"`
	Inputs       []transferableInputJSON  `json:"inputs"`
	Memo         string                   `json:"memo"`
}

type createSubnetTxJSON struct {
	baseTxJSON
	Owner *ownersJSON `json:"owner"`
}

type createChainTxJSON struct {
	baseTxJSON
	SubnetID    ids.ID    `json:"subnetID"`
	ChainName   string    `json:"chainName"`
	VMID        ids.ID    `json:"vmID"`
	FxIDs       []ids.ID  `json:"fxIDs"`
	GenesisData []byte    `json:"genesisData"`
	SubnetAuth  inputJSON `json:"subnetAuthorization"`
}

type transferableOutputJSON struct {
	AssetID ids.ID `json:"assetID"`
	FxID    ids.ID `json:"fxID"`
	Output  any    `json:"output"`
}

// transferOutputJSON and ownersJSON have their keys in alphabetical order: the reference
// marshals OutputOwners through a map (§5.0).
type transferOutputJSON struct {
	Addresses []string `json:"addresses"`
	Amount    uint64   `json:"amount"`
	Locktime  uint64   `json:"locktime"`
	Threshold uint32   `json:"threshold"`
}

type ownersJSON struct {
	Addresses []string `json:"addresses"`
	Locktime  uint64   `json:"locktime"`
	Threshold uint32   `json:"threshold"`
}

type transferableInputJSON struct {
	TxID        ids.ID            `json:"txID"`
	OutputIndex uint32            `json:"outputIndex"`
	AssetID     ids.ID            `json:"assetID"`
	FxID        ids.ID            `json:"fxID"`
	Input       transferInputJSON `json:"input"`
}

type transferInputJSON struct {
	Amount           uint64   `json:"amount"`
	SignatureIndices []uint32 `json:"signatureIndices"`
}

type inputJSON struct {
	SignatureIndices []uint32 `json:"signatureIndices"`
}

type credentialJSON struct {
	Signatures []string `json:"signatures"`
}

type standardBlockJSON struct {
	Time     uint64   `json:"time"`
	ParentID ids.ID   `json:"parentID"`
	Height   uint64   `json:"height"`
	ID       ids.ID   `json:"id"`
	Txs      []txJSON `json:"txs"`
}

// genesisBlockJSON is the genesis (Apricot commit) block's form: no time (§4.1).
type genesisBlockJSON struct {
	ParentID ids.ID `json:"parentID"`
	Height   uint64 `json:"height"`
	ID       ids.ID `json:"id"`
}

// jsonFormatter renders txs and blocks with the addresses of one network.
type jsonFormatter struct {
	hrp string
}

// TxJSON returns the JSON form of tx that platform.getTx gives on the network whose HRP is hrp.
// Only the kinds this VM executes (BaseTx, CreateSubnetTx, CreateChainTx) have one yet; others
// fail with ErrUnsupportedTx.
func TxJSON(tx *Tx, hrp string) ([]byte, error) {
	v, err := jsonFormatter{hrp: hrp}.tx(tx)
	if err != nil {
		return nil, err
	}
	return json.Marshal(v)
}

// BlockJSON returns the JSON form of blk that platform.getBlock gives.
func BlockJSON(blk Block, hrp string) ([]byte, error) {
	f := jsonFormatter{hrp: hrp}
	switch blk := blk.(type) {
	case *StandardBlock:
		out := &standardBlockJSON{Time: blk.Time(), ParentID: blk.Parent(), Height: blk.Height(), ID: blk.ID(),
			Txs: make([]txJSON, len(blk.Txs()))}
		for i, tx := range blk.Txs() {
			v, err := f.tx(tx)
			if err != nil {
				return nil, err
			}
			out.Txs[i] = *v
		}
		return json.Marshal(out)
	case *ApricotCommitBlock:
		return json.Marshal(&genesisBlockJSON{ParentID: blk.Parent(), Height: blk.Height(), ID: blk.ID()})
	}
	return nil, fmt.Errorf("%w: %T", ErrWrongBlockType, blk)
}

func (f jsonFormatter) tx(tx *Tx) (*txJSON, error) {
	out := &txJSON{ID: tx.ID()}
	base, err := f.base(tx.Unsigned().Base())
	if err != nil {
		return nil, err
	}
	switch u := tx.Unsigned().(type) {
	case *BaseTx:
		out.UnsignedTx = base
	case *CreateSubnetTx:
		owner, err := f.owners(&u.Owner)
		if err != nil {
			return nil, err
		}
		out.UnsignedTx = &createSubnetTxJSON{baseTxJSON: *base, Owner: owner}
	case *CreateChainTx:
		fxIDs := u.FxIDs
		if fxIDs == nil {
			fxIDs = []ids.ID{}
		}
		out.UnsignedTx = &createChainTxJSON{
			baseTxJSON:  *base,
			SubnetID:    u.SubnetID,
			ChainName:   u.ChainName,
			VMID:        u.VMID,
			FxIDs:       fxIDs,
			GenesisData: u.GenesisData,
			SubnetAuth:  inputJSON{SignatureIndices: nonNil(u.SubnetAuth.SigIndices)},
		}
	default:
		return nil, fmt.Errorf("%w: no JSON form for %T", ErrUnsupportedTx, u)
	}
	// A tx without credentials (a genesis chain) shows null, as in the reference.
	if creds := tx.Creds(); len(creds) > 0 {
		out.Credentials = make([]credentialJSON, len(creds))
		for i := range creds {
			out.Credentials[i] = credentialJSON{Signatures: signatures(creds[i].Sigs)}
		}
	}
	return out, nil
}

func nonNil(idx []uint32) []uint32 {
	if idx == nil {
		return []uint32{}
	}
	return idx
}

func signatures(sigs []secp256k1fx.Signature) []string {
	out := make([]string, len(sigs))
	for i := range sigs {
		out[i] = "0x" + hex.EncodeToString(sigs[i][:])
	}
	return out
}

func (f jsonFormatter) base(tx *BaseTx) (*baseTxJSON, error) {
	out := &baseTxJSON{
		NetworkID:    tx.NetworkID,
		BlockchainID: tx.BlockchainID,
		Outputs:      make([]transferableOutputJSON, len(tx.Outs)),
		Inputs:       make([]transferableInputJSON, len(tx.Ins)),
		Memo:         "0x" + hex.EncodeToString(tx.Memo),
	}
	for i := range tx.Outs {
		to, ok := tx.Outs[i].Out.(*secp256k1fx.TransferOutput)
		if !ok {
			return nil, fmt.Errorf("%w: no JSON form for output %T", ErrUnsupportedTx, tx.Outs[i].Out)
		}
		addrs, err := f.addresses(to.Addrs)
		if err != nil {
			return nil, err
		}
		out.Outputs[i] = transferableOutputJSON{AssetID: tx.Outs[i].AssetID, FxID: secp256k1fxID, Output: &transferOutputJSON{
			Addresses: addrs, Amount: to.Amount, Locktime: to.Locktime, Threshold: to.Threshold,
		}}
	}
	for i := range tx.Ins {
		in := &tx.Ins[i]
		ti, ok := in.In.(*secp256k1fx.TransferInput)
		if !ok {
			return nil, fmt.Errorf("%w: no JSON form for input %T", ErrUnsupportedTx, in.In)
		}
		out.Inputs[i] = transferableInputJSON{
			TxID:        in.TxID,
			OutputIndex: in.OutputIndex,
			AssetID:     in.AssetID,
			FxID:        secp256k1fxID,
			Input:       transferInputJSON{Amount: ti.Amount, SignatureIndices: nonNil(ti.SigIndices)},
		}
	}
	return out, nil
}

func (f jsonFormatter) owners(o *secp256k1fx.OutputOwners) (*ownersJSON, error) {
	addrs, err := f.addresses(o.Addrs)
	if err != nil {
		return nil, err
	}
	return &ownersJSON{Addresses: addrs, Locktime: o.Locktime, Threshold: o.Threshold}, nil
}

func (f jsonFormatter) addresses(addrs []ids.ShortID) ([]string, error) {
	out := make([]string, len(addrs))
	for i, a := range addrs {
		s, err := address.Format(chainAlias, f.hrp, a)
		if err != nil {
			return nil, err
		}
		out[i] = s
	}
	return out, nil
}
