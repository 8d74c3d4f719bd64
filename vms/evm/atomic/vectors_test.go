package atomic_test

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/evm/atomic"
)

// vector is the part of a C-Chain vector of testdata/codec-vectors-2.json these tests read.
type vector struct {
	Name             string `json:"name"`
	Chain            string `json:"chain"`
	SignedBytesHex   string `json:"signedBytesHex"`
	UnsignedBytesHex string `json:"unsignedBytesHex"`
	TxID             string `json:"txID"`
	TypeID           uint32 `json:"unsignedTxTypeID"`
	ExtData          string `json:"blockExtDataHex(AP5+ batch of this one tx)"`
	Fee              struct {
		Burned uint64 `json:"burnedNAVAX"`
		Gas    uint64 `json:"gasUsed(fixedFee=AP5)"`
	} `json:"fee"`
	Exported []struct {
		UTXOID    string `json:"utxoID"`
		UTXOBytes string `json:"utxoBytesHex"`
	} `json:"exportedUTXOs"`
}

type vectorFile struct {
	LocalNetwork struct {
		NetworkID   uint32 `json:"networkID"`
		AVAXAssetID string `json:"avaxAssetID"`
		CChainID    string `json:"cChainID"`
		XChainID    string `json:"xChainID"`
		PChainID    string `json:"pChainID"`
	} `json:"localNetwork"`
	Vectors []vector `json:"vectors"`
}

func load(t *testing.T) *vectorFile {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "testdata", "codec-vectors-2.json"))
	require.NoError(t, err)
	var f vectorFile
	require.NoError(t, json.Unmarshal(b, &f))
	return &f
}

func unhex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.TrimPrefix(s, "0x"))
	require.NoError(t, err)
	return b
}

func mustID(t *testing.T, s string) ids.ID {
	t.Helper()
	id, err := ids.FromString(s)
	require.NoError(t, err)
	return id
}

// localContext is the local network's C-Chain as the vectors' generator verified them.
func localContext(t *testing.T, f *vectorFile) *atomic.Context {
	x, p := mustID(t, f.LocalNetwork.XChainID), mustID(t, f.LocalNetwork.PChainID)
	return &atomic.Context{
		NetworkID:   f.LocalNetwork.NetworkID,
		ChainID:     mustID(t, f.LocalNetwork.CChainID),
		AVAXAssetID: mustID(t, f.LocalNetwork.AVAXAssetID),
		IsPeer:      func(id ids.ID) bool { return id == x || id == p },
		PChainID:    p,
	}
}

// TestVectors parses each C-Chain vector and checks that it gives back the reference's bytes, ID,
// gas, burned amount, block batch and exported UTXOs, that it verifies in the local network's
// context, and that its one credential recovers the ewoq key.
func TestVectors(t *testing.T) {
	f := load(t)
	ctx := localContext(t, f)
	ewoqEth := common.HexToAddress("0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC")
	n := 0
	for _, v := range f.Vectors {
		if v.Chain != "C" {
			continue
		}
		n++
		t.Run(v.Name, func(t *testing.T) {
			signed := unhex(t, v.SignedBytesHex)
			tx, err := atomic.ParseTx(signed)
			require.NoError(t, err)
			require.Equal(t, v.TxID, tx.ID().String())
			require.Equal(t, unhex(t, v.UnsignedBytesHex), tx.UnsignedBytes())
			again, err := atomic.NewTx(tx.Unsigned(), tx.Creds())
			require.NoError(t, err)
			require.Equal(t, signed, again.Bytes())
			unsigned, err := atomic.UnsignedBytes(tx.Unsigned())
			require.NoError(t, err)
			require.Equal(t, tx.UnsignedBytes(), unsigned)

			require.Equal(t, v.Fee.Gas, tx.GasUsed())
			burned, err := tx.Burned(ctx.AVAXAssetID)
			require.NoError(t, err)
			require.Equal(t, v.Fee.Burned, burned)
			require.NoError(t, tx.Verify(ctx))

			batch, err := atomic.BatchBytes([]*atomic.Tx{tx})
			require.NoError(t, err)
			require.Equal(t, unhex(t, v.ExtData), batch)
			parsed, err := atomic.ParseBatch(batch)
			require.NoError(t, err)
			require.Len(t, parsed, 1)
			require.Equal(t, tx.ID(), parsed[0].ID())
			require.Equal(t, signed, parsed[0].Bytes())

			signer, err := atomic.SignerEthAddress(tx, 0, 0)
			require.NoError(t, err)
			require.Equal(t, ewoqEth, signer)

			utxos := tx.ExportedUTXOs()
			require.Len(t, utxos, len(v.Exported))
			for i, want := range v.Exported {
				b, err := utxos[i].Bytes()
				require.NoError(t, err)
				require.Equal(t, unhex(t, want.UTXOBytes), b)
				require.Equal(t, want.UTXOID, utxos[i].InputID().String())
			}
			switch u := tx.Unsigned().(type) {
			case *atomic.ImportTx:
				require.Equal(t, atomic.TypeIDImportTx, v.TypeID)
				require.Equal(t, []ids.ID{u.ImportedInputs[0].InputID()}, tx.InputIDs())
				require.Equal(t, u.SourceChain, tx.PeerChain())
			case *atomic.ExportTx:
				require.Equal(t, atomic.TypeIDExportTx, v.TypeID)
				require.Equal(t, u.DestinationChain, tx.PeerChain())
			}
		})
	}
	require.Equal(t, 2, n)
}
