package evm_test

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"log/slog"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/chains/engine/solo"
	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/config"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
	"github.com/cornice-node/cornice/vms/evm"
	"github.com/cornice-node/cornice/vms/internal/vectortest"
)

// The well-known local key and the address it controls, funded in the
// local C-Chain genesis.
const fundedKeyHex = "56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027"

var (
	fundedAddr = common.HexToAddress("0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC")
	chainID    = big.NewInt(43112)
	cChainID   = ids.ID{'C'}
)

// Contract bytecode, written by hand: the constructor stores 7 at slot 0;
// the runtime code, called with 32 bytes of data, stores them at slot 0 and
// logs them with topic 42, and always returns slot 0.
const (
	initCode    = "600760005560228060106000396000f3"
	runtimeCode = "361560165760003580600055600052602a60206000a15b60005460005260206000f3"
)

// cChainGenesis is the local network's C-Chain genesis.
func cChainGenesis(tb testing.TB) []byte {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "genesis_local.json"))
	require.NoError(tb, err)
	var g struct {
		CChainGenesis string `json:"cChainGenesis"`
	}
	require.NoError(tb, json.Unmarshal(b, &g))
	return []byte(g.CChainGenesis)
}

// node is a chain manager running the C-Chain over a database in dir, with
// its RPC served by an httptest server.
type node struct {
	routes *vectortest.Routes
	db     *storage.DB
	m      *chains.Manager
	endpoint
}

// endpoint is a chain's RPC handler served by an httptest server, with clients dialled to it:
// what the C-Chain and L1 test nodes talk to.
type endpoint struct {
	srv    *httptest.Server
	client *ethclient.Client
	rpc    *rpc.Client
}

// serveRPC serves h on a test server and dials it.
func serveRPC(t testing.TB, h http.Handler) endpoint {
	t.Helper()
	srv := httptest.NewServer(h)
	rc, err := rpc.Dial(srv.URL)
	require.NoError(t, err)
	return endpoint{srv: srv, client: ethclient.NewClient(rc), rpc: rc}
}

// close closes the clients and the server.
func (e endpoint) close() {
	e.rpc.Close()
	e.srv.Close()
}

func startNode(t *testing.T, dir string) *node {
	t.Helper()
	return startNodeGenesis(t, dir, cChainGenesis(t))
}

// startNodeGenesis is startNode with the C-Chain genesis genesis.
func startNodeGenesis(t *testing.T, dir string, genesis []byte) *node {
	t.Helper()
	return startNodeWith(t, dir, genesis, evm.Factory{})
}

// startNodeConfig is startNode with the C-Chain genesis genesis and the
// EVM config cfg.
func startNodeConfig(t *testing.T, dir string, genesis []byte, cfg evm.Config) *node {
	t.Helper()
	return startNodeWith(t, dir, genesis, evm.Factory{Config: cfg})
}

// startNodeWith is startNodeGenesis with the C-Chain made by f.
func startNodeWith(t *testing.T, dir string, genesis []byte, f evm.Factory) *node {
	t.Helper()
	log := slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelWarn}))
	db, err := storage.Open(dir, log)
	require.NoError(t, err)
	reg, err := chains.NewRegistry(db.Prefixed(storage.PrefixChains), log)
	require.NoError(t, err)
	r := &vectortest.Routes{}
	m, err := chains.NewManager(chains.ManagerConfig{NetworkID: 12345}, chains.ManagerDeps{
		DB: db, Registry: reg, Routes: r, Engines: solo.Factory{}, Clock: clock.Real{}, Log: log,
	})
	require.NoError(t, err)
	require.NoError(t, m.Create(t.Context(), chains.Spec{
		Chain:   chains.Chain{ID: cChainID, Name: "C-Chain"},
		Aliases: []string{"C"},
		Prefix:  storage.PrefixEVM,
		Factory: f,
		Genesis: genesis,
		Indexed: false,
	}))
	n := &node{routes: r, db: db, m: m, endpoint: serveRPC(t, r.Handler("/rpc"))}
	t.Cleanup(n.stop)
	return n
}

