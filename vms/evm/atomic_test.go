package evm_test

import (
	"context"
	"errors"
	"math/big"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rlp"
	"github.com/stretchr/testify/require"

	shared "github.com/cornice-node/cornice/chains/atomic"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/jsonrpc"
	"github.com/cornice-node/cornice/storage"
	"github.com/cornice-node/cornice/vms/components/utxo"
	"github.com/cornice-node/cornice/vms/evm"
	"github.com/cornice-node/cornice/vms/evm/atomic"
	xtxs "github.com/cornice-node/cornice/vms/exchange/txs"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
	"github.com/cornice-node/cornice/wallet"
)

var (
	avaxAssetID = ids.ID{'A', 'V', 'A', 'X'}
	xChainID    = ids.ID{'X'}
	pChainID    = ids.Empty
	// atomicBaseFee is the base fee the test's txs pay for: far above the
	// chain's, so they are never short.
	atomicBaseFee = big.NewInt(25_000_000_000)
)

func atomicConfig() evm.Config {
	return evm.Config{Atomic: &evm.AtomicConfig{AVAXAssetID: avaxAssetID, XChainID: xChainID}}
}

// avax calls the C-Chain's avax service.
func avax(t *testing.T, n *node, method string, params, result any) error {
	t.Helper()
	srv := httptest.NewServer(n.routes.Handler("/avax"))
	defer srv.Close()
	return jsonrpc.NewClient(srv.URL, nil).Call(t.Context(), "", "avax."+method, params, result)
}

// rpcMessage returns the message of a JSON-RPC error reply.
func rpcMessage(t *testing.T, err error) string {
	t.Helper()
	var e *jsonrpc.Error
	require.True(t, errors.As(err, &e), "not a JSON-RPC error: %v", err)
	return e.Message
}

// exportFromX puts into db's shared memory, as an accepted X-Chain block would, a UTXO of amount
// AVAX owned by owner that X exported to chain cChain, and returns it.
func exportFromX(t testing.TB, db *storage.DB, cChain, txID ids.ID, amount uint64, owner ids.ShortID) *xtxs.UTXO {
	t.Helper()
	ux := &xtxs.UTXO{
		UTXOID:  utxo.UTXOID{TxID: txID},
		AssetID: avaxAssetID,
		Out:     &secp256k1fx.TransferOutput{Amount: amount, OutputOwners: secp256k1fx.OutputOwners{Threshold: 1, Addrs: []ids.ShortID{owner}}},
	}
	b, err := ux.Bytes()
	require.NoError(t, err)
	batch := db.NewBatch()
	defer batch.Close()
	x := shared.New(db.Prefixed(storage.PrefixAtomic)).For(xChainID)
	require.NoError(t, x.Apply(batch, map[ids.ID]*shared.Requests{cChain: {Put: []shared.Element{{Key: ux.InputID(), Value: b, Traits: []ids.ShortID{owner}}}}}))
	require.NoError(t, batch.Commit())
	return ux
}

type statusReply struct {
	Status      string  `json:"status"`
	BlockHeight *string `json:"blockHeight"`
}

// issueAndAccept issues tx with avax.issueTx and waits for it to be accepted; it returns the
// height of its block.
func issueAndAccept(t *testing.T, n *node, tx *wallet.CTx) string {
	t.Helper()
	var reply struct {
		TxID ids.ID `json:"txID"`
	}
	enc, err := ids.Hex.Encode(tx.Tx.Bytes())
	require.NoError(t, err)
	require.NoError(t, avax(t, n, "issueTx", map[string]string{"tx": enc, "encoding": "hex"}, &reply))
	require.Equal(t, tx.Tx.ID(), reply.TxID)
	var st statusReply
	require.Eventually(t, func() bool {
		st = statusReply{}
		return avax(t, n, "getAtomicTxStatus", map[string]ids.ID{"txID": tx.Tx.ID()}, &st) == nil && st.Status == "Accepted"
	}, 20*time.Second, 5*time.Millisecond)
	require.NotNil(t, st.BlockHeight)
	return *st.BlockHeight
}

