package txs

import (
	"crypto/sha256"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/components/utxo"
	"github.com/cornice-node/cornice/vms/internal/vectortest"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

func TestGenesisVector(t *testing.T) {
	t.Parallel()
	v := loadVectors(t)
	ln := &v.LocalNetwork
	raw := unhex(t, ln.PGenesisBytesHex)
	digest := sha256.Sum256(raw)
	require.Equal(t, unhex(t, ln.PGenesisBytesSHA256), digest[:])

	g, err := ParseGenesis(raw)
	require.NoError(t, err)
	again, err := g.Bytes()
	require.NoError(t, err)
	require.Equal(t, raw, again)

	require.Equal(t, ln.PGenesisTimestamp, g.Timestamp)
	require.Equal(t, ln.PGenesisSupply, g.InitialSupply)
	require.Equal(t, ln.PGenesisMessage, g.Message)

	avax := cb58(t, ln.AVAXAssetID)
	require.Len(t, g.UTXOs, len(ln.PGenesisUTXOs))
	for i, want := range ln.PGenesisUTXOs {
		got := g.UTXOs[i]
		require.Equal(t, ids.Empty, got.TxID)
		require.Equal(t, uint32(num(t, want, "outputIndex")), got.OutputIndex)
		require.Equal(t, avax, got.AssetID)
		require.Equal(t, cb58(t, str(t, want, "utxoID")), got.InputID())
		require.Equal(t, unhex(t, str(t, want, "messageHex")), got.Message)
		out, ok := got.Out.(*secp256k1fx.TransferOutput)
		require.True(t, ok)
		require.Equal(t, num(t, want, "amount"), out.Amount)

		utxoBytes := unhex(t, str(t, want, "utxoBytesHex"))
		b, err := got.UTXO.Bytes()
		require.NoError(t, err)
		require.Equal(t, utxoBytes, b)
		parsed, err := ParseUTXO(utxoBytes)
		require.NoError(t, err)
		require.Equal(t, &got.UTXO, parsed)
	}

	require.Len(t, g.Validators, len(ln.PGenesisValidators))
	for i, want := range ln.PGenesisValidators {
		tx := g.Validators[i]
		require.Equal(t, unhex(t, str(t, want, "signedTxHex")), tx.Bytes())
		require.Equal(t, cb58(t, str(t, want, "txID")), tx.ID())
		apv, ok := tx.Unsigned().(*AddPermissionlessValidatorTx)
		require.True(t, ok)
		nodeID, err := ids.NodeIDFromString(str(t, want, "nodeID"))
		require.NoError(t, err)
		require.Equal(t, nodeID, apv.Validator.NodeID)
		require.Equal(t, num(t, want, "start"), apv.Validator.Start)
		require.Equal(t, num(t, want, "end"), apv.Validator.End)
		require.Equal(t, num(t, want, "weight"), apv.Validator.Weight)
		require.Equal(t, uint32(num(t, want, "delegationShares")), apv.DelegationShares)
		require.IsType(t, &ProofOfPossession{}, apv.Signer)
		require.Empty(t, tx.Creds())
	}

	chainIDs := []ids.ID{cb58(t, ln.XChainID), cb58(t, ln.CChainID)}
	require.Len(t, g.Chains, len(ln.PGenesisChains))
	for i, want := range ln.PGenesisChains {
		tx := g.Chains[i]
		require.Equal(t, unhex(t, str(t, want, "createChainTxHex")), tx.Bytes())
		require.Equal(t, cb58(t, str(t, want, "blockchainID")), tx.ID())
		require.Equal(t, chainIDs[i], tx.ID())
		cc, ok := tx.Unsigned().(*CreateChainTx)
		require.True(t, ok)
		require.Equal(t, str(t, want, "name"), cc.ChainName)
		require.Equal(t, cb58(t, str(t, want, "vmID")), cc.VMID)
		require.Len(t, cc.GenesisData, int(num(t, want, "genesisDataLen")))
		require.Empty(t, cc.SubnetAuth.SigIndices)
	}

	// The genesis vector validator tx is the first validator.
	first := v.Vectors.Named(t, "p_genesis_add_permissionless_validator_tx_first")
	require.Equal(t, cb58(t, str(t, first, "txID")), g.Validators[0].ID())
}

func TestGenesisErrors(t *testing.T) {
	t.Parallel()
	v := loadVectors(t)
	raw := unhex(t, v.LocalNetwork.PGenesisBytesHex)
	for _, n := range []int{0, 1, 2, 5, 100, len(raw) / 2, len(raw) - 1} {
		_, err := ParseGenesis(raw[:n])
		require.ErrorIs(t, err, codec.ErrTruncated, "prefix of %d bytes", n)
	}
	_, err := ParseGenesis(append(append([]byte(nil), raw...), 0))
	require.ErrorIs(t, err, codec.ErrTrailingBytes)

	// The genesis codec accepts more than MaxSize (§1.2).
	big := &Genesis{Message: "x", UTXOs: []GenesisUTXO{{
		UTXO:    UTXO{Out: &secp256k1fx.TransferOutput{Amount: 1}},
		Message: make([]byte, codec.MaxSize),
	}}}
	b, err := big.Bytes()
	require.NoError(t, err)
	parsed, err := ParseGenesis(b)
	require.NoError(t, err)
	require.Len(t, parsed.UTXOs[0].Message, codec.MaxSize)

	_, err = (&Genesis{Validators: []*Tx{nil}}).Bytes()
	require.ErrorIs(t, err, codec.ErrNilValue)
}

func TestUTXOErrors(t *testing.T) {
	t.Parallel()
	_, err := (&UTXO{}).Bytes()
	require.ErrorIs(t, err, codec.ErrNilValue)

	locked := &UTXO{UTXOID: utxo.UTXOID{TxID: ids.ID{1}, OutputIndex: 2}, AssetID: ids.ID{3}, Out: &LockOut{
		Locktime: 10, Out: &secp256k1fx.TransferOutput{Amount: 4, OutputOwners: secp256k1fx.OutputOwners{Addrs: []ids.ShortID{}}},
	}}
	b, err := locked.Bytes()
	require.NoError(t, err)
	parsed, err := ParseUTXO(b)
	require.NoError(t, err)
	require.Equal(t, locked, parsed)
	_, err = ParseUTXO(b[:len(b)-1])
	require.ErrorIs(t, err, codec.ErrTruncated)
}

// FuzzParseGenesis parses arbitrary bytes as a genesis: it never panics, and a genesis it accepts
// encodes back to the same bytes.
func FuzzParseGenesis(f *testing.F) {
	seeds := [][]byte{unhex(f, loadVectors(f).LocalNetwork.PGenesisBytesHex)}
	vectortest.FuzzRoundTrip(f, seeds, ParseGenesis, (*Genesis).Bytes)
}

// FuzzParseUTXO parses arbitrary bytes as a UTXO: it never panics, and a UTXO it accepts encodes
// back to the same bytes.
func FuzzParseUTXO(f *testing.F) {
	seeds := vectortest.HexSeeds(f, loadVectors(f).LocalNetwork.PGenesisUTXOs, "utxoBytesHex")
	vectortest.FuzzRoundTrip(f, seeds, ParseUTXO, (*UTXO).Bytes)
}