func (n *node) stop() {
	if n.m == nil {
		return
	}
	n.close()
	_ = n.m.Close()
	_ = n.db.Close()
	n.m = nil
}

func fundedKey(t testing.TB) *ecdsa.PrivateKey {
	k, err := crypto.HexToECDSA(fundedKeyHex)
	require.NoError(t, err)
	return k
}

// signTx signs a dynamic-fee transaction paying twice the current gas price.
func signTx(t *testing.T, n *node, key *ecdsa.PrivateKey, nonce uint64, to *common.Address, value *big.Int, gas uint64, data []byte) *types.Transaction {
	t.Helper()
	tip, err := n.client.SuggestGasTipCap(t.Context())
	require.NoError(t, err)
	price, err := n.client.SuggestGasPrice(t.Context())
	require.NoError(t, err)
	tx, err := types.SignNewTx(key, types.LatestSignerForChainID(chainID), &types.DynamicFeeTx{
		ChainID: chainID, Nonce: nonce, GasTipCap: tip, GasFeeCap: new(big.Int).Mul(price, big.NewInt(2)),
		Gas: gas, To: to, Value: value, Data: data,
	})
	require.NoError(t, err)
	return tx
}

// waitReceipt waits until tx is accepted and returns its receipt.
func waitReceipt(t *testing.T, n *node, h common.Hash) *types.Receipt {
	t.Helper()
	var r *types.Receipt
	require.Eventually(t, func() bool {
		var err error
		r, err = n.client.TransactionReceipt(context.Background(), h)
		return err == nil
	}, 20*time.Second, 5*time.Millisecond, "receipt of %s", h)
	return r
}

func TestChainInfo(t *testing.T) {
	t.Parallel()
	n := startNode(t, t.TempDir())
	ctx := t.Context()
	id, err := n.client.ChainID(ctx)
	require.NoError(t, err)
	require.Equal(t, chainID, id)
	num, err := n.client.BlockNumber(ctx)
	require.NoError(t, err)
	require.Zero(t, num)
	nv, err := n.client.NetworkID(ctx)
	require.NoError(t, err)
	require.Equal(t, chainID, nv)
	var version string
	require.NoError(t, n.rpc.Call(&version, "web3_clientVersion"))
	require.Equal(t, "cornice/"+config.Version, version)
	bal, err := n.client.BalanceAt(ctx, fundedAddr, nil)
	require.NoError(t, err)
	want, _ := new(big.Int).SetString("295BE96E64066972000000", 16)
	require.Equal(t, want, bal)
	genesis, err := n.client.BlockByNumber(ctx, big.NewInt(0))
	require.NoError(t, err)
	require.Equal(t, uint64(0x5FCB13D0), genesis.Time())
	tip, err := n.client.SuggestGasTipCap(ctx)
	require.NoError(t, err)
	require.Equal(t, big.NewInt(1_000_000_000), tip)
	price, err := n.client.SuggestGasPrice(ctx)
	require.NoError(t, err)
	require.Equal(t, big.NewInt(1_000_000_001), price) // ACP-176's 1 wei minimum base fee + 1 gwei tip
}

