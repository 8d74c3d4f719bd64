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
