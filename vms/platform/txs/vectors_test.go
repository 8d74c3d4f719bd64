package txs

import (
	"testing"

	"github.com/cornice-node/cornice/vms/internal/vectortest"
)

// vectorFile holds the parts of codec-vectors.json these tests read. Fields whose JSON keys are not
// Go-friendly are read from the raw maps.
type vectorFile struct {
	LocalNetwork struct {
		PGenesisBytesHex    string           `json:"pGenesisBytesHex"`
		PGenesisBytesSHA256 string           `json:"pGenesisBytesSHA256"`
		PGenesisTimestamp   uint64           `json:"pGenesisTimestamp"`
		PGenesisSupply      uint64           `json:"pGenesisInitialSupply"`
		PGenesisMessage     string           `json:"pGenesisMessage"`
		XChainID            string           `json:"xChainID"`
		CChainID            string           `json:"cChainID"`
		AVAXAssetID         string           `json:"avaxAssetID"`
		PGenesisBlock       map[string]any   `json:"pGenesisBlock"`
		PGenesisUTXOs       []map[string]any `json:"pGenesisUTXOs"`
		PGenesisValidators  []map[string]any `json:"pGenesisValidators"`
		PGenesisChains      []map[string]any `json:"pGenesisChains"`
	} `json:"localNetwork"`
	Vectors vectortest.Vectors `json:"vectors"`
}

// The vector readers, short as the tests use them.
var (
	str   = vectortest.Str
	num   = vectortest.Num
	unhex = vectortest.Unhex
	cb58  = vectortest.CB58
)

// vectorsPath is the project's copy of the golden vectors (platform-exchange.md §8).
var vectorsPath = vectortest.Path()

// loadVectors reads and decodes the vector file (platform-exchange.md §8).
func loadVectors(tb testing.TB) *vectorFile { return vectortest.Load[vectorFile](tb) }

// pTxVectors returns the P-Chain vectors that hold a signed tx.
func (v *vectorFile) pTxVectors() []map[string]any {
	return v.Vectors.Select("P", "signedBytesHex")
}