func TestTransfer(t *testing.T) {
	t.Parallel()
	n := startNode(t, t.TempDir())
	ctx := t.Context()
	key := fundedKey(t)
	to := common.HexToAddress("0x00000000000000000000000000000000000000aa")
	before, err := n.client.BalanceAt(ctx, fundedAddr, nil)
	require.NoError(t, err)
	value := big.NewInt(1_000_000_000_000_000_000)
	tx := signTx(t, n, key, 0, &to, value, 21_000, nil)
	require.NoError(t, n.client.SendTransaction(ctx, tx))

	r := waitReceipt(t, n, tx.Hash())
	require.Equal(t, types.ReceiptStatusSuccessful, r.Status)
	require.Equal(t, uint64(21_000), r.GasUsed)
	require.Equal(t, big.NewInt(1), r.BlockNumber)
	fee := new(big.Int).Mul(r.EffectiveGasPrice, big.NewInt(int64(r.GasUsed)))

	got, err := n.client.BalanceAt(ctx, to, nil)
	require.NoError(t, err)
	require.Equal(t, value, got)
	after, err := n.client.BalanceAt(ctx, fundedAddr, nil)
	require.NoError(t, err)
	require.Equal(t, new(big.Int).Sub(before, new(big.Int).Add(value, fee)), after)
	// The whole fee, base fee included, goes to the coinbase (l1-evm.md §3.9).
	cb, err := n.client.BalanceAt(ctx, evm.BlackholeAddr, nil)
	require.NoError(t, err)
	require.Equal(t, fee, cb)
	// The old state is still there (archive).
	old, err := n.client.BalanceAt(ctx, fundedAddr, big.NewInt(0))
	require.NoError(t, err)
	require.Equal(t, before, old)

	blk, err := n.client.BlockByNumber(ctx, nil)
	require.NoError(t, err)
	require.Equal(t, r.BlockHash, blk.Hash())
	require.Len(t, blk.Transactions(), 1)
	require.Equal(t, tx.Hash(), blk.Transactions()[0].Hash())
	require.Equal(t, evm.BlackholeAddr, blk.Coinbase())
	require.Equal(t, big.NewInt(1), blk.BaseFee()) // ACP-176 at an excess of 0
	got2, pending, err := n.client.TransactionByHash(ctx, tx.Hash())
	require.NoError(t, err)
	require.False(t, pending)
	require.Equal(t, tx.Hash(), got2.Hash())
	nonce, err := n.client.NonceAt(ctx, fundedAddr, nil)
	require.NoError(t, err)
	require.Equal(t, uint64(1), nonce)

	// The pipeline's block is the RLP of the go-ethereum block, its ID the hash.
	vm, ok := n.m.VM(cChainID)
	require.True(t, ok)
	cb1, err := vm.GetBlock(ctx, ids.ID(blk.Hash()))
	require.NoError(t, err)
	require.Equal(t, ids.ID(blk.Hash()), cb1.ID())
	parsed, err := vm.ParseBlock(ctx, cb1.Bytes())
	require.NoError(t, err)
	require.Equal(t, cb1.ID(), parsed.ID())
}

func TestContract(t *testing.T) {
	t.Parallel()
	n := startNode(t, t.TempDir())
	ctx := t.Context()
	key := fundedKey(t)

	deploy := signTx(t, n, key, 0, nil, nil, 200_000, common.FromHex(initCode+runtimeCode))
	require.NoError(t, n.client.SendTransaction(ctx, deploy))
	r := waitReceipt(t, n, deploy.Hash())
	require.Equal(t, types.ReceiptStatusSuccessful, r.Status)
	addr := crypto.CreateAddress(fundedAddr, 0)
	require.Equal(t, addr, r.ContractAddress)
	code, err := n.client.CodeAt(ctx, addr, nil)
	require.NoError(t, err)
	require.Equal(t, common.FromHex(runtimeCode), code)

	out, err := n.client.CallContract(ctx, ethereum.CallMsg{To: &addr}, nil)
	require.NoError(t, err)
	require.Equal(t, common.LeftPadBytes([]byte{7}, 32), out)

	data := common.LeftPadBytes([]byte{99}, 32)
	gas, err := n.client.EstimateGas(ctx, ethereum.CallMsg{From: fundedAddr, To: &addr, Data: data})
	require.NoError(t, err)
	require.Greater(t, gas, uint64(21_000))
	set := signTx(t, n, key, 1, &addr, nil, gas, data)
	require.NoError(t, n.client.SendTransaction(ctx, set))
	r = waitReceipt(t, n, set.Hash())
	require.Equal(t, types.ReceiptStatusSuccessful, r.Status)
	require.Len(t, r.Logs, 1)
	require.Equal(t, addr, r.Logs[0].Address)
	require.Equal(t, common.BigToHash(big.NewInt(42)), r.Logs[0].Topics[0])
	require.Equal(t, data, r.Logs[0].Data)
	require.Equal(t, r.BlockHash, r.Logs[0].BlockHash)

	out, err = n.client.CallContract(ctx, ethereum.CallMsg{To: &addr}, nil)
	require.NoError(t, err)
	require.Equal(t, data, out)
	slot, err := n.client.StorageAt(ctx, addr, common.Hash{}, nil)
	require.NoError(t, err)
	require.Equal(t, data, slot)
	// Historical state: the value before the set call.
	out, err = n.client.CallContract(ctx, ethereum.CallMsg{To: &addr}, big.NewInt(1))
	require.NoError(t, err)
	require.Equal(t, common.LeftPadBytes([]byte{7}, 32), out)
}

