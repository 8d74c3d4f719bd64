package jsonrpc_test

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/jsonrpc"
)

func TestUintJSON(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		in      string
		want64  uint64
		wantErr bool
	}{
		{name: "quoted", in: `"12345"`, want64: 12345},
		{name: "bare", in: `12345`, want64: 12345},
		{name: "leading zeros", in: `"01"`, want64: 1},
		{name: "zero", in: `0`, want64: 0},
		{name: "max", in: `"18446744073709551615"`, want64: math.MaxUint64},
		{name: "null leaves the value", in: `null`, want64: 7},
		{name: "over max", in: `"18446744073709551616"`, wantErr: true},
		{name: "minus", in: `-1`, wantErr: true},
		{name: "plus", in: `"+1"`, wantErr: true},
		{name: "space", in: `" 1"`, wantErr: true},
		{name: "fraction", in: `1.0`, wantErr: true},
		{name: "exponent", in: `1e0`, wantErr: true},
		{name: "empty", in: `""`, wantErr: true},
		{name: "quoted null", in: `"null"`, wantErr: true},
		{name: "underscore", in: `"1_000"`, wantErr: true},
		{name: "escape", in: `"\u0031"`, wantErr: true},
		{name: "bool", in: `true`, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			u := jsonrpc.Uint64(7)
			err := json.Unmarshal([]byte(tt.in), &u)
			if tt.wantErr {
				require.Error(t, err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, jsonrpc.Uint64(tt.want64), u)
		})
	}
}

func TestUintRange(t *testing.T) {
	t.Parallel()
	var u32 jsonrpc.Uint32
	require.NoError(t, json.Unmarshal([]byte(`"4294967295"`), &u32))
	require.Equal(t, jsonrpc.Uint32(math.MaxUint32), u32)
	require.Error(t, json.Unmarshal([]byte(`"4294967296"`), &u32))
	var u8 jsonrpc.Uint8
	require.NoError(t, json.Unmarshal([]byte(`255`), &u8))
	require.Equal(t, jsonrpc.Uint8(255), u8)
	require.Error(t, json.Unmarshal([]byte(`256`), &u8))
	require.NoError(t, json.Unmarshal([]byte(`null`), &u8))
	require.Equal(t, jsonrpc.Uint8(255), u8)
}

func TestUintRoundTrip(t *testing.T) {
	t.Parallel()
	for _, v := range []uint64{0, 1, 9, 10, 45, 1 << 32, math.MaxUint64} {
		requireUintRoundTrip(t, jsonrpc.Uint64(v), v)
	}
	for _, v := range []uint32{0, 45, math.MaxUint32} {
		requireUintRoundTrip(t, jsonrpc.Uint32(v), uint64(v))
	}
	for _, v := range []uint8{0, 1, math.MaxUint8} {
		requireUintRoundTrip(t, jsonrpc.Uint8(v), uint64(v))
	}
}

// requireUintRoundTrip checks that v is sent as the decimal string of n and reads back.
func requireUintRoundTrip[U jsonrpc.Uint64 | jsonrpc.Uint32 | jsonrpc.Uint8](t *testing.T, v U, n uint64) {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	require.Equal(t, `"`+jsonString(n)+`"`, string(b))
	var got U
	require.NoError(t, json.Unmarshal(b, &got))
	require.Equal(t, v, got)
}

func jsonString(v uint64) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestFloat64JSON(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   float64
		want string
	}{
		{in: 99.5, want: `"99.5000"`},
		{in: 200.0 / 3, want: `"66.6667"`},
		{in: 0, want: `"0.0000"`},
		{in: 100, want: `"100.0000"`},
		{in: 1e21, want: `"1000000000000000000000.0000"`},
		{in: 0.00005, want: `"0.0001"`},
	}
	for _, tt := range tests {
		b, err := json.Marshal(jsonrpc.Float64(tt.in))
		require.NoError(t, err)
		require.Equal(t, tt.want, string(b))
		// Round trip: four decimals survive.
		var got jsonrpc.Float64
		require.NoError(t, json.Unmarshal(b, &got))
		b2, err := json.Marshal(got)
		require.NoError(t, err)
		require.Equal(t, string(b), string(b2))
	}
	f := jsonrpc.Float64(3)
	require.NoError(t, json.Unmarshal([]byte(`null`), &f))
	require.Equal(t, jsonrpc.Float64(3), f)
	require.NoError(t, json.Unmarshal([]byte(`1.25`), &f))
	require.Equal(t, jsonrpc.Float64(1.25), f)
	require.Error(t, json.Unmarshal([]byte(`"x"`), &f))
	require.Error(t, json.Unmarshal([]byte(`""`), &f))
}

// FuzzUint64 checks that decoding never panics and that a decoded value encodes to its canonical
// form, which decodes back to it.
func FuzzUint64(f *testing.F) {
	for _, s := range []string{`"1"`, `1`, `"01"`, `null`, `""`, `-1`, `"18446744073709551615"`, `1e0`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		var u jsonrpc.Uint64
		if err := u.UnmarshalJSON(in); err != nil {
			return
		}
		b, err := json.Marshal(u)
		require.NoError(t, err)
		var back jsonrpc.Uint64
		require.NoError(t, json.Unmarshal(b, &back))
		require.Equal(t, u, back)
	})
}