// TestAtomicImportExport moves AVAX from the X-Chain's shared memory into an EVM balance and back
// out to the X-Chain, refuses the reference's bad inputs with its texts, and finds the txs again
// after a restart.
func TestAtomicImportExport(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	n := startNodeConfig(t, dir, cChainGenesis(t), atomicConfig())
	ctx := t.Context()
	ewoq, err := wallet.ParseKey(fundedKeyHex)
	require.NoError(t, err)
	priv, err := crypto.GenerateKey()
	require.NoError(t, err)
	alice := wallet.NewKey(priv)
	b := wallet.CBuilder{NetworkID: 12345, ChainID: cChainID, AVAXAssetID: avaxAssetID}

	// X exported 5 AVAX to alice; getUTXOs lists it with sourceChain X.
	const five = 5_000_000_000
	ux := exportFromX(t, n.db, cChainID, ids.ID{1}, five, alice.Address())
	var utxos struct {
		NumFetched string   `json:"numFetched"`
		UTXOs      []string `json:"utxos"`
	}
	cAddr := alice.ChainAddress("C", 12345)
	require.NoError(t, avax(t, n, "getUTXOs", map[string]any{"addresses": []string{cAddr}, "sourceChain": "X", "encoding": "hex"}, &utxos))
	require.Equal(t, "1", utxos.NumFetched)
	want, err := ux.Bytes()
	require.NoError(t, err)
	got, err := ids.Hex.Decode(utxos.UTXOs[0])
	require.NoError(t, err)
	require.Equal(t, want, got)
	err = avax(t, n, "getUTXOs", map[string]any{"addresses": []string{cAddr}}, nil)
	require.Equal(t, "no source chain provided", rpcMessage(t, err))
	err = avax(t, n, "getUTXOs", map[string]any{"addresses": []string{cAddr}, "sourceChain": "Q"}, nil)
	require.Equal(t, `problem parsing source chainID "Q": there is no ID with alias: Q`, rpcMessage(t, err))

	// Import: alice's EVM balance is credited the amount less the fee, in wei.
	imp, err := b.Import(alice, xChainID, []*xtxs.UTXO{ux}, alice.EthAddress(), atomicBaseFee)
	require.NoError(t, err)
	height := issueAndAccept(t, n, imp)
	bal, err := n.client.BalanceAt(ctx, alice.EthAddress(), nil)
	require.NoError(t, err)
	require.Equal(t, new(big.Int).Mul(big.NewInt(int64(five-imp.Fee)), big.NewInt(1e9)), bal)
	require.Greater(t, imp.Fee, uint64(0))

	// Importing it again, or from a chain that exported nothing, is refused.
	enc, err := ids.Hex.Encode(imp.Tx.Bytes())
	require.NoError(t, err)
	err = avax(t, n, "issueTx", map[string]string{"tx": enc, "encoding": "hex"}, nil)
	require.Equal(t, "failed to fetch import UTXOs from "+xChainID.String()+" due to: not found", rpcMessage(t, err))
	fromP, err := b.Import(alice, pChainID, []*xtxs.UTXO{ux}, alice.EthAddress(), atomicBaseFee)
	require.NoError(t, err)
	enc, err = ids.Hex.Encode(fromP.Tx.Bytes())
	require.NoError(t, err)
	err = avax(t, n, "issueTx", map[string]string{"tx": enc, "encoding": "hex"}, nil)
	require.Equal(t, "failed to fetch import UTXOs from 11111111111111111111111111111111LpoYY due to: not found", rpcMessage(t, err))

	// Export above the balance is refused; nothing changes.
	over, err := b.Export(alice, 0, xChainID, five, alice.Address(), atomicBaseFee)
	require.NoError(t, err)
	enc, err = ids.Hex.Encode(over.Tx.Bytes())
	require.NoError(t, err)
	err = avax(t, n, "issueTx", map[string]string{"tx": enc, "encoding": "hex"}, nil)
	require.Equal(t, "insufficient funds", rpcMessage(t, err))

	// Export 1 AVAX of ewoq's to alice on X: the balance falls by it and the fee, the nonce
	// rises, and X's shared memory holds the UTXO.
	nonce, err := n.client.NonceAt(ctx, fundedAddr, nil)
	require.NoError(t, err)
	before, err := n.client.BalanceAt(ctx, fundedAddr, nil)
	require.NoError(t, err)
	const one = 1_000_000_000
	exp, err := b.Export(ewoq, nonce, xChainID, one, alice.Address(), atomicBaseFee)
	require.NoError(t, err)
	issueAndAccept(t, n, exp)
	after, err := n.client.BalanceAt(ctx, fundedAddr, nil)
	require.NoError(t, err)
	require.Equal(t, new(big.Int).Mul(big.NewInt(int64(one+exp.Fee)), big.NewInt(1e9)), new(big.Int).Sub(before, after))
	nonceAfter, err := n.client.NonceAt(ctx, fundedAddr, nil)
	require.NoError(t, err)
	require.Equal(t, nonce+1, nonceAfter)
	exported := exp.Tx.ExportedUTXOs()[0]
	wantUTXO, err := exported.Bytes()
	require.NoError(t, err)
	x := shared.New(n.db.Prefixed(storage.PrefixAtomic)).For(xChainID)
	values, err := x.Get(cChainID, []ids.ID{exported.InputID()})
	require.NoError(t, err)
	require.Equal(t, wantUTXO, values[0])

	// getAtomicTx: the signed bytes in hex with the block's height; no JSON form.
	var txReply struct {
		Tx          string `json:"tx"`
		Encoding    string `json:"encoding"`
		BlockHeight string `json:"blockHeight"`
	}
	require.NoError(t, avax(t, n, "getAtomicTx", map[string]any{"txID": imp.Tx.ID(), "encoding": "hex"}, &txReply))
	wantHex, err := ids.Hex.Encode(imp.Tx.Bytes())
	require.NoError(t, err)
	require.Equal(t, wantHex, txReply.Tx)
	require.Equal(t, "hex", txReply.Encoding)
	require.Equal(t, height, txReply.BlockHeight)
	err = avax(t, n, "getAtomicTx", map[string]any{"txID": imp.Tx.ID(), "encoding": "json"}, nil)
	require.Equal(t, "unsupported encoding in method", rpcMessage(t, err))
	err = avax(t, n, "getAtomicTx", map[string]any{"txID": ids.ID{9}}, nil)
	require.Equal(t, "could not find tx "+ids.ID{9}.String(), rpcMessage(t, err))
	err = avax(t, n, "getAtomicTx", map[string]any{"txID": ids.Empty}, nil)
	require.Equal(t, "nil transaction ID", rpcMessage(t, err))
	var st statusReply
	require.NoError(t, avax(t, n, "getAtomicTxStatus", map[string]any{"txID": ids.ID{9}}, &st))
	require.Equal(t, statusReply{Status: "Unknown"}, st)

	// After a restart the txs, their heights and the balances are there, and the chain goes on.
	n.stop()
	n = startNodeConfig(t, dir, cChainGenesis(t), atomicConfig())
	st = statusReply{}
	require.NoError(t, avax(t, n, "getAtomicTxStatus", map[string]any{"txID": imp.Tx.ID()}, &st))
	require.Equal(t, "Accepted", st.Status)
	require.Equal(t, height, *st.BlockHeight)
	bal2, err := n.client.BalanceAt(context.Background(), alice.EthAddress(), nil)
	require.NoError(t, err)
	require.Equal(t, bal, bal2)
	blk, err := n.client.BlockByNumber(ctx, nil)
	require.NoError(t, err)
	require.NotEqual(t, common.Hash{}, blk.MixDigest(), "the export's block commits to its atomic txs")
	batch, err := atomic.BatchBytes([]*atomic.Tx{exp.Tx})
	require.NoError(t, err)
	require.Equal(t, crypto.Keccak256Hash(batch), blk.MixDigest())
	var fields struct {
		ExtDataGasUsed hexutil.Uint64 `json:"extDataGasUsed"`
		ExtDataHash    common.Hash    `json:"extDataHash"`
		BlockExtraData hexutil.Bytes  `json:"blockExtraData"`
	}
	require.NoError(t, n.rpc.Call(&fields, "eth_getBlockByNumber", "latest", false))
	require.Equal(t, hexutil.Uint64(exp.Tx.GasUsed()), fields.ExtDataGasUsed)
	require.Equal(t, hexutil.Bytes(batch), fields.BlockExtraData)
	rlpBatch, err := rlp.EncodeToBytes(batch)
	require.NoError(t, err)
	require.Equal(t, crypto.Keccak256Hash(rlpBatch), fields.ExtDataHash)
	nonce, err = n.client.NonceAt(ctx, fundedAddr, nil)
	require.NoError(t, err)
	again, err := b.Export(ewoq, nonce, xChainID, one, alice.Address(), atomicBaseFee)
	require.NoError(t, err)
	issueAndAccept(t, n, again)
}

// TestAvaxVersion checks that avax.version answers as the reference v1.14.2, whose C-Chain avax
// service no longer has the deprecated method: gorilla's unknown-method error (node-api.md §1.2).
func TestAvaxVersion(t *testing.T) {
	t.Parallel()
	n := startNodeConfig(t, t.TempDir(), cChainGenesis(t), atomicConfig())
	err := avax(t, n, "version", struct{}{}, new(struct{}))
	var e *jsonrpc.Error
	require.ErrorAs(t, err, &e)
	require.Equal(t, `rpc: can't find method "avax.Version"`, e.Message)
	require.Equal(t, -32000, e.Code)
}
