package exchange

import (
	"crypto/sha256"
	"encoding/binary"

	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// UnsignedTx is the body of an X-Chain tx, one of the kinds of this package (BaseTx,
// CreateAssetTx, OperationTx, ImportTx, ExportTx). The set is closed.
type UnsignedTx interface {
	// Marshal writes the tx's fields, without its type ID.
	Marshal(p *codec.Packer)
	// Unmarshal reads the fields written by Marshal.
	Unmarshal(u *codec.Unpacker)
	// Base returns the BaseTx fields every kind starts with.
	Base() *BaseTx
	// typeID returns the kind's type ID (§1.3).
	typeID() uint32
}

// minSignedTxSize bounds the count of txs in a block: a type ID and a credential count.
const minSignedTxSize = 4 + 4

// Tx is a signed X-Chain tx: an unsigned tx and one credential per input and operation (§6.2). A
// Tx is immutable and caches its bytes and ID.
type Tx struct {
	unsigned UnsignedTx
	creds    []secp256k1fx.Credential
	// bytes are the signed bytes: codec version, unsigned tx type ID and fields, credentials.
	bytes []byte
	// unsignedLen is the length of the unsigned bytes, a prefix of bytes (§2.2).
	unsignedLen int
	id          ids.ID
}

// NewTx encodes unsigned and creds into a Tx. The caller must not modify either afterwards. It
// fails if a field cannot be encoded (a nil or unregistered interface value). The genesis asset is
// a Tx with no credentials, whose ID is the asset ID (§2.3).
func NewTx(unsigned UnsignedTx, creds []secp256k1fx.Credential) (*Tx, error) {
	p := codec.NewPacker(make([]byte, 0, 512))
	p.Version()
	marshalUnsignedTx(p, unsigned)
	n := p.Len()
	marshalCredentials(p, creds)
	b, err := p.Bytes()
	if err != nil {
		return nil, err
	}
	return &Tx{unsigned: unsigned, creds: creds, bytes: b, unsignedLen: n, id: sha256.Sum256(b)}, nil
}

// UnsignedBytes encodes unsigned as it is signed: codec version, type ID and fields (§2.2). Signers
// sign sha256 of these bytes (§3.2); see also [Tx.UnsignedBytes].
func UnsignedBytes(unsigned UnsignedTx) ([]byte, error) {
	p := codec.NewPacker(make([]byte, 0, 512))
	p.Version()
	marshalUnsignedTx(p, unsigned)
	return p.Bytes()
}

// ParseTx decodes signed tx bytes, at most codec.MaxSize long. It copies b.
func ParseTx(b []byte) (*Tx, error) {
	u := newUnpacker(b, codec.MaxSize)
	u.Version()
	tx, _, unsignedEnd := readTx(u)
	if err := u.Done(); err != nil {
		return nil, err
	}
	tx.bytes = u.Input()
	tx.unsignedLen = unsignedEnd
	tx.id = sha256.Sum256(tx.bytes)
	return tx, nil
}

// readTx reads a signed tx without a version prefix, as txs appear inside blocks. It returns the
// tx without bytes or ID, the offset where it starts, and the offset where its unsigned part ends.
func readTx(u *codec.Unpacker) (tx *Tx, start, unsignedEnd int) {
	start = u.Offset()
	unsigned := unmarshalUnsignedTx(u)
	unsignedEnd = u.Offset()
	creds := unmarshalCredentials(u)
	return &Tx{unsigned: unsigned, creds: creds}, start, unsignedEnd
}

// readTxs reads a count and that many txs without version prefixes, then gives each tx its own
// signed bytes (with the version) and ID. All txs share one new buffer.
func readTxs(u *codec.Unpacker) []*Tx {
	n := u.Count(minSignedTxSize)
	if u.Err() != nil {
		return nil
	}
	txs := make([]*Tx, n)
	type span struct{ start, unsignedEnd, end int }
	spans := make([]span, n)
	size := 0
	for i := range txs {
		var s span
		txs[i], s.start, s.unsignedEnd = readTx(u)
		s.end = u.Offset()
		spans[i] = s
		size += 2 + s.end - s.start
	}
	if u.Err() != nil {
		return nil
	}
	in := u.Input()
	arena := make([]byte, 0, size)
	for i, tx := range txs {
		s := spans[i]
		from := len(arena)
		arena = binary.BigEndian.AppendUint16(arena, codec.Version)
		arena = append(arena, in[s.start:s.end]...)
		tx.bytes = arena[from:len(arena):len(arena)]
		tx.unsignedLen = 2 + s.unsignedEnd - s.start
		tx.id = sha256.Sum256(tx.bytes)
	}
	return txs
}

// writeTxs writes a count and each tx's signed bytes without the version prefix.
func writeTxs(p *codec.Packer, txs []*Tx) {
	p.Count(len(txs))
	for _, tx := range txs {
		if tx == nil {
			p.Fail(ErrNilTx)
			return
		}
		p.Fixed(tx.bytes[2:])
	}
}

// ID returns the tx ID: sha256 of the signed bytes (§2.2).
func (tx *Tx) ID() ids.ID { return tx.id }

// Bytes returns the signed bytes. The caller must not modify them.
func (tx *Tx) Bytes() []byte { return tx.bytes }

// Size returns the length of the signed bytes.
func (tx *Tx) Size() int { return len(tx.bytes) }

// UnsignedBytes returns the unsigned bytes, a prefix of Bytes (§2.2). The caller must not modify
// them.
func (tx *Tx) UnsignedBytes() []byte { return tx.bytes[:tx.unsignedLen:tx.unsignedLen] }

// UnsignedHash returns sha256 of the unsigned bytes: the digest every credential signs (§3.2).
func (tx *Tx) UnsignedHash() [sha256.Size]byte { return sha256.Sum256(tx.UnsignedBytes()) }

// Unsigned returns the unsigned tx. The caller must not modify it.
func (tx *Tx) Unsigned() UnsignedTx { return tx.unsigned }

// Creds returns the credentials. The caller must not modify them.
func (tx *Tx) Creds() []secp256k1fx.Credential { return tx.creds }

// UTXOs returns the outputs the tx creates on the X-Chain, with output indices counting up from 0
// (§2.2): first the Outs, then for a CreateAssetTx each initial state's outputs (of the new asset,
// whose ID is the tx ID), and for an OperationTx each operation's outputs (of the operation's
// asset). An ExportTx's exported outputs go to shared memory and are not included.
func (tx *Tx) UTXOs() []UTXO {
	base := tx.unsigned.Base()
	utxos := make([]UTXO, 0, len(base.Outs))
	add := func(assetID ids.ID, out Output) {
		utxos = append(utxos, UTXO{
			UTXOID:  UTXOID{TxID: tx.id, OutputIndex: uint32(len(utxos))},
			AssetID: assetID,
			Out:     out,
		})
	}
	for _, out := range base.Outs {
		add(out.AssetID, out.Out)
	}
	switch unsigned := tx.unsigned.(type) {
	case *CreateAssetTx:
		for _, state := range unsigned.States {
			for _, out := range state.Outs {
				add(tx.id, out)
			}
		}
	case *OperationTx:
		for i := range unsigned.Ops {
			op := &unsigned.Ops[i]
			for _, out := range op.outputs() {
				add(op.AssetID, out)
			}
		}
	}
	return utxos
}
