package ids

import (
	"crypto/sha256"
	"encoding"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestFromNameVMIDs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		want string
	}{
		{name: "platformvm", want: "rWhpuQPF1kb72esV2momhMuTYGkEb1oL29pt2EBXWmSy4kxnT"},
		{name: "avm", want: "jvYyfQTxGMJLuGWa55kdP2p2zSUYsQ5Raupu4TW34ZAUBAbtq"},
		{name: "evm", want: "mgj786NP7uDwBCcq6YwThhaN8FLyybkCa4zBWTQbNgmK6k9A6"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			id := FromName(tt.name)
			require.Equal(t, tt.want, id.String())
			parsed, err := FromString(tt.want)
			require.NoError(t, err)
			require.Equal(t, id, parsed)
		})
	}
}

func TestFromNamePanicsOnLongName(t *testing.T) {
	t.Parallel()
	require.Panics(t, func() { FromName("123456789012345678901234567890123") })
	require.NotPanics(t, func() { FromName("12345678901234567890123456789012") })
}

func TestEmptyID(t *testing.T) {
	t.Parallel()
	require.Equal(t, "11111111111111111111111111111111LpoYY", Empty.String())
	require.Equal(t, ID{}, Empty)
}

func TestToID(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		in      []byte
		wantMsg string
	}{
		{name: "32 bytes", in: make([]byte, 32)},
		{name: "20 bytes", in: make([]byte, 20), wantMsg: "invalid hash length: expected 32 bytes but got 20"},
		{name: "33 bytes", in: make([]byte, 33), wantMsg: "invalid hash length: expected 32 bytes but got 33"},
		{name: "nil", in: nil, wantMsg: "invalid hash length: expected 32 bytes but got 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := ToID(tt.in)
			if tt.wantMsg == "" {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, ErrInvalidHashLen)
			require.EqualError(t, err, tt.wantMsg)
		})
	}
}

func TestFromStringErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		in      string
		wantErr error
		wantMsg string
	}{
		{name: "empty", in: "", wantErr: ErrBase58Decoding},
		{name: "short ID", in: "111111111111111111116DBWJs", wantErr: ErrInvalidHashLen, wantMsg: "invalid hash length: expected 32 bytes but got 20"},
		{name: "bad checksum", in: "11111111111111111111111111111111LpoYZ", wantErr: ErrBadChecksum},
		{name: "bad digit", in: "11111111111111111111111111111111LpoY0", wantErr: ErrBase58Decoding},
		{name: "long input", in: CB58Encode(make([]byte, 100)), wantErr: ErrInvalidHashLen, wantMsg: "invalid hash length: expected 32 bytes but got 100"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := FromString(tt.in)
			require.ErrorIs(t, err, tt.wantErr)
			if tt.wantMsg != "" {
				require.EqualError(t, err, tt.wantMsg)
			}
		})
	}
}

// textForm is what ID, ShortID and NodeID share: a JSON string that is their text form.
type textForm[T any] interface {
	*T
	json.Unmarshaler
	encoding.TextMarshaler
	encoding.TextUnmarshaler
}

// requireEncodings checks that id's JSON form is wantJSON, its text form String's, that both
// round-trip, and that JSON null leaves a value alone.
func requireEncodings[T interface {
	comparable
	fmt.Stringer
}, PT textForm[T]](t *testing.T, id T, wantJSON string) {
	t.Helper()
	b, err := json.Marshal(id)
	require.NoError(t, err)
	require.Equal(t, wantJSON, string(b))
	var got T
	require.NoError(t, json.Unmarshal(b, PT(&got)))
	require.Equal(t, id, got)
	require.NoError(t, json.Unmarshal([]byte("null"), PT(&got)))
	require.Equal(t, id, got, "null leaves the value alone")

	text, err := PT(&id).MarshalText()
	require.NoError(t, err)
	require.Equal(t, id.String(), string(text))
	var fromText T
	require.NoError(t, PT(&fromText).UnmarshalText(text))
	require.Equal(t, id, fromText)
}

// badJSON is a JSON value UnmarshalJSON refuses, with the error and (when set) its text.
type badJSON struct {
	name, in string
	wantErr  error
	wantMsg  string
}

func requireJSONRefused[T any, PT textForm[T]](t *testing.T, tests []badJSON) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var id T
			err := PT(&id).UnmarshalJSON([]byte(tt.in))
			require.ErrorIs(t, err, tt.wantErr)
			if tt.wantMsg != "" {
				require.EqualError(t, err, tt.wantMsg)
			}
		})
	}
}

