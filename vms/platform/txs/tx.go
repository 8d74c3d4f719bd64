package txs

import (
	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/vms/components/utxo"
	"github.com/cornice-node/cornice/vms/internal/signed"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// UnsignedTx is the body of a P-Chain tx, one of the kinds of this package (BaseTx,
// CreateSubnetTx, ...). The set is closed.
type UnsignedTx interface {
	// Marshal writes the tx's fields, without its type ID.
	Marshal(p *codec.Packer)
	// Unmarshal reads the fields written by Marshal.
	Unmarshal(u *codec.Unpacker)
	// Base returns the BaseTx fields every kind starts with.
	Base() *BaseTx
	// Visit calls the method of v for the tx's kind.
	Visit(v Visitor) error
	// isUnsignedTx closes the set; the kinds' type IDs are in unsignedTxs (§1.3).
	isUnsignedTx()
}

// Tx is a signed P-Chain tx: an unsigned tx and one credential per input, plus one for the
// authorization of txs that have one (§3.3). A Tx is immutable and caches its bytes and ID.
type Tx struct {
	signed.Tx[UnsignedTx]
}

// txCodec reads and writes this chain's unsigned txs inside the shared envelope.
var txCodec = signed.Codec[UnsignedTx]{
	WriteUnsigned: unsignedTxs.Write,
	ReadUnsigned:  unsignedTxs.Read,
	NilTx:         codec.UnregisteredTypeError("tx", nil),
}

// NewTx encodes unsigned and creds into a Tx. The caller must not modify either afterwards. It
// fails if a field cannot be encoded (a nil or unregistered interface value).
func NewTx(unsigned UnsignedTx, creds []secp256k1fx.Credential) (*Tx, error) {
	return signed.Wrap[Tx](signed.New(txCodec, unsigned, creds))
}

// UnsignedBytes encodes unsigned as it is signed: codec version, type ID and fields (§2.2). Signers
// sign sha256 of these bytes (§3.2); see also [signed.Tx.UnsignedBytes].
func UnsignedBytes(unsigned UnsignedTx) ([]byte, error) {
	return signed.UnsignedBytes(txCodec, unsigned)
}

// ParseTx decodes signed tx bytes, at most codec.MaxSize long. It copies b.
func ParseTx(b []byte) (*Tx, error) {
	return signed.Wrap[Tx](signed.Parse(txCodec, codec.NewUnpackerCopy(b, codec.MaxSize)))
}

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
