package index

import (
	"bytes"
	"encoding/hex"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
)

// sampleTime is when the reference's Appendix A container was accepted (node-api.md).
var sampleTime = time.Date(2026, time.November, 25, 21, 58, 10, 398452655, time.UTC).UnixNano()

func TestContainerRoundTrip(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		id   ids.ID
		b    []byte
		ts   int64
	}{
		{name: "reference sample", id: ids.ID{3}, b: []byte{2, 1, 2, 3}, ts: sampleTime},
		{name: "empty bytes", id: ids.ID{0xff}, b: []byte{}, ts: 0},
		{name: "nil bytes", id: ids.ID{0xff}, ts: 1},
		{name: "negative time", id: ids.Empty, b: []byte{0}, ts: -1},
		{name: "1 KiB", id: ids.ID{9}, b: bytes.Repeat([]byte{0xab}, 1024), ts: 1 << 62},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			enc, err := appendContainer(nil, tt.id, tt.b, tt.ts)
			require.NoError(t, err)
			require.Len(t, enc, containerOverhead+len(tt.b))
			c, err := decodeContainer(enc)
			require.NoError(t, err)
			require.Equal(t, tt.id, c.ID)
			require.Equal(t, tt.ts, c.Timestamp)
			require.Equal(t, hex.EncodeToString(tt.b), hex.EncodeToString(c.bytes()))
			require.Equal(t, enc, appendStored(nil, c))

			// The stored checksum is the hex encoding's (node-api.md §6).
			want, err := ids.Hex.Encode(tt.b)
			require.NoError(t, err)
			require.Equal(t, want, "0x"+hex.EncodeToString(c.data))
		})
	}
}

// TestContainerLayout pins the stored form: the reference's linear codec layout (node-api.md §5.3)
// with the checksum after the bytes.
func TestContainerLayout(t *testing.T) {
	t.Parallel()
	b, err := appendContainer(nil, ids.ID{3}, []byte{2, 1, 2, 3}, sampleTime)
	require.NoError(t, err)
	want := "0000" + // codec version
		"03" + "00000000000000000000000000000000000000000000000000000000000000" + // ID
		"00000004" + "02010203" + // length and bytes
		"76ee38c2" + // checksum, as in the reference's hex sample (node-api.md Appendix A)
		"18eb689ac64cdbaf" // unix nanoseconds
	require.Equal(t, want, hex.EncodeToString(b))
}

func TestDecodeContainerErrors(t *testing.T) {
	t.Parallel()
	good, err := appendContainer(nil, ids.ID{3}, []byte{2, 1, 2, 3}, sampleTime)
	require.NoError(t, err)
	badVersion := bytes.Clone(good)
	badVersion[1] = 1
	tooLong := bytes.Clone(good)
	tooLong[2+ids.IDLen] = 0xff
	tests := []struct {
		name string
		in   []byte
	}{
		{name: "nil", in: nil},
		{name: "short", in: good[:containerOverhead-1]},
		{name: "version", in: badVersion},
		{name: "truncated", in: good[:len(good)-1]},
		{name: "trailing", in: append(bytes.Clone(good), 0)},
		{name: "length past the end", in: tooLong},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := decodeContainer(tt.in)
			require.ErrorIs(t, err, errCorrupt)
		})
	}
}

// FuzzDecodeContainer checks that decoding never panics and that whatever decodes encodes back to
// the same bytes (STYLE.md rule 13).
func FuzzDecodeContainer(f *testing.F) {
	seeds := []struct {
		id ids.ID
		b  []byte
		ts int64
	}{
		{ids.ID{3}, []byte{2, 1, 2, 3}, sampleTime},
		{ids.Empty, nil, 0},
		{ids.ID{1, 2}, bytes.Repeat([]byte{7}, 300), -5},
	}
	for _, s := range seeds {
		b, err := appendContainer(nil, s.id, s.b, s.ts)
		require.NoError(f, err)
		f.Add(b)
	}
	f.Add([]byte{})
	f.Add([]byte{0, 1})
	f.Fuzz(func(t *testing.T, in []byte) {
		c, err := decodeContainer(in)
		if err != nil {
			require.ErrorIs(t, err, errCorrupt)
			return
		}
		require.Equal(t, in, appendStored(nil, c))
	})
}
