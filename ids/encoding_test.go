package ids

import (
	"encoding/hex"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestEncodingNamesAndJSON(t *testing.T) {
	t.Parallel()
	var zero Encoding
	require.Equal(t, Hex, zero)

	tests := []struct {
		enc  Encoding
		name string
	}{
		{enc: Hex, name: "hex"},
		{enc: HexC, name: "hexc"},
		{enc: HexNC, name: "hexnc"},
		{enc: JSON, name: "json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tt.name, tt.enc.String())
			b, err := json.Marshal(tt.enc)
			require.NoError(t, err)
			require.Equal(t, `"`+tt.name+`"`, string(b))

			for _, in := range []string{tt.name, strings.ToUpper(tt.name), strings.ToUpper(tt.name[:1]) + tt.name[1:]} {
				got := JSON + 1 // not a valid value, so a no-op unmarshal would show
				require.NoError(t, json.Unmarshal([]byte(`"`+in+`"`), &got))
				require.Equal(t, tt.enc, got)
			}
		})
	}

	_, err := json.Marshal(Encoding(9))
	require.ErrorIs(t, err, ErrInvalidEncoding)
	require.Equal(t, "invalid encoding", Encoding(9).String())
}

func TestEncodingUnmarshalJSONRejects(t *testing.T) {
	t.Parallel()
	for _, in := range []string{`""`, `"cb58"`, `"hex "`, `"jſon"`, `1`, `"hex`, `true`} {
		t.Run(in, func(t *testing.T) {
			t.Parallel()
			e := HexNC
			require.ErrorIs(t, e.UnmarshalJSON([]byte(in)), ErrInvalidEncoding)
			require.Equal(t, HexNC, e)
		})
	}
	e := HexNC
	require.NoError(t, e.UnmarshalJSON([]byte("null")))
	require.Equal(t, HexNC, e)
}

func TestEncodingEncode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		enc     Encoding
		in      []byte
		want    string
		wantErr error
	}{
		{name: "hex empty", enc: Hex, in: []byte{}, want: "0x7852b855"},
		{name: "hexc empty", enc: HexC, in: nil, want: "0x7852b855"},
		{name: "hexnc empty", enc: HexNC, in: []byte{}, want: "0x"},
		{name: "hexnc bytes", enc: HexNC, in: []byte{0xAB, 0x01}, want: "0xab01"},
		{name: "hex bytes", enc: Hex, in: []byte{0xAB, 0x01}, want: "0xab01" + hex.EncodeToString(sumOf([]byte{0xAB, 0x01})[2:])},
		{name: "json", enc: JSON, in: []byte{1}, wantErr: ErrUnsupportedEncoding},
		{name: "invalid", enc: Encoding(4), in: []byte{1}, wantErr: ErrInvalidEncoding},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := tt.enc.Encode(tt.in)
			require.ErrorIs(t, err, tt.wantErr)
			require.Equal(t, tt.want, got)
		})
	}
}

func TestEncodingEncodeLarge(t *testing.T) {
	t.Parallel()
	// Longer than one chunk of encodeHex, and not a multiple of it.
	b := benchInput(3*hexChunk + 17)
	got, err := Hex.Encode(b)
	require.NoError(t, err)
	require.Equal(t, "0x"+hex.EncodeToString(sumOf(b)), got)
	got, err = HexNC.Encode(b)
	require.NoError(t, err)
	require.Equal(t, "0x"+hex.EncodeToString(b), got)
}

