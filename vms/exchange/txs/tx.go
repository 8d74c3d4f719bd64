package txs

import (
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/components/utxo"
	"github.com/cornice-node/cornice/vms/internal/signed"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// UnsignedTx is the body of an X-Chain tx: a BaseTx, CreateAssetTx, OperationTx, ImportTx or
// ExportTx. The set is closed; the kinds' type IDs are in unsignedTxs (§1.3).
type UnsignedTx interface {
	signed.Unsigned[*BaseTx, Visitor]
	isUnsignedTx()
}

// Tx is a signed X-Chain tx: an unsigned tx and one credential per input and operation (§6.2). A
// Tx is immutable and caches its bytes and ID.
type Tx struct {
	signed.Tx[UnsignedTx]
}

// txCodec reads and writes this chain's unsigned txs inside the shared envelope.
var txCodec = signed.CodecOf(unsignedTxs, ErrNilTx)

// NewTx encodes unsigned and creds into a Tx (see [signed.New]).
func NewTx(unsigned UnsignedTx, creds []secp256k1fx.Credential) (*Tx, error) {
	return signed.NewAs[Tx](txCodec, unsigned, creds)
}

// UnsignedBytes encodes unsigned as its signers sign it (see [signed.UnsignedBytes]).
func UnsignedBytes(unsigned UnsignedTx) ([]byte, error) {
	return signed.UnsignedBytes(txCodec, unsigned)
}

// ParseTx decodes signed tx bytes (see [signed.ParseAs]).
func ParseTx(b []byte) (*Tx, error) { return signed.ParseAs[Tx](txCodec, b) }

// UTXOs returns the outputs the tx creates on the X-Chain, with output indices counting up from 0
// (§2.2): first the Outs, then for a CreateAssetTx each initial state's outputs (of the new asset,
// whose ID is the tx ID), and for an OperationTx each operation's outputs (of the operation's
// asset). An ExportTx's exported outputs go to shared memory and are not included.
func (tx *Tx) UTXOs() []UTXO {
	base := tx.Unsigned().Base()
	utxos := make([]UTXO, 0, len(base.Outs))
	add := func(assetID ids.ID, out Output) {
		utxos = append(utxos, UTXO{
			UTXOID:  utxo.UTXOID{TxID: tx.ID(), OutputIndex: uint32(len(utxos))},
			AssetID: assetID,
			Out:     out,
		})
	}
	for _, out := range base.Outs {
		add(out.AssetID, out.Out)
	}
	_ = tx.Unsigned().Visit(&utxoLister{txID: tx.ID(), add: add}) // its methods never fail
	return utxos
}

// utxoLister adds the outputs a kind creates besides its Outs: a CreateAssetTx's initial states,
// of the new asset whose ID is the tx's, and an OperationTx's operations' outputs.
type utxoLister struct {
	txID ids.ID
	add  func(assetID ids.ID, out Output)
}

func (*utxoLister) BaseTx(*BaseTx) error { return nil }

func (l *utxoLister) CreateAssetTx(tx *CreateAssetTx) error {
	for _, state := range tx.States {
		for _, out := range state.Outs {
			l.add(l.txID, out)
		}
	}
	return nil
}

func (l *utxoLister) OperationTx(tx *OperationTx) error {
	for i := range tx.Ops {
		op := &tx.Ops[i]
		for _, out := range op.outputs() {
			l.add(op.AssetID, out)
		}
	}
	return nil
}

func (*utxoLister) ImportTx(*ImportTx) error { return nil }

// ExportTx's exported outputs go to shared memory, not to this chain's UTXOs.
func (*utxoLister) ExportTx(*ExportTx) error { return nil }
