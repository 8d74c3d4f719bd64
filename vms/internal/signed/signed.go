// Package signed is the signed-transaction envelope the X- and P-Chains share
// (reference/platform-exchange.md §2.2, §3.2): codec version, the unsigned tx (type ID and
// fields), then the secp256k1fx credentials, each as its type ID and body. The tx ID is sha256 of
// the signed bytes; credentials sign sha256 of the unsigned bytes, a prefix of them.
//
// Each VM instantiates Tx with its own closed set of unsigned kinds and gives a Codec for them. A
// Tx is immutable and safe for concurrent reads.
//
// Recovering a signer is the costliest step of verifying a tx (pure-Go secp256k1 public-key
// recovery), and a tx is verified more than once on its way from the mempool to a block: when it
// is issued and again when a block is built with it. [Tx.Signer] therefore remembers, on
// the Tx value itself, the address each of its signatures recovers to over its own unsigned
// bytes. The memo lives and dies with that one Tx: a tx decoded again from bytes (a block parsed
// from the network or the database, the same tx issued twice) starts empty and is verified in
// full.
package signed

import (
	"crypto/sha256"
	"encoding/binary"

	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/internal/union"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// minSignedTxSize bounds the count of txs in a list: a type ID and a credential count.
const minSignedTxSize = 4 + 4

// credentialTypeID is the type ID of secp256k1fx.Credential on both chains (§1.3).
const credentialTypeID = 9

// Codec reads and writes a VM's unsigned txs.
type Codec[U any] struct {
	// WriteUnsigned writes u's type ID and fields; it fails the Packer for a nil or unregistered u.
	WriteUnsigned func(p *codec.Packer, u U)
	// ReadUnsigned reads what WriteUnsigned writes.
	ReadUnsigned func(u *codec.Unpacker) U
	// NilTx is the error WriteAll reports for a nil tx in a list.
	NilTx error
}

// CodecOf returns the Codec that writes and reads a VM's unsigned txs as kinds, the union of its
// tx kinds by type ID, and reports nilTx for a nil tx in a list.
func CodecOf[U codec.Marshaler](kinds *union.Union[U], nilTx error) Codec[U] {
	return Codec[U]{WriteUnsigned: kinds.Write, ReadUnsigned: kinds.Read, NilTx: nilTx}
}

// Unsigned is what every unsigned tx kind of a VM has: its fields' encoding (without its type
// ID), the BaseTx fields it starts with (a B), and a Visit that calls the method of a V (the VM's
// visitor) for its kind. A VM's UnsignedTx interface embeds it and closes the set of kinds.
type Unsigned[B, V any] interface {
	// Marshal writes the tx's fields, without its type ID.
	Marshal(p *codec.Packer)
	// Unmarshal reads the fields written by Marshal.
	Unmarshal(u *codec.Unpacker)
	// Base returns the BaseTx fields every kind starts with.
	Base() B
	// Visit calls the method of v for the tx's kind.
	Visit(v V) error
}

// Tx is a signed tx whose unsigned part is a U.
type Tx[U any] struct {
	unsigned U
	creds    []secp256k1fx.Credential
	// bytes are the signed bytes: codec version, unsigned tx type ID and fields, credentials.
	bytes []byte
	// unsignedLen is the length of the unsigned bytes, a prefix of bytes (§2.2).
	unsignedLen int
	id          ids.ID
	// signers memoizes Signer. It is a pointer so that the VMs' Tx types, which embed a
	// Tx by value, can copy one before first use; every constructor sets it.
	signers *signerMemo
}

// New encodes unsigned and creds into a Tx. The caller must not modify either afterwards. It fails
// if a field cannot be encoded (a nil or unregistered interface value).
func New[U any](c Codec[U], unsigned U, creds []secp256k1fx.Credential) (*Tx[U], error) {
	p := codec.NewPacker(make([]byte, 0, 512))
	p.Version()
	c.WriteUnsigned(p, unsigned)
	n := p.Len()
	writeCredentials(p, creds)
	b, err := p.Bytes()
	if err != nil {
		return nil, err
	}
	return &Tx[U]{unsigned: unsigned, creds: creds, bytes: b, unsignedLen: n, id: sha256.Sum256(b), signers: &signerMemo{}}, nil
}

// NewAs is New returning a VM's own Tx type W, as the VMs' NewTx do.
func NewAs[W Wrapped[U], U any](c Codec[U], unsigned U, creds []secp256k1fx.Credential) (*W, error) {
	return Wrap[W](New(c, unsigned, creds))
}

// ParseAs decodes signed tx bytes, at most codec.MaxSize long, as a VM's own Tx type W, as the
// VMs' ParseTx do. It copies b.
func ParseAs[W Wrapped[U], U any](c Codec[U], b []byte) (*W, error) {
	return Wrap[W](Parse(c, codec.NewUnpackerCopy(b, codec.MaxSize)))
}

// UnsignedBytes encodes unsigned as it is signed: codec version, type ID and fields (§2.2).
func UnsignedBytes[U any](c Codec[U], unsigned U) ([]byte, error) {
	p := codec.NewPacker(make([]byte, 0, 512))
	p.Version()
	c.WriteUnsigned(p, unsigned)
	return p.Bytes()
}

// Parse decodes signed tx bytes from u, which must hold exactly one tx with its version prefix.
// The Tx keeps u's input.
func Parse[U any](c Codec[U], u *codec.Unpacker) (*Tx[U], error) {
	u.Version()
	tx, _, unsignedEnd := read(c, u)
	if err := u.Done(); err != nil {
		return nil, err
	}
	tx.bytes = u.Input()
	tx.unsignedLen = unsignedEnd
	tx.id = sha256.Sum256(tx.bytes)
	return tx, nil
}

// read reads a signed tx without a version prefix, as txs appear inside blocks and genesis. It
// returns the tx without bytes or ID, the offset where it starts, and the offset where its
// unsigned part ends.
func read[U any](c Codec[U], u *codec.Unpacker) (tx *Tx[U], start, unsignedEnd int) {
	start = u.Offset()
	unsigned := c.ReadUnsigned(u)
	unsignedEnd = u.Offset()
	creds := readCredentials(u)
	return &Tx[U]{unsigned: unsigned, creds: creds, signers: &signerMemo{}}, start, unsignedEnd
}

// Wrapped is a VM's own Tx type: a struct that only embeds a Tx[U], so that the VM can give it
// methods of its own. New, Parse and the list functions hand out and take a VM's W.
type Wrapped[U any] interface {
	~struct{ Tx[U] }
}

// Wrap returns tx as a VM's own Tx type W, passing err through, as in Wrap[W](New(...)).
func Wrap[W Wrapped[U], U any](tx *Tx[U], err error) (*W, error) {
	if err != nil {
		return nil, err
	}
	w := W(struct{ Tx[U] }{*tx})
	return &w, nil
}

// ReadAll reads a count and that many txs without version prefixes, as lists of txs appear in
// blocks and the genesis, then gives each tx its own signed bytes (with the version) and ID. All
// txs share one new buffer.
func ReadAll[W Wrapped[U], U any](c Codec[U], u *codec.Unpacker) []*W {
	n := u.Count(minSignedTxSize)
	if u.Err() != nil {
		return nil
	}
	txs := make([]*Tx[U], n)
	type span struct{ start, unsignedEnd, end int }
	spans := make([]span, n)
	size := 0
	for i := range txs {
		var s span
		txs[i], s.start, s.unsignedEnd = read(c, u)
		s.end = u.Offset()
		spans[i] = s
		size += 2 + s.end - s.start
	}
	if u.Err() != nil {
		return nil
	}
	in := u.Input()
	arena := make([]byte, 0, size)
	all := make([]*W, n)
	for i, tx := range txs {
		s := spans[i]
		from := len(arena)
		arena = binary.BigEndian.AppendUint16(arena, codec.Version)
		arena = append(arena, in[s.start:s.end]...)
		tx.bytes = arena[from:len(arena):len(arena)]
		tx.unsignedLen = 2 + s.unsignedEnd - s.start
		tx.id = sha256.Sum256(tx.bytes)
		all[i], _ = Wrap[W](tx, nil)
	}
	return all
}

// WriteAll writes a count and each tx's signed bytes without the version prefix; a nil tx fails
// the Packer with c.NilTx.
func WriteAll[W Wrapped[U], U any](c Codec[U], p *codec.Packer, txs []*W) {
	p.Count(len(txs))
	for _, w := range txs {
		if w == nil {
			p.Fail(c.NilTx)
			return
		}
		p.Fixed(struct{ Tx[U] }(*w).bytes[2:])
	}
}

// WriteOne writes one tx's signed bytes without the version prefix and without a count, as a
// P-Chain proposal block holds its proposal tx; a nil tx fails the Packer with c.NilTx.
func WriteOne[W Wrapped[U], U any](c Codec[U], p *codec.Packer, w *W) {
	if w == nil {
		p.Fail(c.NilTx)
		return
	}
	p.Fixed(struct{ Tx[U] }(*w).bytes[2:])
}

// ReadOne reads one tx written by WriteOne and gives it its own signed bytes (with the version)
// and ID.
func ReadOne[W Wrapped[U], U any](c Codec[U], u *codec.Unpacker) *W {
	tx, start, unsignedEnd := read(c, u)
	if u.Err() != nil {
		return nil
	}
	end := u.Offset()
	b := make([]byte, 0, 2+end-start)
	b = binary.BigEndian.AppendUint16(b, codec.Version)
	tx.bytes = append(b, u.Input()[start:end]...)
	tx.unsignedLen = 2 + unsignedEnd - start
	tx.id = sha256.Sum256(tx.bytes)
	w, _ := Wrap[W](tx, nil)
	return w
}

// writeCredentials writes credentials, each as its type ID and body.
func writeCredentials(p *codec.Packer, creds []secp256k1fx.Credential) {
	p.Count(len(creds))
	for i := range creds {
		p.TypeID(credentialTypeID)
		creds[i].Marshal(p)
	}
}

// readCredentials reads what writeCredentials writes.
func readCredentials(u *codec.Unpacker) []secp256k1fx.Credential {
	n := u.Count(4 + 4)
	if u.Err() != nil {
		return nil
	}
	creds := make([]secp256k1fx.Credential, n)
	for i := range creds {
		if id := u.TypeID(); u.Err() == nil && id != credentialTypeID {
			u.Fail(codec.UnknownTypeIDError("credential", id))
		}
		creds[i].Unmarshal(u)
	}
	return creds
}

// ID returns the tx ID: sha256 of the signed bytes (§2.2).
func (tx *Tx[U]) ID() ids.ID { return tx.id }

// Bytes returns the signed bytes. The caller must not modify them.
func (tx *Tx[U]) Bytes() []byte { return tx.bytes }

// Size returns the length of the signed bytes.
func (tx *Tx[U]) Size() int { return len(tx.bytes) }

// UnsignedBytes returns the unsigned bytes, a prefix of Bytes (§2.2). The caller must not modify
// them.
func (tx *Tx[U]) UnsignedBytes() []byte { return tx.bytes[:tx.unsignedLen:tx.unsignedLen] }

// UnsignedHash returns sha256 of the unsigned bytes: the digest every credential signs (§3.2).
func (tx *Tx[U]) UnsignedHash() [sha256.Size]byte { return sha256.Sum256(tx.UnsignedBytes()) }

// Unsigned returns the unsigned tx. The caller must not modify it.
func (tx *Tx[U]) Unsigned() U { return tx.unsigned }

// Creds returns the credentials. The caller must not modify them.
func (tx *Tx[U]) Creds() []secp256k1fx.Credential { return tx.creds }