func TestOutOfOrderNonces(t *testing.T) {
	t.Parallel()
	n := startNode(t, t.TempDir())
	ctx := t.Context()
	key := fundedKey(t)
	to := common.HexToAddress("0x00000000000000000000000000000000000000bb")
	var txs []*types.Transaction
	for nonce := uint64(0); nonce < 6; nonce++ {
		txs = append(txs, signTx(t, n, key, nonce, &to, big.NewInt(int64(nonce+1)), 21_000, nil))
	}
	for i := len(txs) - 1; i >= 0; i-- {
		require.NoError(t, n.client.SendTransaction(ctx, txs[i]))
	}
	for _, tx := range txs {
		require.Equal(t, types.ReceiptStatusSuccessful, waitReceipt(t, n, tx.Hash()).Status)
	}
	nonce, err := n.client.NonceAt(ctx, fundedAddr, nil)
	require.NoError(t, err)
	require.Equal(t, uint64(6), nonce)
	bal, err := n.client.BalanceAt(ctx, to, nil)
	require.NoError(t, err)
	require.Equal(t, big.NewInt(21), bal)
}

func TestRejections(t *testing.T) {
	t.Parallel()
	n := startNode(t, t.TempDir())
	ctx := t.Context()
	key := fundedKey(t)
	to := common.HexToAddress("0x00000000000000000000000000000000000000cc")
	signer := types.LatestSignerForChainID(chainID)

	first := signTx(t, n, key, 0, &to, big.NewInt(1), 21_000, nil)
	require.NoError(t, n.client.SendTransaction(ctx, first))
	waitReceipt(t, n, first.Hash())

	// A future nonce waits in the pool: sending it again is already known,
	// and a replacement needs a 10% higher fee.
	future := signTx(t, n, key, 5, &to, big.NewInt(1), 21_000, nil)
	require.NoError(t, n.client.SendTransaction(ctx, future))
	same := types.MustSignNewTx(key, signer, &types.DynamicFeeTx{
		ChainID: chainID, Nonce: 5, GasTipCap: future.GasTipCap(), GasFeeCap: future.GasFeeCap(), Gas: 21_000, To: &to, Value: big.NewInt(2),
	})
	bumped := types.MustSignNewTx(key, signer, &types.DynamicFeeTx{
		ChainID: chainID, Nonce: 5, GasTipCap: new(big.Int).Mul(future.GasTipCap(), big.NewInt(2)),
		GasFeeCap: new(big.Int).Mul(future.GasFeeCap(), big.NewInt(2)), Gas: 21_000, To: &to, Value: big.NewInt(2),
	})
	poor, err := crypto.GenerateKey()
	require.NoError(t, err)

	tests := []struct {
		name string
		tx   *types.Transaction
		want string
	}{
		{"already known", future, "already known"},
		{"replacement underpriced", same, "replacement transaction underpriced"},
		{"nonce too low", signTx(t, n, key, 0, &to, big.NewInt(2), 21_000, nil), "nonce too low: address " + fundedAddr.Hex() + ", tx: 0 state: 1"},
		{"intrinsic gas", signTx(t, n, key, 1, &to, big.NewInt(1), 20_000, nil), "intrinsic gas too low: gas 20000, minimum needed 21000"},
		{"fee cap below base fee", types.MustSignNewTx(key, signer, &types.DynamicFeeTx{
			ChainID: chainID, Nonce: 1, GasTipCap: big.NewInt(0), GasFeeCap: big.NewInt(0), Gas: 21_000, To: &to,
		}), "max fee per gas less than block base fee: address " + fundedAddr.Hex() + ", maxFeePerGas: 0, baseFee: 1"},
		{"insufficient funds", signTx(t, n, poor, 0, &to, big.NewInt(1), 21_000, nil), "insufficient funds for gas * price + value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := n.client.SendTransaction(ctx, tt.tx)
			require.ErrorContains(t, err, tt.want)
		})
	}
	require.NoError(t, n.client.SendTransaction(ctx, bumped))
	got, pending, err := n.client.TransactionByHash(ctx, bumped.Hash())
	require.NoError(t, err)
	require.True(t, pending)
	require.Equal(t, bumped.Hash(), got.Hash())
}

