package txs

import (
	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/vms/components/utxo"
	"github.com/cornice-node/cornice/vms/internal/signed"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// UnsignedTx is the body of a P-Chain tx, one of the kinds the Visitor lists. The set is closed;
// the kinds' type IDs are in unsignedTxs (§1.3).
type UnsignedTx interface {
	signed.Unsigned[*BaseTx, Visitor]
	isUnsignedTx()
}

// Tx is a signed P-Chain tx: an unsigned tx and one credential per input, plus one for the
// authorization of txs that have one (§3.3). A Tx is immutable and caches its bytes and ID.
type Tx struct {
	signed.Tx[UnsignedTx]
}

// txCodec reads and writes this chain's unsigned txs inside the shared envelope.
var txCodec = signed.CodecOf(unsignedTxs, codec.UnregisteredTypeError("tx", nil))

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

// UTXOs returns the outputs the tx produces, with output indices 0…n−1 in Outs order (§2.2).
// Outputs that the chain creates on execution (L1 validator refunds) are not included.
func (tx *Tx) UTXOs() []UTXO {
	outs := tx.Unsigned().Base().Outs
	utxos := make([]UTXO, len(outs))
	for i, out := range outs {
		utxos[i] = UTXO{UTXOID: utxo.UTXOID{TxID: tx.ID(), OutputIndex: uint32(i)}, AssetID: out.AssetID, Out: out.Out}
	}
	return utxos
}
