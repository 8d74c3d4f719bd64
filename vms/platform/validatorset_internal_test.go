package platform

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/platform/txs"
)

// TestDiffRecordRoundTrip encodes and decodes each kind of validator diff.
func TestDiffRecordRoundTrip(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		r    diffRecord
	}{
		{"active L1", diffRecord{kind: diffL1, nodeID: ids.NodeID{1}, weight: 10, active: true, publicKey: [txs.BLSPublicKeyLen]byte{0x80, 2}}},
		{"inactive L1", diffRecord{kind: diffL1, nodeID: ids.NodeID{2}, weight: 1 << 63}},
		{"legacy", diffRecord{kind: diffLegacy, nodeID: ids.NodeID{3}, weight: 5, start: 100, end: 200}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := parseDiffRecord(tt.r.bytes())
			require.NoError(t, err)
			require.Equal(t, tt.r, got)
		})
	}
	for _, bad := range [][]byte{nil, {0}, {diffL1}, {diffLegacy, 1}, append([]byte{3}, make([]byte, diffL1Len-1)...)} {
		_, err := parseDiffRecord(bad)
		require.Error(t, err, "%x", bad)
	}
	b := (&diffRecord{kind: diffL1}).bytes()
	b[1+ids.NodeIDLen+8] = 2
	_, err := parseDiffRecord(b)
	require.Error(t, err)
}

// FuzzDiffRecord checks that decoding a stored validator diff never panics and that what decodes
// encodes back to the same bytes.
func FuzzDiffRecord(f *testing.F) {
	f.Add((&diffRecord{kind: diffL1, nodeID: ids.NodeID{1}, weight: 10, active: true}).bytes())
	f.Add((&diffRecord{kind: diffLegacy, nodeID: ids.NodeID{3}, weight: 5, start: 100, end: 200}).bytes())
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := parseDiffRecord(b)
		if err != nil {
			return
		}
		if !bytes.Equal(b, r.bytes()) {
			t.Fatalf("%x decodes to %+v, which encodes to %x", b, r, r.bytes())
		}
	})
}