func TestRestart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	n := startNode(t, dir)
	ctx := t.Context()
	key := fundedKey(t)
	to := common.HexToAddress("0x00000000000000000000000000000000000000dd")
	var last *types.Receipt
	for nonce := uint64(0); nonce < 3; nonce++ {
		tx := signTx(t, n, key, nonce, &to, big.NewInt(1000), 21_000, nil)
		require.NoError(t, n.client.SendTransaction(ctx, tx))
		last = waitReceipt(t, n, tx.Hash())
	}
	head, err := n.client.BlockNumber(ctx)
	require.NoError(t, err)
	fundedBal, err := n.client.BalanceAt(ctx, fundedAddr, nil)
	require.NoError(t, err)
	n.stop()

	n = startNode(t, dir)
	head2, err := n.client.BlockNumber(ctx)
	require.NoError(t, err)
	require.Equal(t, head, head2)
	bal, err := n.client.BalanceAt(ctx, to, nil)
	require.NoError(t, err)
	require.Equal(t, big.NewInt(3000), bal)
	got, err := n.client.BalanceAt(ctx, fundedAddr, nil)
	require.NoError(t, err)
	require.Equal(t, fundedBal, got)
	r, err := n.client.TransactionReceipt(ctx, last.TxHash)
	require.NoError(t, err)
	require.Equal(t, last.BlockHash, r.BlockHash)
	old, err := n.client.BalanceAt(ctx, to, big.NewInt(1))
	require.NoError(t, err)
	require.Equal(t, big.NewInt(1000), old)

	// The chain goes on after the restart.
	tx := signTx(t, n, key, 3, &to, big.NewInt(1000), 21_000, nil)
	require.NoError(t, n.client.SendTransaction(ctx, tx))
	require.Equal(t, head+1, waitReceipt(t, n, tx.Hash()).BlockNumber.Uint64())
}

func TestRevert(t *testing.T) {
	t.Parallel()
	n := startNode(t, t.TempDir())
	// Init code that reverts with Error("no"): eth_call reports code 3 with
	// the reason and the data.
	reason := "08c379a0" + // Error(string)
		"0000000000000000000000000000000000000000000000000000000000000020" +
		"0000000000000000000000000000000000000000000000000000000000000002" +
		"6e6f000000000000000000000000000000000000000000000000000000000000"
	data := common.FromHex(reason)
	// PUSH1 len; DUP1; PUSH1 11; PUSH1 0; CODECOPY; PUSH1 0; REVERT; data
	code := append([]byte{0x60, byte(len(data)), 0x80, 0x60, 11, 0x60, 0, 0x39, 0x60, 0, 0xfd}, data...)
	var res hexutil.Bytes
	err := n.rpc.Call(&res, "eth_call", map[string]any{"data": hexutil.Bytes(code)}, "latest")
	require.Error(t, err)
	var de rpc.DataError
	require.ErrorAs(t, err, &de)
	require.Equal(t, "execution reverted: no", err.Error())
	require.Equal(t, "0x"+reason, de.ErrorData())
}
