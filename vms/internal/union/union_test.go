package union_test

import (
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/vms/internal/union"
)

// shape is a field type with two registered kinds and one that is not.
type shape interface {
	codec.Marshaler
	area() uint64
}

type square struct{ side uint32 }

func (s *square) Marshal(p *codec.Packer)     { p.Uint32(s.side) }
func (s *square) Unmarshal(u *codec.Unpacker) { s.side = u.Uint32() }
func (s *square) area() uint64                { return uint64(s.side) * uint64(s.side) }

type dot struct{}

func (*dot) Marshal(*codec.Packer)     {}
func (*dot) Unmarshal(*codec.Unpacker) {}
func (*dot) area() uint64              { return 0 }

type circle struct{}

func (*circle) Marshal(*codec.Packer) {}
func (*circle) area() uint64          { return 3 }

// blob can be read and written but is no shape.
type blob struct{}

func (*blob) Marshal(*codec.Packer)     {}
func (*blob) Unmarshal(*codec.Unpacker) {}

var shapes = union.New("shape",
	union.Of[shape, *square](7),
	union.Of[shape, *dot](9),
)

func typeID(id uint32, body ...byte) []byte {
	return append(binary.BigEndian.AppendUint32(nil, id), body...)
}

func TestWrite(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		v       shape
		want    []byte
		wantErr error
	}{
		{"square", &square{side: 5}, typeID(7, 0, 0, 0, 5), nil},
		{"body-less kind", &dot{}, typeID(9), nil},
		{"nil", nil, nil, codec.ErrNilValue},
		{"nil pointer of a kind", (*square)(nil), nil, codec.ErrNilValue},
		{"unregistered type", &circle{}, nil, codec.ErrUnregisteredType},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := codec.NewPacker(nil)
			shapes.Write(p, tt.v)
			b, err := p.Bytes()
			require.ErrorIs(t, err, tt.wantErr)
			if tt.wantErr == nil {
				require.Equal(t, tt.want, b)
			}
		})
	}
}

func TestRead(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		in      []byte
		want    shape
		wantErr error
	}{
		{"square", typeID(7, 0, 0, 1, 0), &square{side: 256}, nil},
		{"body-less kind", typeID(9), &dot{}, nil},
		{"unknown type ID", typeID(8), nil, codec.ErrUnknownTypeID},
		{"truncated type ID", []byte{0, 0, 7}, nil, codec.ErrTruncated},
		{"truncated body", typeID(7, 0, 0), &square{}, codec.ErrTruncated},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			u := codec.NewUnpacker(tt.in, codec.MaxSize)
			got := shapes.Read(u)
			require.ErrorIs(t, u.Done(), tt.wantErr)
			require.Equal(t, tt.want, got)
		})
	}
}

func TestID(t *testing.T) {
	t.Parallel()
	id, ok := shapes.ID(&dot{})
	require.True(t, ok)
	require.Equal(t, uint32(9), id)
	_, ok = shapes.ID(&circle{})
	require.False(t, ok)
}

func TestExpect(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		in      []byte
		wantErr error
	}{
		{"expected", typeID(11), nil},
		{"other", typeID(10), codec.ErrUnknownTypeID},
		{"truncated", []byte{0}, codec.ErrTruncated},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			u := codec.NewUnpacker(tt.in, codec.MaxSize)
			union.Expect(u, "owner", 11)
			require.ErrorIs(t, u.Done(), tt.wantErr)
		})
	}
}

func TestNewPanics(t *testing.T) {
	t.Parallel()
	require.Panics(t, func() { union.New("shape", union.Of[shape, *square](1), union.Of[shape, *dot](1)) })
	require.Panics(t, func() { union.New("shape", union.Of[shape, *square](1), union.Of[shape, *square](2)) })
	require.Panics(t, func() { union.Of[shape, *blob](1) })
}

// FuzzRead checks that reading never panics and that what it reads writes back to its input.
func FuzzRead(f *testing.F) {
	f.Add(typeID(7, 0, 0, 0, 5))
	f.Add(typeID(9))
	f.Add(typeID(8))
	f.Fuzz(func(t *testing.T, in []byte) {
		u := codec.NewUnpacker(in, codec.MaxSize)
		v := shapes.Read(u)
		if u.Done() != nil {
			return
		}
		p := codec.NewPacker(nil)
		shapes.Write(p, v)
		b, err := p.Bytes()
		require.NoError(t, err)
		require.Equal(t, in, b)
	})
}

func TestOne(t *testing.T) {
	t.Parallel()
	p := codec.NewPacker(nil)
	union.WriteOne(p, "square", 7, &square{side: 3})
	b, err := p.Bytes()
	require.NoError(t, err)
	require.Equal(t, append(typeID(7), 0, 0, 0, 3), b)

	u := codec.NewUnpacker(b, codec.MaxSize)
	require.Equal(t, &square{side: 3}, union.ReadOne[square](u, "square", 7))
	require.NoError(t, u.Done())

	p = codec.NewPacker(nil)
	union.WriteOne[square](p, "square", 7, nil)
	_, err = p.Bytes()
	require.ErrorIs(t, err, codec.ErrNilValue)

	u = codec.NewUnpacker(b, codec.MaxSize)
	union.ReadOne[square](u, "square", 8)
	require.ErrorIs(t, u.Err(), codec.ErrUnknownTypeID)
}
