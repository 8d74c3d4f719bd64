package chains

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
)

func TestAliasRecordRoundTrip(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		id   ids.ID
		seq  uint64
	}{
		{"zero", ids.Empty, 0},
		{"C", cID, 1},
		{"max", ids.FromName("x"), 1<<64 - 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b := encodeAliasRecord(tt.id, tt.seq)
			require.Len(t, b, aliasRecordLen)
			id, seq, err := decodeAliasRecord(b)
			require.NoError(t, err)
			require.Equal(t, tt.id, id)
			require.Equal(t, tt.seq, seq)
		})
	}
	for _, n := range []int{0, 1, aliasRecordLen - 1, aliasRecordLen + 1} {
		_, _, err := decodeAliasRecord(make([]byte, n))
		require.ErrorIs(t, err, errBadAliasRecord, n)
	}
}

// FuzzDecodeAliasRecord: decoding never panics, and what decodes
// re-encodes to the same bytes.
func FuzzDecodeAliasRecord(f *testing.F) {
	f.Add(encodeAliasRecord(ids.Empty, 0))
	f.Add(encodeAliasRecord(cID, 42))
	f.Add([]byte{})
	f.Add(make([]byte, aliasRecordLen+1))
	f.Fuzz(func(t *testing.T, b []byte) {
		id, seq, err := decodeAliasRecord(b)
		if err != nil {
			return
		}
		require.True(t, bytes.Equal(b, encodeAliasRecord(id, seq)))
	})
}

func TestPointerRecordRoundTrip(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		id     ids.ID
		height uint64
	}{
		{"genesis", ids.Empty, 0},
		{"block", cID, 42},
		{"max", ids.FromName("x"), 1<<64 - 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b := encodePointer(tt.id, tt.height)
			require.Len(t, b, pointerRecordLen)
			id, height, err := decodePointer(b)
			require.NoError(t, err)
			require.Equal(t, tt.id, id)
			require.Equal(t, tt.height, height)
		})
	}
	for _, n := range []int{0, 1, pointerRecordLen - 1, pointerRecordLen + 1} {
		_, _, err := decodePointer(make([]byte, n))
		require.ErrorIs(t, err, errBadPointerRecord, n)
	}
}

func TestKeysDoNotOverlap(t *testing.T) {
	t.Parallel()
	// Pointer keys have a fixed length after their sub-prefix, and the
	// sub-prefixes differ: no alias key is a pointer key.
	require.Len(t, lastAcceptedKey(cID), 1+ids.IDLen)
	require.NotEqual(t, aliasKeyPrefix, lastAcceptedKeyPrefix)
	require.False(t, bytes.HasPrefix(aliasKey("l"), []byte(lastAcceptedKeyPrefix)))
}

// FuzzDecodePointer: decoding never panics, and what decodes re-encodes
// to the same bytes.
func FuzzDecodePointer(f *testing.F) {
	f.Add(encodePointer(ids.Empty, 0))
	f.Add(encodePointer(cID, 42))
	f.Add([]byte{})
	f.Add(make([]byte, pointerRecordLen-1))
	f.Fuzz(func(t *testing.T, b []byte) {
		id, height, err := decodePointer(b)
		if err != nil {
			return
		}
		require.True(t, bytes.Equal(b, encodePointer(id, height)))
	})
}
