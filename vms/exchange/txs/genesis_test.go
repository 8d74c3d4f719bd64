package txs

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/internal/vectortest"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// TestGenesisVector parses the local X genesis (§6.4), checks that it encodes back byte for byte,
// and derives the AVAX asset ID and the genesis UTXOs from it.
func TestGenesisVector(t *testing.T) {
	t.Parallel()
	ln := &loadVectors(t).LocalNetwork
	raw := unhex(t, ln.XGenesisBytesHex)
	g, err := ParseGenesis(raw)
	require.NoError(t, err)
	again, err := g.Bytes()
	require.NoError(t, err)
	require.Equal(t, raw, again)

	require.Len(t, g.Txs, 1)
	asset := &g.Txs[0]
	require.Equal(t, "AVAX", asset.Alias)
	require.Equal(t, "Avalanche", asset.CreateAssetTx.Name)
	require.Equal(t, "AVAX", asset.CreateAssetTx.Symbol)
	require.Equal(t, uint8(9), asset.CreateAssetTx.Denomination)
	require.Equal(t, uint32(12345), asset.CreateAssetTx.NetworkID)
	require.Equal(t, ids.Empty, asset.CreateAssetTx.BlockchainID)
	require.Len(t, asset.CreateAssetTx.Memo, 40)

	tx, err := asset.Tx()
	require.NoError(t, err)
	require.Equal(t, unhex(t, ln.XGenesisCreateAssetTxHex), tx.Bytes())
	require.Equal(t, cb58(t, ln.XGenesisCreateAssetTxID), tx.ID())
	require.Equal(t, cb58(t, ln.AVAXAssetID), tx.ID())
	require.Equal(t, "2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe", tx.ID().String())
	require.Empty(t, tx.Creds())

	utxos := tx.UTXOs()
	require.Len(t, utxos, len(ln.XGenesisUTXOs))
	for i, want := range ln.XGenesisUTXOs {
		ux := utxos[i]
		require.Equal(t, uint32(num(t, want, "outputIndex")), ux.OutputIndex)
		require.Equal(t, cb58(t, str(t, want, "utxoID")), ux.InputID())
		require.Equal(t, tx.ID(), ux.AssetID)
		b, err := ux.Bytes()
		require.NoError(t, err)
		require.Equal(t, unhex(t, str(t, want, "utxoBytesHex")), b)
		parsed, err := ParseUTXO(b)
		require.NoError(t, err)
		require.Equal(t, &ux, parsed)
		out, ok := ux.Out.(*secp256k1fx.TransferOutput)
		require.True(t, ok)
		require.Equal(t, num(t, want, "amount"), out.Amount)
	}
	// The ewoq allocation, which the X BaseTx vector spends (§6.4).
	require.Equal(t, "Gqdc55Wu2egMkQABwJb74h6UydveDxHCMo1uEEUKeEVvPeoUc", utxos[1].InputID().String())
	require.Equal(t, []ids.ShortID{ewoq}, utxos[1].Out.(*secp256k1fx.TransferOutput).Addrs)
}

func TestGenesisErrors(t *testing.T) {
	t.Parallel()
	raw := unhex(t, loadVectors(t).LocalNetwork.XGenesisBytesHex)
	for _, n := range []int{0, 1, 2, 5, 100, len(raw) - 1} {
		_, err := ParseGenesis(raw[:n])
		require.ErrorIs(t, err, codec.ErrTruncated, "prefix of %d bytes", n)
	}
	_, err := ParseGenesis(append(append([]byte(nil), raw...), 0))
	require.ErrorIs(t, err, codec.ErrTrailingBytes)

	// The genesis codec accepts more than MaxSize (§1.2).
	big := &Genesis{Txs: []GenesisAsset{{Alias: "BIG", CreateAssetTx: CreateAssetTx{
		BaseTx: BaseTx{Memo: make([]byte, codec.MaxSize)},
	}}}}
	b, err := big.Bytes()
	require.NoError(t, err)
	parsed, err := ParseGenesis(b)
	require.NoError(t, err)
	require.Len(t, parsed.Txs[0].CreateAssetTx.Memo, codec.MaxSize)

	_, err = (&Genesis{Txs: []GenesisAsset{{CreateAssetTx: CreateAssetTx{States: []InitialState{{Outs: []Output{nil}}}}}}}).Bytes()
	require.ErrorIs(t, err, codec.ErrNilValue)
}

// FuzzParseGenesis parses arbitrary bytes as an X genesis: it never panics, and a genesis it
// accepts encodes back to the same bytes.
func FuzzParseGenesis(f *testing.F) {
	seeds := [][]byte{unhex(f, loadVectors(f).LocalNetwork.XGenesisBytesHex)}
	vectortest.FuzzRoundTrip(f, seeds, ParseGenesis, (*Genesis).Bytes)
}
