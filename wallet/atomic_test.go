package wallet_test

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
	cutxo "github.com/cornice-node/cornice/vms/components/utxo"
	xtxs "github.com/cornice-node/cornice/vms/exchange/txs"
	"github.com/cornice-node/cornice/vms/platform/txs"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
	"github.com/cornice-node/cornice/wallet"
)

// Local network IDs (platform-exchange.md §7.7).
const (
	localAVAX   = "2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe"
	localXChain = "2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed"
)

// atomicVectorBytes returns the signed bytes of a vector of the project's codec-vectors-2.json.
func atomicVectorBytes(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("../testdata/codec-vectors-2.json")
	require.NoError(t, err)
	var file struct {
		Vectors []struct {
			Name   string `json:"name"`
			Signed string `json:"signedBytesHex"`
		} `json:"vectors"`
	}
	require.NoError(t, json.Unmarshal(b, &file))
	for _, v := range file.Vectors {
		if v.Name == name {
			signed, err := hex.DecodeString(strings.TrimPrefix(v.Signed, "0x"))
			require.NoError(t, err)
			return signed
		}
	}
	t.Fatalf("no vector %s", name)
	return nil
}

func cb58(t *testing.T, s string) ids.ID {
	t.Helper()
	id, err := ids.FromString(s)
	require.NoError(t, err)
	return id
}

// TestXAtomicVectors builds the X-Chain's ExportTx and ImportTx vectors from their inputs: the
// builder's choices (fee, change, order) and signatures are the reference wallet's, byte for byte.
func TestXAtomicVectors(t *testing.T) {
	t.Parallel()
	key := mustKey(t, wallet.LocalKey)
	avaxID, xID := cb58(t, localAVAX), cb58(t, localXChain)
	b := wallet.XBuilder{NetworkID: 12345, ChainID: xID, AVAXAssetID: avaxID, TxFee: fee, CreateAssetTxFee: fee}
	owned := func(txID string, index uint32, amount uint64) *xtxs.UTXO {
		return &xtxs.UTXO{
			UTXOID:  cutxo.UTXOID{TxID: cb58(t, txID), OutputIndex: index},
			AssetID: avaxID,
			Out:     &secp256k1fx.TransferOutput{Amount: amount, OutputOwners: secp256k1fx.OutputOwners{Threshold: 1, Addrs: []ids.ShortID{key.Address()}}},
		}
	}

	change := owned("G3iThEcUwcd6XErwMxj5NfWnSLKS4irmmUnacGCve39fKnKH3", 0, 299_999_998_998_000_000)
	tx, err := b.Export(key, []*xtxs.UTXO{change}, ids.Empty, key.Address(), 10_000_000_000)
	require.NoError(t, err)
	require.Equal(t, atomicVectorBytes(t, "x_export_tx_to_p"), tx.Bytes())

	exported := owned("252hkmkH75pStiq1meDX62srKS7TAs2eNXCZw5KRNeUdZ1P7rJ", 1, 10_000_000_000)
	tx, err = b.Import(key, []*xtxs.UTXO{exported}, ids.Empty, key.Address())
	require.NoError(t, err)
	require.Equal(t, atomicVectorBytes(t, "x_import_tx_from_p"), tx.Bytes())

	_, err = b.Import(key, nil, ids.Empty, key.Address())
	require.ErrorIs(t, err, wallet.ErrNothingToImport)
	_, err = b.Import(key, []*xtxs.UTXO{owned("252hkmkH75pStiq1meDX62srKS7TAs2eNXCZw5KRNeUdZ1P7rJ", 1, fee)}, ids.Empty, key.Address())
	require.ErrorIs(t, err, wallet.ErrInsufficientFunds, "nothing left after the fee")
	_, err = b.Export(key, []*xtxs.UTXO{change}, ids.Empty, key.Address(), 299_999_998_998_000_000)
	require.ErrorIs(t, err, wallet.ErrInsufficientFunds, "the fee on top")
	_, err = b.Export(key, []*xtxs.UTXO{change}, ids.Empty, key.Address(), 0)
	require.ErrorIs(t, err, wallet.ErrZeroAmount)
}

// TestPAtomic builds P-Chain ExportTxs and ImportTxs: each pays exactly the fee of its own
// complexity at the builder's price, and spends only what the key can.
func TestPAtomic(t *testing.T) {
	t.Parallel()
	key := mustKey(t, wallet.LocalKey)
	b := testPBuilder()
	other := ids.ShortID{7}
	utxos := []*txs.UTXO{pUTXO(1, 3_000_000_000, 0, key.Address()), pUTXO(2, 8_000_000_000, 0, key.Address()), pUTXO(3, 9, 0, other)}

	tx, err := b.Export(key, utxos, ids.ID{'x'}, other, 5_000_000_000)
	require.NoError(t, err)
	export := tx.Unsigned().(*txs.ExportTx)
	require.Equal(t, ids.ID{'x'}, export.DestinationChain)
	require.Len(t, export.ExportedOuts, 1)
	require.Equal(t, []ids.ShortID{other}, export.ExportedOuts[0].Out.(*secp256k1fx.TransferOutput).Addrs)
	in, out := pFlow(tx)
	require.Equal(t, in-out-5_000_000_000, b.Fee(tx), "the change pays the exact fee")
	require.Len(t, tx.Creds(), len(export.Ins))

	atomicUTXOs := []*txs.UTXO{pUTXO(4, 2_000_000_000, 0, key.Address()), pUTXO(5, 1_000_000_000, 0, key.Address()), pUTXO(6, 7, 0, other)}
	tx, err = b.Import(key, atomicUTXOs, ids.ID{'x'}, key.Address())
	require.NoError(t, err)
	imp := tx.Unsigned().(*txs.ImportTx)
	require.Len(t, imp.ImportedIns, 2, "the other owner's UTXO stays")
	require.Empty(t, imp.Ins)
	require.Len(t, tx.Creds(), 2)
	_, out = pFlow(tx)
	require.Equal(t, 3_000_000_000-out, b.Fee(tx))

	_, err = b.Import(key, atomicUTXOs[2:], ids.ID{'x'}, key.Address())
	require.ErrorIs(t, err, wallet.ErrNothingToImport)
	_, err = b.Import(key, []*txs.UTXO{pUTXO(4, 10, 0, key.Address())}, ids.ID{'x'}, key.Address())
	require.ErrorIs(t, err, wallet.ErrInsufficientFunds)
	_, err = b.Export(key, utxos, ids.ID{'x'}, other, 11_000_000_000)
	require.ErrorIs(t, err, wallet.ErrInsufficientFunds)
}
