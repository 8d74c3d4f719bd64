package exchange

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
)

// vectorsPath is the project's copy of the golden vectors (platform-exchange.md §8).
var vectorsPath = filepath.Join("..", "..", "testdata", "codec-vectors.json")

// vectorFile holds the parts of codec-vectors.json these tests read.
type vectorFile struct {
	LocalNetwork struct {
		XChainID                 string           `json:"xChainID"`
		AVAXAssetID              string           `json:"avaxAssetID"`
		XGenesisBytesHex         string           `json:"xGenesisBytesHex"`
		XGenesisCreateAssetTxHex string           `json:"xGenesisCreateAssetTxHex"`
		XGenesisCreateAssetTxID  string           `json:"xGenesisCreateAssetTxID"`
		XGenesisUTXOs            []map[string]any `json:"xGenesisUTXOs"`
		XGenesisBlock            map[string]any   `json:"xGenesisBlock"`
		XStopVertex              map[string]any   `json:"xStopVertex"`
	} `json:"localNetwork"`
	TypeIDs map[string]map[string]uint32 `json:"typeIDs"`
	Vectors []map[string]any             `json:"vectors"`
}

var (
	vectorsOnce sync.Once
	vectors     vectorFile
	vectorsErr  error
)

// loadVectors reads and decodes the vector file once per test binary.
func loadVectors(tb testing.TB) *vectorFile {
	tb.Helper()
	vectorsOnce.Do(func() {
		var b []byte
		b, vectorsErr = os.ReadFile(vectorsPath)
		if vectorsErr != nil {
			return
		}
		vectorsErr = json.Unmarshal(b, &vectors)
	})
	require.NoError(tb, vectorsErr)
	return &vectors
}

// vector returns the vector called name.
func (v *vectorFile) vector(tb testing.TB, name string) map[string]any {
	tb.Helper()
	for _, vec := range v.Vectors {
		if vec["name"] == name {
			return vec
		}
	}
	tb.Fatalf("no vector %q", name)
	return nil
}

// xTxVectors returns the X-Chain vectors that hold a signed tx.
func (v *vectorFile) xTxVectors() []map[string]any {
	var out []map[string]any
	for _, vec := range v.Vectors {
		if vec["chain"] == "X" && vec["signedBytesHex"] != nil {
			out = append(out, vec)
		}
	}
	return out
}

// xBlockVectors returns the X-Chain vectors that hold a block.
func (v *vectorFile) xBlockVectors() []map[string]any {
	var out []map[string]any
	for _, vec := range v.Vectors {
		if vec["chain"] == "X" && vec["bytesHex"] != nil {
			out = append(out, vec)
		}
	}
	return out
}

// str returns m[key] as a string, failing the test if it is missing.
func str(tb testing.TB, m map[string]any, key string) string {
	tb.Helper()
	s, ok := m[key].(string)
	require.True(tb, ok, "missing string %q", key)
	return s
}

// num returns m[key] as a uint64.
func num(tb testing.TB, m map[string]any, key string) uint64 {
	tb.Helper()
	f, ok := m[key].(float64)
	require.True(tb, ok, "missing number %q", key)
	return uint64(f)
}

// unhex decodes a 0x-prefixed hex string.
func unhex(tb testing.TB, s string) []byte {
	tb.Helper()
	b, err := hex.DecodeString(strings.TrimPrefix(s, "0x"))
	require.NoError(tb, err)
	return b
}

// cb58 decodes a CB58 ID.
func cb58(tb testing.TB, s string) ids.ID {
	tb.Helper()
	id, err := ids.FromString(s)
	require.NoError(tb, err)
	return id
}
