package signed

import (
	"crypto/sha256"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// word is a minimal unsigned tx: type ID 7 and one u32.
type word uint32

var errNil = errors.New("nil tx")

// wordTx is a VM's own Tx type, as the list functions and Wrap take and give.
type wordTx struct{ Tx[word] }

var wordCodec = Codec[word]{
	WriteUnsigned: func(p *codec.Packer, w word) { p.TypeID(7); p.Uint32(uint32(w)) },
	ReadUnsigned:  func(u *codec.Unpacker) word { u.TypeID(); return word(u.Uint32()) },
	NilTx:         errNil,
}

func TestRoundTrip(t *testing.T) {
	t.Parallel()
	creds := []secp256k1fx.Credential{{Sigs: []secp256k1fx.Signature{{1, 2, 3}}}}
	tx, err := New(wordCodec, word(42), creds)
	require.NoError(t, err)
	require.Equal(t, sha256.Sum256(tx.Bytes()), [32]byte(tx.ID()))
	unsigned, err := UnsignedBytes(wordCodec, word(42))
	require.NoError(t, err)
	require.Equal(t, unsigned, tx.UnsignedBytes())
	require.Equal(t, sha256.Sum256(unsigned), tx.UnsignedHash())

	parsed, err := Parse(wordCodec, codec.NewUnpacker(tx.Bytes(), codec.MaxSize))
	require.NoError(t, err)
	require.Equal(t, tx.ID(), parsed.ID())
	require.Equal(t, word(42), parsed.Unsigned())
	require.Equal(t, creds, parsed.Creds())

	// Truncated and over-long inputs are errors.
	_, err = Parse(wordCodec, codec.NewUnpacker(tx.Bytes()[:tx.Size()-1], codec.MaxSize))
	require.ErrorIs(t, err, codec.ErrTruncated)
	_, err = Parse(wordCodec, codec.NewUnpacker(append(tx.Bytes()[:tx.Size():tx.Size()], 0), codec.MaxSize))
	require.ErrorIs(t, err, codec.ErrTrailingBytes)
}

// A list written without version prefixes reads back with each tx's own bytes and ID.
func TestListRoundTrip(t *testing.T) {
	t.Parallel()
	a, err := New(wordCodec, word(1), nil)
	require.NoError(t, err)
	b, err := New(wordCodec, word(2), nil)
	require.NoError(t, err)
	p := codec.NewPacker(nil)
	WriteAll(wordCodec, p, []*wordTx{{*a}, {*b}})
	list, err := p.Bytes()
	require.NoError(t, err)

	u := codec.NewUnpacker(list, codec.MaxSize)
	got := ReadAll[wordTx](wordCodec, u)
	require.NoError(t, u.Done())
	require.Len(t, got, 2)
	require.Equal(t, a.Bytes(), got[0].Bytes())
	require.Equal(t, b.ID(), got[1].ID())

	p = codec.NewPacker(nil)
	WriteAll(wordCodec, p, []*wordTx{{*a}, nil})
	_, err = p.Bytes()
	require.ErrorIs(t, err, errNil)
}

// Wrap gives the VM's type around the same tx, and passes an error through with no tx.
func TestWrap(t *testing.T) {
	t.Parallel()
	w, err := Wrap[wordTx](New(wordCodec, word(5), nil))
	require.NoError(t, err)
	require.Equal(t, word(5), w.Unsigned())

	w, err = Wrap[wordTx](Parse(wordCodec, codec.NewUnpacker(nil, codec.MaxSize)))
	require.ErrorIs(t, err, codec.ErrTruncated)
	require.Nil(t, w)
}
