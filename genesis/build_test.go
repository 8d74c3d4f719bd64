package genesis_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/config"
	"github.com/cornice-node/cornice/genesis"
	"github.com/cornice-node/cornice/ids"
)

// localVectors is the localNetwork section of testdata/codec-vectors.json.
type localVectors struct {
	AVAXAssetID                    string `json:"avaxAssetID"`
	XChainID                       string `json:"xChainID"`
	CChainID                       string `json:"cChainID"`
	GenesisConfigStartTime         int64  `json:"genesisConfigStartTime"`
	RecentStartTimeUsedByNode      int64  `json:"recentStartTimeUsedByNode"`
	PGenesisBytesHex               string `json:"pGenesisBytesHex"`
	PGenesisBytesSHA256Recent      string `json:"pGenesisBytesSHA256WithRecentStartTime"`
	PGenesisBlockIDRecentStartTime string `json:"pGenesisBlockIDWithRecentStartTime"`
	XGenesisBytesHex               string `json:"xGenesisBytesHex"`
	XGenesisCreateAssetTxHex       string `json:"xGenesisCreateAssetTxHex"`
	PGenesisBlock                  struct {
		BlockID string `json:"blockID"`
	} `json:"pGenesisBlock"`
	PGenesisChains []struct {
		BlockchainID     string `json:"blockchainID"`
		CreateChainTxHex string `json:"createChainTxHex"`
	} `json:"pGenesisChains"`
	XGenesisBlock struct {
		BlockID string `json:"blockID"`
	} `json:"xGenesisBlock"`
}

func loadVectors(t *testing.T) localVectors {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "codec-vectors.json"))
	require.NoError(t, err)
	var file struct {
		LocalNetwork localVectors `json:"localNetwork"`
	}
	require.NoError(t, json.Unmarshal(b, &file))
	return file.LocalNetwork
}

func unhex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.TrimPrefix(s, "0x"))
	require.NoError(t, err)
	return b
}

// The local genesis built from the embedded config gives the reference's IDs and bytes
// (platform-exchange.md §7.7) for the config's own start time.
func TestBuildLocalMatchesReference(t *testing.T) {
	t.Parallel()
	v := loadVectors(t)
	cfg, err := genesis.Local()
	require.NoError(t, err)
	cfg.StartTimePeriod = 0 // the file's start time, as the vectors were made
	g, err := genesis.Build(cfg, time.Unix(v.GenesisConfigStartTime, 0))
	require.NoError(t, err)

	require.Equal(t, v.AVAXAssetID, g.AVAXAssetID.String())
	require.Equal(t, "2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe", g.AVAXAssetID.String())
	require.Equal(t, "2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed", g.XChainID.String())
	require.Equal(t, "2owdGqyG6FFzTHy5qhenDXQcEghvr571KZE3gSfRJERSJinuwC", g.CChainID.String())
	require.Equal(t, v.XChainID, g.XChainID.String())
	require.Equal(t, v.CChainID, g.CChainID.String())

	require.Equal(t, unhex(t, v.XGenesisBytesHex), g.XGenesis)
	require.Equal(t, unhex(t, v.XGenesisCreateAssetTxHex), g.AVAX.Bytes())
	require.Len(t, g.XChain.Bytes(), 469)
	require.Len(t, g.CChain.Bytes(), 969)
	for _, c := range v.PGenesisChains {
		switch c.BlockchainID {
		case v.XChainID:
			require.Equal(t, unhex(t, c.CreateChainTxHex), g.XChain.Bytes())
		case v.CChainID:
			require.Equal(t, unhex(t, c.CreateChainTxHex), g.CChain.Bytes())
		}
	}

	require.Len(t, g.PGenesis, 4141)
	require.Equal(t, unhex(t, v.PGenesisBytesHex), g.PGenesis)
	require.Equal(t, v.PGenesisBlock.BlockID, g.PGenesisBlock().ID().String())

	u := config.UpgradesFor(config.LocalID)
	require.Equal(t, v.XGenesisBlock.BlockID, g.XGenesisBlock(u.CortinaTime, ids.Empty).ID().String())
}

// The start time moves with the date (§7.2): on the day the vectors were made the node used
// 1791000000, which changes the P genesis but not the X, C and AVAX IDs.
func TestBuildLocalRecentStartTime(t *testing.T) {
	t.Parallel()
	v := loadVectors(t)
	cfg, err := genesis.Local()
	require.NoError(t, err)
	g, err := genesis.Build(cfg, time.Date(2026, 11, 25, 22, 24, 48, 0, time.UTC))
	require.NoError(t, err)
	require.Equal(t, v.RecentStartTimeUsedByNode, g.StartTime.Unix())
	sum := sha256.Sum256(g.PGenesis)
	require.Equal(t, v.PGenesisBytesSHA256Recent, "0x"+hex.EncodeToString(sum[:]))
	require.Equal(t, v.PGenesisBlockIDRecentStartTime, g.PGenesisBlock().ID().String())
	require.Equal(t, v.XChainID, g.XChainID.String())
	require.Equal(t, v.CChainID, g.CChainID.String())
	require.Equal(t, v.AVAXAssetID, g.AVAXAssetID.String())
}