func TestEncodingDecode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		enc     Encoding
		in      string
		want    []byte
		wantErr error
		wantMsg string
	}{
		{name: "hex empty string", enc: Hex, in: "", want: []byte{}},
		{name: "hexnc empty string", enc: HexNC, in: "", want: []byte{}},
		{name: "json empty string", enc: JSON, in: "", want: []byte{}},
		{name: "hex empty bytes", enc: Hex, in: "0x7852b855", want: []byte{}},
		{name: "hex upper-case digits", enc: Hex, in: "0x7852B855", want: []byte{}},
		{name: "hexnc prefix only", enc: HexNC, in: "0x", want: []byte{}},
		{name: "hexnc bytes", enc: HexNC, in: "0xAb01", want: []byte{0xab, 0x01}},
		{name: "hexc bytes", enc: HexC, in: "0x" + hex.EncodeToString(sumOf([]byte{7})), want: []byte{7}},
		{name: "upper-case prefix", enc: Hex, in: "0X7852b855", wantErr: ErrMissingHexPrefix, wantMsg: "missing 0x prefix to hex encoding"},
		{name: "hexnc no prefix", enc: HexNC, in: "ab", wantErr: ErrMissingHexPrefix},
		{name: "short", enc: Hex, in: "0x785255", wantErr: ErrMissingChecksum, wantMsg: "input string is smaller than the checksum size"},
		{name: "prefix only with checksum", enc: HexC, in: "0x", wantErr: ErrMissingChecksum},
		{name: "bad checksum", enc: Hex, in: "0x7852b856", wantErr: ErrBadChecksum, wantMsg: "invalid input checksum"},
		{name: "odd length", enc: HexNC, in: "0xabc", wantErr: hex.ErrLength},
		{name: "bad digit", enc: HexNC, in: "0xzz", wantMsg: "encoding/hex: invalid byte: U+007A 'z'"},
		{name: "json", enc: JSON, in: "0x00", wantErr: ErrUnsupportedEncoding, wantMsg: "unsupported encoding in method"},
		{name: "invalid", enc: Encoding(7), in: "0x00", wantErr: ErrInvalidEncoding},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := tt.enc.Decode(tt.in)
			if tt.wantErr == nil && tt.wantMsg == "" {
				require.NoError(t, err)
				require.Equal(t, tt.want, got)
				return
			}
			require.Error(t, err)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
			}
			if tt.wantMsg != "" {
				require.EqualError(t, err, tt.wantMsg)
			}
			require.Nil(t, got)
		})
	}
}

func FuzzEncodingDecode(f *testing.F) {
	for _, s := range []string{"", "0x", "0x7852b855", "0xab01", "0X00", "0xzz"} {
		for e := range JSON + 2 {
			f.Add(uint8(e), s)
		}
	}
	f.Fuzz(func(t *testing.T, e uint8, s string) {
		enc := Encoding(e)
		b, err := enc.Decode(s)
		if err != nil || s == "" {
			return
		}
		out, err := enc.Encode(b)
		require.NoError(t, err)
		// Encoding writes lower-case digits; the prefix is already lower case.
		require.Equal(t, strings.ToLower(s), out)
	})
}

func FuzzEncodingEncode(f *testing.F) {
	f.Add(uint8(Hex), []byte{})
	f.Add(uint8(HexNC), []byte{1, 2, 3})
	f.Add(uint8(HexC), make([]byte, 600))
	f.Fuzz(func(t *testing.T, e uint8, b []byte) {
		enc := Encoding(e % uint8(JSON))
		s, err := enc.Encode(b)
		require.NoError(t, err)
		back, err := enc.Decode(s)
		require.NoError(t, err)
		require.Equal(t, b, back)
	})
}

func BenchmarkHexEncode(b *testing.B) {
	for _, n := range benchSizes {
		in := benchInput(n)
		for _, enc := range []Encoding{Hex, HexNC} {
			b.Run(enc.String()+"/"+strconv.Itoa(n), func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(n))
				for b.Loop() {
					if _, err := enc.Encode(in); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

func BenchmarkHexDecode(b *testing.B) {
	for _, n := range benchSizes {
		in := benchInput(n)
		for _, enc := range []Encoding{Hex, HexNC} {
			s, err := enc.Encode(in)
			require.NoError(b, err)
			b.Run(enc.String()+"/"+strconv.Itoa(n), func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(n))
				for b.Loop() {
					if _, err := enc.Decode(s); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
