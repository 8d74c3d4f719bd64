package address

import (
	"encoding/hex"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
)

func TestParseAddress(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, alias, hrp, addrHex string
		wantErr                 error
	}{
		// The ewoq key's address (platform-exchange.md §2.5, §7.3).
		{in: "X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u", alias: "X", hrp: "local", addrHex: "3cb7d3842e8cee6a0ebd09f1fe884f6861e1b29c"},
		{in: "P-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u", alias: "P", hrp: "local", addrHex: "3cb7d3842e8cee6a0ebd09f1fe884f6861e1b29c"},
		{in: "local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u", wantErr: ErrInvalidAddress},
		{in: "X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96v", wantErr: ErrInvalidAddress}, // checksum
		{in: "X-LOCAL18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u", wantErr: ErrInvalidAddress}, // mixed case
		{in: "X-", wantErr: ErrInvalidAddress},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			alias, hrp, addr, err := Parse(tt.in)
			require.ErrorIs(t, err, tt.wantErr)
			if tt.wantErr != nil {
				return
			}
			require.Equal(t, tt.alias, alias)
			require.Equal(t, tt.hrp, hrp)
			require.Equal(t, tt.addrHex, hex.EncodeToString(addr[:]))
			back, err := Format(alias, hrp, addr)
			require.NoError(t, err)
			require.Equal(t, tt.in, back)
		})
	}
}

// FuzzDecodeBech32: decoding never panics, and what decodes encodes back to the lower-case input.
func FuzzDecodeBech32(f *testing.F) {
	f.Add("local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u")
	f.Add("local1ur873jhz9qnaqv5qthk5sn3e8nj3e0kmggalnu")
	f.Add("a12uel5l")
	f.Fuzz(func(t *testing.T, s string) {
		hrp, data, err := DecodeBech32(s)
		if err != nil {
			return
		}
		out, err := EncodeBech32(hrp, data)
		require.NoError(t, err)
		require.Len(t, out, len(s))
	})
}

func TestHRP(t *testing.T) {
	t.Parallel()
	tests := []struct {
		networkID uint32
		want      string
	}{
		{1, "avax"}, {5, "fuji"}, {10, "testing"}, {12345, "local"}, {0, "custom"}, {99999, "custom"},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, HRP(tt.networkID))
	}
	// The ewoq address under other HRPs (§2.5).
	ewoq, err := ids.ToShortID(mustHex(t, "3cb7d3842e8cee6a0ebd09f1fe884f6861e1b29c"))
	require.NoError(t, err)
	for hrp, want := range map[string]string{
		"avax":   "avax18jma8ppw3nhx5r4ap8clazz0dps7rv5ukulre5",
		"fuji":   "fuji18jma8ppw3nhx5r4ap8clazz0dps7rv5u6wmu4t",
		"custom": "custom18jma8ppw3nhx5r4ap8clazz0dps7rv5u9xde7p",
	} {
		got, err := EncodeBech32(hrp, ewoq[:])
		require.NoError(t, err)
		require.Equal(t, want, got)
	}
}

func mustHex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	require.NoError(t, err)
	return b
}
