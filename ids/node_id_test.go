package ids

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestEmptyNodeID(t *testing.T) {
	t.Parallel()
	require.Equal(t, "NodeID-111111111111111111116DBWJs", EmptyNodeID.String())
}

func TestNodeIDFromString(t *testing.T) {
	t.Parallel()
	const valid = "NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg"
	tests := []struct {
		name    string
		in      string
		wantErr error
	}{
		{name: "valid", in: valid},
		{name: "zero", in: "NodeID-111111111111111111116DBWJs"},
		{name: "no prefix", in: "7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg", wantErr: ErrMissingPrefix},
		{name: "lower-case prefix", in: "nodeid-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg", wantErr: ErrMissingPrefix},
		{name: "prefix only", in: "NodeID-", wantErr: ErrBase58Decoding},
		{name: "32 bytes", in: "NodeID-11111111111111111111111111111111LpoYY", wantErr: ErrInvalidHashLen},
		{name: "bad checksum", in: "NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lh", wantErr: ErrBadChecksum},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			id, err := NodeIDFromString(tt.in)
			require.ErrorIs(t, err, tt.wantErr)
			if tt.wantErr == nil {
				require.Equal(t, tt.in, id.String())
			}
		})
	}
}

func TestNodeIDEncodings(t *testing.T) {
	t.Parallel()
	id, err := NodeIDFromString("NodeID-MFrZFVCXPv5iCn6M9K6XduxGTYp891xXZ")
	require.NoError(t, err)
	requireEncodings(t, id, `"NodeID-MFrZFVCXPv5iCn6M9K6XduxGTYp891xXZ"`)
	requireEncodings(t, NodeID{9, 8, 7}, `"`+NodeID{9, 8, 7}.String()+`"`)
	requireJSONRefused[NodeID](t, []badJSON{
		{name: "9 characters", in: `"NodeID-"`, wantErr: ErrShortNodeID, wantMsg: "insufficient NodeID length: expected to be > 9"},
		{name: "empty string", in: `""`, wantErr: ErrShortNodeID},
		{name: "10 characters", in: `"NodeID-1"`, wantErr: ErrMissingChecksum},
		{name: "no quotes", in: `NodeID-111111111111111111116DBWJs`, wantErr: ErrMissingQuotes},
		{name: "no prefix", in: `"111111111111111111116DBWJs"`, wantErr: ErrMissingPrefix},
	})

	// As a map key, through the text form.
	m := map[NodeID]bool{id: true}
	b, err := json.Marshal(m)
	require.NoError(t, err)
	var back map[NodeID]bool
	require.NoError(t, json.Unmarshal(b, &back))
	require.Equal(t, m, back)
}

func TestNodeIDConversions(t *testing.T) {
	t.Parallel()
	id := NodeID{9, 8, 7}
	require.Equal(t, id, NodeIDFromShortID(id.ShortID()))
	require.Equal(t, ShortID{9, 8, 7}, id.ShortID())
	fromBytes, err := ToNodeID(id[:])
	require.NoError(t, err)
	require.Equal(t, id, fromBytes)
	_, err = ToNodeID(id[:5])
	require.ErrorIs(t, err, ErrInvalidHashLen)

	require.Equal(t, 1, id.Compare(EmptyNodeID))
	require.Equal(t, -1, EmptyNodeID.Compare(id))
	require.Zero(t, id.Compare(id))
}

func FuzzNodeIDFromString(f *testing.F) {
	f.Add("NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg")
	f.Add("NodeID-111111111111111111116DBWJs")
	f.Add("NodeID-")
	f.Add("")
	f.Fuzz(func(t *testing.T, s string) {
		id, err := NodeIDFromString(s)
		if err == nil {
			require.Equal(t, s, id.String())
		}
		var j NodeID
		if err := j.UnmarshalJSON([]byte(s)); err == nil && s != nullJSON {
			b, err := j.MarshalJSON()
			require.NoError(t, err)
			require.Equal(t, s, string(b))
		}
	})
}
