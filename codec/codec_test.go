package codec

import (
	"bytes"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
)

// record is a value with one field of every kind the codec writes.
type record struct {
	u8    uint8
	u16   uint16
	u32   uint32
	u64   uint64
	flag  bool
	id    ids.ID
	short ids.ShortID
	node  ids.NodeID
	raw   []byte
	str   string
	idx   []uint32
	ids   []ids.ID
	addrs []ids.ShortID
}

func (r *record) marshal(p *Packer) {
	p.Version()
	p.Uint8(r.u8)
	p.Uint16(r.u16)
	p.Uint32(r.u32)
	p.Uint64(r.u64)
	p.Bool(r.flag)
	p.ID(r.id)
	p.ShortID(r.short)
	p.NodeID(r.node)
	p.VarBytes(r.raw)
	p.Str(r.str)
	p.Uint32s(r.idx)
	p.IDs(r.ids)
	p.ShortIDs(r.addrs)
}

func (r *record) unmarshal(u *Unpacker) {
	u.Version()
	r.u8 = u.Uint8()
	r.u16 = u.Uint16()
	r.u32 = u.Uint32()
	r.u64 = u.Uint64()
	r.flag = u.Bool()
	r.id = u.ID()
	r.short = u.ShortID()
	r.node = u.NodeID()
	r.raw = u.VarBytes()
	r.str = u.Str()
	r.idx = u.Uint32s()
	r.ids = u.IDs()
	r.addrs = u.ShortIDs()
}

func sampleRecord() *record {
	return &record{
		u8: 0xab, u16: 0x0102, u32: 0x03040506, u64: 0x0708090a0b0c0d0e, flag: true,
		id: ids.ID{1, 2}, short: ids.ShortID{3}, node: ids.NodeID{4},
		raw: []byte("raw"), str: "hello", idx: []uint32{0, 7},
		ids: []ids.ID{{9}}, addrs: []ids.ShortID{{5}, {6}},
	}
}

// sampleBytes is sampleRecord's encoding, written out by hand from the rules of §1.1.
func sampleBytes() []byte {
	var b []byte
	b = append(b, 0, 0)                                         // version
	b = append(b, 0xab)                                         // u8
	b = append(b, 1, 2)                                         // u16
	b = append(b, 3, 4, 5, 6)                                   // u32
	b = append(b, 7, 8, 9, 10, 11, 12, 13, 14)                  // u64
	b = append(b, 1)                                            // bool
	b = append(b, append([]byte{1, 2}, make([]byte, 30)...)...) // ID
	b = append(b, append([]byte{3}, make([]byte, 19)...)...)    // ShortID
	b = append(b, append([]byte{4}, make([]byte, 19)...)...)    // NodeID
	b = append(b, 0, 0, 0, 3, 'r', 'a', 'w')                    // bytes
	b = append(b, 0, 5, 'h', 'e', 'l', 'l', 'o')                // string
	b = append(b, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 7)           // []uint32
	b = append(b, 0, 0, 0, 1)                                   // []ID
	b = append(b, append([]byte{9}, make([]byte, 31)...)...)
	b = append(b, 0, 0, 0, 2) // []ShortID
	b = append(b, append([]byte{5}, make([]byte, 19)...)...)
	b = append(b, append([]byte{6}, make([]byte, 19)...)...)
	return b
}

func TestRoundTrip(t *testing.T) {
	t.Parallel()
	p := NewPacker(nil)
	sampleRecord().marshal(p)
	got, err := p.Bytes()
	require.NoError(t, err)
	require.Equal(t, sampleBytes(), got)
	require.Equal(t, len(got), p.Len())

	var r record
	u := NewUnpacker(got, MaxSize)
	r.unmarshal(u)
	require.NoError(t, u.Done())
	require.Equal(t, sampleRecord(), &r)
}

func TestEmptySlicesDecodeNonNil(t *testing.T) {
	t.Parallel()
	p := NewPacker(nil)
	(&record{}).marshal(p)
	b, err := p.Bytes()
	require.NoError(t, err)

	var r record
	u := NewUnpacker(b, MaxSize)
	r.unmarshal(u)
	require.NoError(t, u.Done())
	// A nil slice encodes like an empty one and decodes as empty, not nil (§1.1).
	require.NotNil(t, r.raw)
	require.NotNil(t, r.idx)
	require.NotNil(t, r.ids)
	require.NotNil(t, r.addrs)
	require.Empty(t, r.raw)
}

func TestEveryPrefixIsTruncated(t *testing.T) {
	t.Parallel()
	full := sampleBytes()
	for n := range len(full) {
		var r record
		u := NewUnpacker(full[:n], MaxSize)
		r.unmarshal(u)
		require.ErrorIs(t, u.Done(), ErrTruncated, "prefix of %d bytes", n)
	}
}

func TestUnpackerErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		in      []byte
		max     int
		read    func(u *Unpacker)
		wantErr error
	}{
		{"trailing", []byte{0, 0, 1}, MaxSize, func(u *Unpacker) { u.Version() }, ErrTrailingBytes},
		{"version", []byte{0, 1}, MaxSize, func(u *Unpacker) { u.Version() }, ErrUnknownVersion},
		{"oversize input", make([]byte, 11), 10, func(u *Unpacker) {}, ErrOversize},
		{"bool 2", []byte{2}, MaxSize, func(u *Unpacker) { u.Bool() }, ErrInvalidBool},
		{"count above MaxInt32", []byte{0x80, 0, 0, 0}, MaxSize, func(u *Unpacker) { u.Count(1) }, ErrOversize},
		{"count beyond input", []byte{0, 0, 0, 2, 1}, MaxSize, func(u *Unpacker) { u.Count(1) }, ErrTruncated},
		{"bytes beyond input", []byte{0, 0, 0, 9, 1, 2}, MaxSize, func(u *Unpacker) { u.VarBytes() }, ErrTruncated},
		{"huge id count", []byte{0x7f, 0xff, 0xff, 0xff}, MaxSize, func(u *Unpacker) { u.IDs() }, ErrTruncated},
		{"string beyond input", []byte{0, 9, 'a'}, MaxSize, func(u *Unpacker) { u.Str() }, ErrTruncated},
		{"empty", nil, MaxSize, func(u *Unpacker) { u.Uint8() }, ErrTruncated},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			u := NewUnpacker(tt.in, tt.max)
			tt.read(u)
			require.ErrorIs(t, u.Done(), tt.wantErr)
		})
	}
}

func TestUnpackerKeepsFirstError(t *testing.T) {
	t.Parallel()
	u := NewUnpacker([]byte{0, 7, 1, 2, 3, 4}, MaxSize)
	u.Version()
	require.ErrorIs(t, u.Err(), ErrUnknownVersion)
	// Later reads return zero values and leave the error alone.
	require.Zero(t, u.Uint32())
	u.Fail(ErrUnknownTypeID)
	require.ErrorIs(t, u.Done(), ErrUnknownVersion)
}

// NewUnpacker reads its input in place, NewUnpackerCopy a copy: changing the input afterwards
// shows in what the first read and not in what the second did.
func TestUnpackerAliasing(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		open func([]byte, int) *Unpacker
		want string
	}{
		{"NewUnpacker", NewUnpacker, "zb"},
		{"NewUnpackerCopy", NewUnpackerCopy, "ab"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			in := []byte{0, 0, 0, 2, 'a', 'b'}
			u := tt.open(in, MaxSize)
			got := u.VarBytes()
			require.NoError(t, u.Done())
			in[4] = 'z'
			require.Equal(t, []byte(tt.want), got)
			// The capacity is clipped, so appending to the result never overwrites the input.
			require.Equal(t, len(got), cap(got))
		})
	}
	// An oversize input fails as with NewUnpacker.
	require.ErrorIs(t, NewUnpackerCopy(make([]byte, 11), 10).Done(), ErrOversize)
}

func TestPackerErrors(t *testing.T) {
	t.Parallel()
	p := NewPacker(nil)
	p.Str(string(make([]byte, MaxStringLen+1)))
	p.Uint32(1)
	_, err := p.Bytes()
	require.ErrorIs(t, err, ErrOversize)
	require.Zero(t, p.Len())

	p = NewPacker(nil)
	p.Count(math.MaxInt32 + 1)
	require.ErrorIs(t, p.Err(), ErrOversize)

	p = NewPacker(nil)
	p.Fail(UnregisteredTypeError("input", nil))
	p.Fail(ErrOversize)
	require.ErrorIs(t, p.Err(), ErrNilValue)

	p = NewPacker(nil)
	p.Fail(UnregisteredTypeError("input", 3))
	require.ErrorIs(t, p.Err(), ErrUnregisteredType)
	require.ErrorIs(t, UnknownTypeIDError("input", 99), ErrUnknownTypeID)
}

func TestPackerAppendsToBuffer(t *testing.T) {
	t.Parallel()
	buf := make([]byte, 0, 64)
	p := NewPacker(append(buf, 'x'))
	p.Uint16(0x0102)
	p.Bool(false)
	got, err := p.Bytes()
	require.NoError(t, err)
	require.Equal(t, []byte{'x', 1, 2, 0}, got)
	require.Same(t, &buf[:1][0], &got[0])
}

func TestMaxStringLength(t *testing.T) {
	t.Parallel()
	s := string(bytes.Repeat([]byte{'a'}, MaxStringLen))
	p := NewPacker(nil)
	p.Str(s)
	b, err := p.Bytes()
	require.NoError(t, err)
	u := NewUnpacker(b, MaxSize)
	require.Equal(t, s, u.Str())
	require.NoError(t, u.Done())
}

// FuzzUnpacker reads a record from arbitrary bytes: it must never panic, and a successful read must
// encode back to the same bytes.
func FuzzUnpacker(f *testing.F) {
	f.Add(sampleBytes())
	f.Add([]byte{})
	f.Add([]byte{0, 0, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, b []byte) {
		var r record
		u := NewUnpacker(b, MaxSize)
		r.unmarshal(u)
		if u.Done() != nil {
			return
		}
		p := NewPacker(nil)
		r.marshal(p)
		got, err := p.Bytes()
		require.NoError(t, err)
		require.Equal(t, b, got)
	})
}

func BenchmarkRoundTrip(b *testing.B) {
	r := sampleRecord()
	buf := make([]byte, 0, 512)
	b.ReportAllocs()
	for b.Loop() {
		p := NewPacker(buf[:0])
		r.marshal(p)
		out, _ := p.Bytes()
		var got record
		u := NewUnpacker(out, MaxSize)
		got.unmarshal(u)
		if err := u.Done(); err != nil {
			b.Fatal(err)
		}
	}
}
