package txs

import (
	"testing"

	"github.com/cornice-node/cornice/vms/internal/vectortest"
)

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
	Vectors vectortest.Vectors           `json:"vectors"`
}

// The vector readers, short as the tests use them.
var (
	str   = vectortest.Str
	num   = vectortest.Num
	unhex = vectortest.Unhex
	cb58  = vectortest.CB58
)

// loadVectors reads and decodes the vector file (platform-exchange.md §8).
func loadVectors(tb testing.TB) *vectorFile { return vectortest.Load[vectorFile](tb) }

// xTxVectors returns the X-Chain vectors that hold a signed tx.
func (v *vectorFile) xTxVectors() []map[string]any {
	return v.Vectors.Select("X", "signedBytesHex")
}

// xBlockVectors returns the X-Chain vectors that hold a block.
func (v *vectorFile) xBlockVectors() []map[string]any {
	return v.Vectors.Select("X", "bytesHex")
}
