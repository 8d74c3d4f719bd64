package chains

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
)

// TestRecordsRoundTrip checks both stored records of an ID and a number: the alias record (ID
// and sequence) and the last-accepted pointer (block ID and height).
func TestRecordsRoundTrip(t *testing.T) {
	t.Parallel()
	records := []struct {
		name   string
		encode func(ids.ID, uint64) []byte
		decode func([]byte) (ids.ID, uint64, error)
		len    int
		errBad error
	}{
		{"alias", encodeAliasRecord, decodeAliasRecord, aliasRecordLen, errBadAliasRecord},
		{"pointer", encodePointer, decodePointer, pointerRecordLen, errBadPointerRecord},
	}
	values := []struct {
		name string
		id   ids.ID
		n    uint64
	}{
		{"zero", ids.Empty, 0},
		{"C", cID, 42},
		{"max", ids.FromName("x"), 1<<64 - 1},
	}
	for _, r := range records {
		t.Run(r.name, func(t *testing.T) {
			t.Parallel()
			for _, v := range values {
				b := r.encode(v.id, v.n)
				require.Len(t, b, r.len, v.name)
				id, n, err := r.decode(b)
				require.NoError(t, err, v.name)
				require.Equal(t, v.id, id, v.name)
				require.Equal(t, v.n, n, v.name)
			}
			for _, n := range []int{0, 1, r.len - 1, r.len + 1} {
				_, _, err := r.decode(make([]byte, n))
				require.ErrorIs(t, err, r.errBad, n)
			}
		})
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