func TestIDEncodings(t *testing.T) {
	t.Parallel()
	requireEncodings(t, FromName("platformvm"), `"rWhpuQPF1kb72esV2momhMuTYGkEb1oL29pt2EBXWmSy4kxnT"`)
	requireJSONRefused[ID](t, []badJSON{
		{name: "number", in: `5`, wantErr: ErrMissingQuotes},
		{name: "empty string", in: `""`, wantErr: ErrBase58Decoding},
		{name: "short id", in: `"111111111111111111116DBWJs"`, wantErr: ErrInvalidHashLen},
	})

	// As a map key, through the text form.
	m := map[ID]int{FromName("evm"): 1, Empty: 2}
	b, err := json.Marshal(m)
	require.NoError(t, err)
	require.Equal(t, `{"11111111111111111111111111111111LpoYY":2,"mgj786NP7uDwBCcq6YwThhaN8FLyybkCa4zBWTQbNgmK6k9A6":1}`, string(b))
	var back map[ID]int
	require.NoError(t, json.Unmarshal(b, &back))
	require.Equal(t, m, back)
}

func TestIDCompare(t *testing.T) {
	t.Parallel()
	a, b, c := ID{1}, ID{1, 1}, ID{2}
	require.Equal(t, -1, a.Compare(b))
	require.Equal(t, 1, c.Compare(b))
	require.Zero(t, b.Compare(b))
	s := []ID{c, Empty, b, a}
	slices.SortFunc(s, ID.Compare)
	require.Equal(t, []ID{Empty, a, b, c}, s)
}

func TestIDPrefix(t *testing.T) {
	t.Parallel()
	id := FromName("avm")
	var packed []byte
	packed = binary.BigEndian.AppendUint64(packed, 7)
	packed = binary.BigEndian.AppendUint64(packed, 1<<40)
	packed = append(packed, id[:]...)
	require.Equal(t, ID(sha256.Sum256(packed)), id.Prefix(7, 1<<40))
	require.Equal(t, ID(sha256.Sum256(id[:])), id.Prefix())
}

// Vectors from shared/testdata/codec-vectors.json: vectors[0].producedUTXOs (UTXO IDs) and
// vectors[6] (validationID of a ConvertSubnetToL1Tx's first validator).
func TestIDPrefixAndAppendVectors(t *testing.T) {
	t.Parallel()
	txID, err := FromString("2YniMnxK9iJGHgzTvEtQWWmrHeP9yE3VYUitCa3ACdtgPc6yB6")
	require.NoError(t, err)
	require.Equal(t, "2WgzZLXyRGgyeWBwA6Y341X3zHRKhtSTNtqhJEigkyH9xcFHhX", txID.Prefix(0).String())
	require.Equal(t, "hykLpuuq7gx6ZHPDJoM2E1igy98zJYynyahANtwx6wyar7vYY", txID.Prefix(1).String())

	subnetID, err := HexNC.Decode("0xdf597183366913549464152b80c7e7ef852ed2489f6cc8856c99f550ffcd532d")
	require.NoError(t, err)
	require.Equal(t, "sC5NVAMKydmqpWDagkEuQJz8GRsvnaSF4ZhgAuL9LeXqcEyG9", ID(subnetID).Append(0).String())

	var packed []byte
	packed = append(packed, subnetID...)
	packed = binary.BigEndian.AppendUint32(packed, 3)
	packed = binary.BigEndian.AppendUint32(packed, 1<<31)
	require.Equal(t, ID(sha256.Sum256(packed)), ID(subnetID).Append(3, 1<<31))
}

func FuzzFromString(f *testing.F) {
	f.Add("11111111111111111111111111111111LpoYY")
	f.Add("rWhpuQPF1kb72esV2momhMuTYGkEb1oL29pt2EBXWmSy4kxnT")
	f.Add("111111111111111111116DBWJs")
	f.Add("")
	f.Fuzz(func(t *testing.T, s string) {
		id, err := FromString(s)
		if err == nil {
			require.Equal(t, s, id.String())
		}
		sid, err := ShortFromString(s)
		if err == nil {
			require.Equal(t, s, sid.String())
		}
		var j ID
		if err := j.UnmarshalJSON([]byte(s)); err == nil && s != nullJSON {
			b, err := j.MarshalJSON()
			require.NoError(t, err)
			require.Equal(t, s, string(b))
		}
	})
}
