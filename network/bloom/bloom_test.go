package bloom

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func unhex(tb testing.TB, s string) []byte {
	tb.Helper()
	b, err := hex.DecodeString(strings.TrimPrefix(s, "0x"))
	require.NoError(tb, err)
	return b
}

// The reference's vector: its empty filter parses and re-encodes to the same bytes, the claim's
// hash comes from SHA-256(gossipID ‖ salt), and adding it gives the reference's filter.
func TestReferenceVector(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("../testdata/p2p-vectors.json")
	require.NoError(t, err)
	var file struct {
		Vectors []struct {
			Name           string `json:"name"`
			EmptyFilterHex string `json:"emptyFilterHex"`
			SaltHex        string `json:"saltHex"`
			Claim          struct {
				FilterWithClaimHex string `json:"filterWithClaimHex"`
				GossipIDHex        string `json:"gossipIDHex"`
				Hash               string `json:"hash"`
			} `json:"claim"`
		} `json:"vectors"`
	}
	require.NoError(t, json.Unmarshal(raw, &file))
	v := file.Vectors[1]
	require.Equal(t, "p2p_bloom_filter_known_peers", v.Name)

	empty := unhex(t, v.EmptyFilterHex)
	f, err := Parse(empty)
	require.NoError(t, err)
	require.Equal(t, empty, f.Marshal())

	hash := Hash(unhex(t, v.Claim.GossipIDHex), unhex(t, v.SaltHex))
	require.Equal(t, v.Claim.Hash, strconv.FormatUint(hash, 10))
	require.False(t, f.Contains(hash))
	f.Add(hash)
	require.True(t, f.Contains(hash))
	require.Equal(t, unhex(t, v.Claim.FilterWithClaimHex), f.Marshal())
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	for name, b := range map[string][]byte{
		"empty":          nil,
		"zero hashes":    {0, 1},
		"17 hashes":      append([]byte{17}, make([]byte, 8*17+1)...),
		"no entries":     append([]byte{1}, make([]byte, 8)...),
		"short seeds":    {2, 1, 2, 3},
		"only the count": {1},
	} {
		_, err := Parse(b)
		require.ErrorIs(t, err, ErrInvalid, name)
	}
}

func TestNewAddContains(t *testing.T) {
	t.Parallel()
	k, n := OptimalParameters(128, 0.001)
	require.Equal(t, 10, k)
	require.Equal(t, 230, n, "the reference's size for 128 entries at 0.1%")
	f, err := New(k, n)
	require.NoError(t, err)
	for i := range uint64(128) {
		f.Add(i * 0x9e3779b97f4a7c15)
	}
	for i := range uint64(128) {
		require.True(t, f.Contains(i*0x9e3779b97f4a7c15))
	}
	require.Equal(t, 128, f.Count())
	g, err := Parse(f.Marshal())
	require.NoError(t, err)
	five := uint64(5)
	require.True(t, g.Contains(five*0x9e3779b97f4a7c15))
	require.Greater(t, EstimateCount(k, n, 0.01), 128)
	_, err = New(0, 1)
	require.ErrorIs(t, err, ErrInvalid)
}

func FuzzParse(f *testing.F) {
	f.Add([]byte{1, 0, 0, 0, 0, 0, 0, 0, 1, 0xff})
	f.Fuzz(func(t *testing.T, b []byte) {
		filter, err := Parse(b)
		if err != nil {
			return
		}
		require.Equal(t, b, filter.Marshal())
		filter.Add(Hash(b, nil))
		require.True(t, filter.Contains(Hash(b, nil)))
	})
}
