package uptime

import (
	"bytes"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
)

func TestRecordRoundTrip(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		r    record
	}{
		{name: "zero", r: record{lastUpdated: time.Unix(0, 0)}},
		{name: "active with fraction", r: record{
			nodeID:      ids.NodeID{1, 2, 3},
			startTime:   1_700_000_000,
			active:      true,
			up:          90*time.Second + 5,
			lastUpdated: time.Unix(1_700_000_090, 123_456_789),
		}},
		{name: "before the epoch", r: record{startTime: 1<<64 - 1, lastUpdated: time.Unix(-5, 1)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b := tt.r.encode()
			require.Len(t, b, recordLen)
			got, err := decodeRecord(b)
			require.NoError(t, err)
			require.Equal(t, tt.r.nodeID, got.nodeID)
			require.Equal(t, tt.r.startTime, got.startTime)
			require.Equal(t, tt.r.active, got.active)
			require.Equal(t, tt.r.up, got.up)
			require.True(t, tt.r.lastUpdated.Equal(got.lastUpdated))
			require.Equal(t, b, got.encode())
		})
	}
}

func TestDecodeRecordErrors(t *testing.T) {
	t.Parallel()
	valid := (&record{active: true, lastUpdated: time.Unix(1, 0)}).encode()
	mutate := func(i int, v byte) []byte {
		b := bytes.Clone(valid)
		b[i] = v
		return b
	}
	tests := []struct {
		name string
		b    []byte
	}{
		{name: "empty", b: nil},
		{name: "long", b: append(bytes.Clone(valid), 0)},
		{name: "version", b: mutate(0, 1)},
		{name: "active flag", b: mutate(1+ids.NodeIDLen+8, 2)},
		{name: "negative up", b: mutate(1+ids.NodeIDLen+9, 0x80)},
		{name: "nanoseconds", b: mutate(recordLen-4, 0xff)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := decodeRecord(tt.b)
			require.ErrorIs(t, err, ErrCorrupt)
		})
	}
}

// FuzzDecodeRecord checks that decoding never panics and that a decoded record encodes back to the
// same bytes.
func FuzzDecodeRecord(f *testing.F) {
	f.Add((&record{lastUpdated: time.Unix(0, 0)}).encode())
	f.Add((&record{nodeID: ids.NodeID{9}, startTime: 7, active: true, up: time.Hour, lastUpdated: time.Unix(1_700_000_000, 5)}).encode())
	f.Add([]byte{0})
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := decodeRecord(b)
		if err != nil {
			return
		}
		require.Equal(t, b, r.encode())
	})
}
