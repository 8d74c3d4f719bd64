package e2e_test

import (
	"context"
	"math/big"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/config"
	"github.com/cornice-node/cornice/ids"
)

// devNode is a node whose EVM chains serve the developer methods (issue #16), with an rpc client
// and an ethclient on its C-Chain.
type devNode struct {
	*xNode
	rpc *rpc.Client
	eth *ethclient.Client
}

// startDevNode starts a node on dir with the config changed by modify, and dials its C-Chain.
func startDevNode(t *testing.T, dir string, modify func(*config.Config)) *devNode {
	t.Helper()
	d := &devNode{}
	dialDev(t, d, startXNodeWith(t, dir, modify))
	return d
}

// dialDev makes d the C-Chain clients of xn.
func dialDev(t testing.TB, d *devNode, xn *xNode) {
	t.Helper()
	c, err := rpc.DialContext(t.Context(), xn.base+"/ext/bc/C/rpc")
	require.NoError(t, err)
	t.Cleanup(c.Close)
	d.xNode, d.rpc, d.eth = xn, c, ethclient.NewClient(c)
}

// call calls method and fails the test on an error.
func (d *devNode) call(t testing.TB, result any, method string, args ...any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), acceptWait)
	defer cancel()
	require.NoError(t, d.rpc.CallContext(ctx, result, method, args...), method)
}

// callErr calls method, which must fail, and returns its error.
func (d *devNode) callErr(t testing.TB, method string, args ...any) rpc.Error {
	t.Helper()
	var out any
	err := d.rpc.CallContext(t.Context(), &out, method, args...)
	require.Error(t, err, method)
	var rerr rpc.Error
	require.ErrorAs(t, err, &rerr, method)
	return rerr
}

func (d *devNode) height(t testing.TB) uint64 {
	t.Helper()
	return headOf(t, d.eth)
}

func (d *devNode) balance(t testing.TB, addr common.Address) *big.Int {
	t.Helper()
	return balanceOf(t, d.eth, addr)
}

// indexLast returns the index's last accepted C-Chain block: its ID and index.
func (d *devNode) indexLast(t testing.TB) (string, string) {
	t.Helper()
	var last struct {
		ID    string `json:"id"`
		Index string `json:"index"`
	}
	d.xNode.call("/ext/index/C/block", "index.getLastAccepted", map[string]string{"encoding": "hexnc"}, &last)
	return last.ID, last.Index
}

var devAddr = common.HexToAddress("0x1000000000000000000000000000000000000001")

// With the developer methods off (--dev-methods=false, or a node with bootstrap peers), every
// one of them answers "method not found" as any unknown method does.
func TestSwitchOff(t *testing.T) {
	t.Parallel()
	d := startDevNode(t, t.TempDir(), func(c *config.Config) { c.DevMethods = config.SwitchOff })
	for _, m := range []string{"anvil_setBalance", "hardhat_impersonateAccount", "evm_mine", "evm_snapshot", "anvil_nodeInfo", "eth_sendUnsignedTransaction"} {
		err := d.callErr(t, m)
		require.Equal(t, -32601, err.ErrorCode(), m)
		require.Equal(t, "the method "+m+" does not exist/is not available", err.Error(), m)
	}
	// eth_sendTransaction answers as before: the node holds no keys.
	err := d.callErr(t, "eth_sendTransaction", map[string]any{"from": devAddr, "to": devAddr})
	require.Equal(t, "unknown account", err.Error())
}

// The methods that change nothing but the node's settings answer as anvil does.
func TestDevMethodsSettings(t *testing.T) {
	t.Parallel()
	d := startDevNode(t, t.TempDir(), func(*config.Config) {})
	var auto bool
	d.call(t, &auto, "anvil_getAutomine")
	require.True(t, auto)
	d.call(t, &auto, "hardhat_getAutomine")
	require.True(t, auto)
	var null any
	for _, c := range []struct {
		method string
		args   []any
	}{
		{"anvil_setLoggingEnabled", []any{true}},
		{"hardhat_setLoggingEnabled", []any{true}},
		{"anvil_setBlockTimestampInterval", []any{5}},
		{"anvil_impersonateAccount", []any{devAddr}},
		{"hardhat_stopImpersonatingAccount", []any{devAddr}},
		{"anvil_autoImpersonateAccount", []any{false}},
		{"anvil_dropAllTransactions", nil},
		{"anvil_setCoinbase", []any{devAddr}},
		{"anvil_setNextBlockBaseFeePerGas", []any{"0x1"}},
		{"evm_setIntervalMining", []any{0}},
		{"evm_setAutomine", []any{true}},
	} {
		d.call(t, &null, c.method, c.args...)
		require.Nil(t, null, c.method)
	}
	var removed bool
	d.call(t, &removed, "anvil_removeBlockTimestampInterval")
	require.True(t, removed)
	d.call(t, &removed, "anvil_removeBlockTimestampInterval")
	require.False(t, removed)
	var dropped *common.Hash
	d.call(t, &dropped, "anvil_dropTransaction", common.Hash{2})
	require.Nil(t, dropped)

	err := d.callErr(t, "anvil_setMinGasPrice", "0x1")
	require.Equal(t, -32602, err.ErrorCode())
	require.Equal(t, "anvil_setMinGasPrice is not supported when EIP-1559 is active", err.Error())

	var info map[string]any
	d.call(t, &info, "anvil_nodeInfo")
	require.Equal(t, "0x0", info["currentBlockNumber"])
	require.Equal(t, float64(43112), info["environment"].(map[string]any)["chainId"])
	require.Equal(t, "fees", info["transactionOrder"])
	var meta map[string]any
	d.call(t, &meta, "anvil_metadata")
	require.Equal(t, config.Current(), meta["clientVersion"])
	require.Equal(t, float64(0), meta["latestBlockNumber"])
	require.Nil(t, meta["forkedNetwork"])
	d.call(t, &meta, "hardhat_metadata")
	require.Equal(t, float64(43112), meta["chainId"])
}

// State edits take effect at once, for reads and calls, go into the next block, and survive a
// restart; mining builds empty blocks on demand; snapshots and reverts roll the chain and its
// index back.
func TestDevMethodsStateAndHistory(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	d := startDevNode(t, dir, func(*config.Config) {})
	var null any

	d.call(t, &null, "anvil_setBalance", devAddr, "0x10")
	require.Equal(t, big.NewInt(16), d.balance(t, devAddr))
	d.call(t, &null, "hardhat_setBalance", devAddr, "1000")
	require.Equal(t, big.NewInt(1000), d.balance(t, devAddr))
	d.call(t, &null, "anvil_setNonce", devAddr, 5)
	n, err := d.eth.NonceAt(t.Context(), devAddr, nil)
	require.NoError(t, err)
	require.Equal(t, uint64(5), n)
	// PUSH1 0x2a PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN: returns 42.
	code := common.FromHex("0x602a60005260206000f3")
	d.call(t, &null, "anvil_setCode", devAddr, hexutil.Bytes(code))
	got, err := d.eth.CodeAt(t.Context(), devAddr, nil)
	require.NoError(t, err)
	require.Equal(t, code, got)
	var out hexutil.Bytes
	d.call(t, &out, "eth_call", map[string]any{"to": devAddr}, "latest")
	require.Equal(t, common.BigToHash(big.NewInt(42)).Bytes(), []byte(out))
	var set bool
	d.call(t, &set, "anvil_setStorageAt", devAddr, "0x1", common.BigToHash(big.NewInt(7)))
	require.True(t, set)
	slot, err := d.eth.StorageAt(t.Context(), devAddr, common.BigToHash(big.NewInt(1)), nil)
	require.NoError(t, err)
	require.Equal(t, common.BigToHash(big.NewInt(7)).Bytes(), slot)
	require.Equal(t, uint64(0), d.height(t), "edits build no block")

	// Mining: evm_mine answers "0x0", anvil_mine null; both build empty blocks.
	var mined string
	d.call(t, &mined, "evm_mine")
	require.Equal(t, "0x0", mined)
	d.call(t, &null, "anvil_mine", "0x3")
	require.Equal(t, uint64(4), d.height(t))
	require.Equal(t, big.NewInt(1000), d.balance(t, devAddr), "edits are in the blocks after them")
	id, idx := d.indexLast(t)
	require.Equal(t, "3", idx)

	// Snapshot at height 4, then more blocks and an edit; revert goes back.
	var snap string
	d.call(t, &snap, "evm_snapshot")
	head4, err := d.eth.HeaderByNumber(t.Context(), nil)
	require.NoError(t, err)
	d.call(t, &null, "hardhat_mine", 2)
	d.call(t, &null, "anvil_setBalance", devAddr, "0x1")
	require.Equal(t, uint64(6), d.height(t))
	var ok bool
	d.call(t, &ok, "evm_revert", snap)
	require.True(t, ok)
	require.Equal(t, uint64(4), d.height(t))
	require.Equal(t, big.NewInt(1000), d.balance(t, devAddr))
	_, err = d.eth.HeaderByNumber(t.Context(), big.NewInt(5))
	require.Error(t, err, "block 5 is gone")
	gotID, gotIdx := d.indexLast(t)
	require.Equal(t, id, gotID, "the index is truncated to the snapshot's block")
	require.Equal(t, "3", gotIdx)
	require.Equal(t, ids.ID(head4.Hash()).String(), gotID)
	// Reverting twice, or to an unknown ID, answers false and changes nothing.
	d.call(t, &ok, "evm_revert", snap)
	require.False(t, ok)
	d.call(t, &ok, "evm_revert", "0x999")
	require.False(t, ok)
	require.Equal(t, uint64(4), d.height(t))

	// New blocks after a revert continue the chain and the index.
	d.call(t, &null, "evm_mine")
	require.Equal(t, uint64(5), d.height(t))
	_, gotIdx = d.indexLast(t)
	require.Equal(t, "4", gotIdx)

	// A restart keeps the edits and the rolled-back chain.
	d.call(t, &null, "anvil_setBalance", devAddr, "0x77")
	d.stop()
	d = startDevNode(t, dir, func(*config.Config) {})
	require.Equal(t, uint64(5), d.height(t))
	require.Equal(t, big.NewInt(0x77), d.balance(t, devAddr))
	got, err = d.eth.CodeAt(t.Context(), devAddr, nil)
	require.NoError(t, err)
	require.Equal(t, code, got)

	// anvil_reset goes back to the genesis.
	d.call(t, &null, "anvil_reset")
	require.Equal(t, uint64(0), d.height(t))
	require.Zero(t, d.balance(t, devAddr).Sign())
	d.call(t, &null, "evm_mine")
	d.call(t, &null, "hardhat_reset", map[string]any{"forking": map[string]any{}}) // viem's reset()
	require.Equal(t, uint64(0), d.height(t))
	err2 := d.callErr(t, "anvil_reset", map[string]any{"forking": map[string]any{"jsonRpcUrl": "http://localhost:1"}})
	require.Equal(t, -32602, err2.ErrorCode())
	require.Equal(t, "forking is not supported: anvil_reset resets the chain to its genesis", err2.Error())
}

// Bad input (issue #16 §6): a clear error each, and nothing changed.
func TestDevMethodsBadInput(t *testing.T) {
	t.Parallel()
	d := startDevNode(t, t.TempDir(), func(*config.Config) {})
	var null any
	d.call(t, &null, "anvil_setBalance", devAddr, "0x5")

	err := d.callErr(t, "anvil_setCode", devAddr, "0x601")
	require.Equal(t, -32602, err.ErrorCode())
	require.Equal(t, `invalid argument 1: invalid hex "0x601": odd number of digits`, err.Error())
	err = d.callErr(t, "anvil_setBalance", devAddr, "0x1"+string(make([]byte, 0))+"0000000000000000000000000000000000000000000000000000000000000000")
	require.Equal(t, -32602, err.ErrorCode())
	require.Equal(t, "invalid argument 1: number 0x10000000000000000000000000000000000000000000000000000000000000000 is above 2^256-1", err.Error())
	require.Equal(t, big.NewInt(5), d.balance(t, devAddr))

	head, herr := d.eth.HeaderByNumber(t.Context(), nil)
	require.NoError(t, herr)
	past := strconv.FormatUint(head.Time-1, 10)
	err = d.callErr(t, "evm_setNextBlockTimestamp", head.Time-1)
	require.Equal(t, -32602, err.ErrorCode())
	require.Equal(t, "Timestamp error: "+past+" is lower than previous block's timestamp", err.Error())
	err = d.callErr(t, "evm_mine", head.Time-1)
	require.Equal(t, "Timestamp error: "+past+" is lower than previous block's timestamp", err.Error())
	require.Equal(t, uint64(0), d.height(t))

	err = d.callErr(t, "anvil_loadState", "0x1f8b0000")
	require.Equal(t, -32602, err.ErrorCode())
	require.Equal(t, "Failed to decode state dump", err.Error())
	err = d.callErr(t, "anvil_loadState", hexutil.Bytes("not json"))
	require.Equal(t, "Failed to decode state dump", err.Error())
	require.Equal(t, big.NewInt(5), d.balance(t, devAddr))
}

// Time: evm_increaseTime and evm_setNextBlockTimestamp move block times forward, never back.
func TestDevMethodsTime(t *testing.T) {
	t.Parallel()
	d := startDevNode(t, t.TempDir(), func(*config.Config) {})
	var null any
	future := uint64(time.Now().Add(100 * 24 * time.Hour).Unix())
	d.call(t, &null, "evm_setNextBlockTimestamp", future)
	d.call(t, &null, "evm_mine")
	h, err := d.eth.HeaderByNumber(t.Context(), nil)
	require.NoError(t, err)
	require.Equal(t, future, h.Time)
	var offset int64
	d.call(t, &offset, "evm_increaseTime", 3600)
	d.call(t, &null, "evm_mine")
	h2, err := d.eth.HeaderByNumber(t.Context(), nil)
	require.NoError(t, err)
	require.GreaterOrEqual(t, h2.Time, future+3600)
	d.call(t, &null, "evm_mine", map[string]any{"timestamp": h2.Time + 10, "blocks": 2})
	h3, err := d.eth.HeaderByNumber(t.Context(), nil)
	require.NoError(t, err)
	require.Equal(t, uint64(4), h3.Number.Uint64())
	require.GreaterOrEqual(t, h3.Time, h2.Time+10)
	d.call(t, &null, "anvil_setBlockTimestampInterval", 100)
	d.call(t, &null, "anvil_mine", 2)
	h4, err := d.eth.HeaderByNumber(t.Context(), nil)
	require.NoError(t, err)
	require.Equal(t, h3.Time+200, h4.Time)
	var removed bool
	d.call(t, &removed, "anvil_removeBlockTimestampInterval")
	require.True(t, removed)
	// anvil_mine's interval: each block that many seconds after the one before.
	d.call(t, &null, "anvil_mine", 2, 50)
	h5, err := d.eth.HeaderByNumber(t.Context(), nil)
	require.NoError(t, err)
	h6, err := d.eth.HeaderByNumber(t.Context(), new(big.Int).Sub(h5.Number, big.NewInt(1)))
	require.NoError(t, err)
	require.Equal(t, h6.Time+50, h5.Time)
	require.GreaterOrEqual(t, h6.Time, h4.Time)
}

// The names are anvil's: a method anvil serves under one namespace only is not served under the
// others.
func TestDevMethodsNames(t *testing.T) {
	t.Parallel()
	d := startDevNode(t, t.TempDir(), func(*config.Config) {})
	for _, m := range []string{"hardhat_snapshot", "hardhat_increaseTime", "evm_setBalance", "hardhat_nodeInfo", "evm_setBlockTimestampInterval", "hardhat_setBlockTimestampInterval", "evm_metadata"} {
		require.Equal(t, -32601, d.callErr(t, m).ErrorCode(), m)
	}
	var out any
	for _, m := range []string{"anvil_snapshot", "evm_snapshot", "anvil_nodeInfo", "anvil_metadata", "hardhat_metadata", "anvil_getAutomine", "hardhat_getAutomine"} {
		d.call(t, &out, m)
	}
}

// Transactions under the developer methods, on the C-Chain and an L1: automine off keeps them in
// the pool until a mine, dropTransaction removes one, impersonated accounts send without a key,
// header overrides reach the next block, interval mining builds blocks by itself, dumps load into
// another chain, and a snapshot ID of one chain is unknown to another.
func TestDevMethodsTxsAndL1(t *testing.T) {
	t.Parallel()
	n := startL1Node(t, nil)
	l1 := n.createL1(l1Genesis(t, 7761))
	c, err := rpc.DialContext(t.Context(), n.xn.base+"/ext/bc/C/rpc")
	require.NoError(t, err)
	t.Cleanup(c.Close)
	d := &devNode{xNode: n.xn, rpc: c, eth: ethclient.NewClient(c)}
	l := &devNode{xNode: n.xn, rpc: l1.rc, eth: l1.eth}
	var null any

	// Automine off: a signed transfer waits in the pool; dropTransaction removes it; a mine takes
	// the one sent again.
	key, err := crypto.HexToECDSA(localKeyHex)
	require.NoError(t, err)
	chainID, err := d.eth.ChainID(t.Context())
	require.NoError(t, err)
	transfer := func(nonce uint64) *types.Transaction {
		tx, err := types.SignNewTx(key, types.LatestSignerForChainID(chainID), &types.DynamicFeeTx{
			ChainID: chainID, Nonce: nonce, GasTipCap: big.NewInt(1), GasFeeCap: big.NewInt(1e12), Gas: 21000, To: &devAddr, Value: big.NewInt(3),
		})
		require.NoError(t, err)
		return tx
	}
	d.call(t, &null, "evm_setAutomine", false)
	var auto bool
	d.call(t, &auto, "hardhat_getAutomine")
	require.False(t, auto)
	tx := transfer(0)
	require.NoError(t, d.eth.SendTransaction(t.Context(), tx))
	var status map[string]hexutil.Uint
	d.call(t, &status, "txpool_status")
	require.Equal(t, hexutil.Uint(1), status["pending"])
	require.Equal(t, uint64(0), d.height(t))
	var dropped *common.Hash
	d.call(t, &dropped, "anvil_dropTransaction", tx.Hash())
	require.Equal(t, tx.Hash(), *dropped)
	d.call(t, &status, "txpool_status")
	require.Equal(t, hexutil.Uint(0), status["pending"])
	require.NoError(t, d.eth.SendTransaction(t.Context(), tx))
	d.call(t, &null, "anvil_mine")
	receipt, err := d.eth.TransactionReceipt(t.Context(), tx.Hash())
	require.NoError(t, err)
	require.Equal(t, uint64(1), receipt.BlockNumber.Uint64())
	d.call(t, &null, "evm_setAutomine", true)

	// Impersonation: eth_sendTransaction from the account needs no key, until it stops.
	other := common.HexToAddress("0x2000000000000000000000000000000000000002")
	d.call(t, &null, "anvil_setBalance", devAddr, "0xde0b6b3a7640000")
	d.call(t, &null, "anvil_impersonateAccount", devAddr)
	var h common.Hash
	d.call(t, &h, "eth_sendTransaction", map[string]any{"from": devAddr, "to": other, "value": "0x5"})
	waitReceipt := func(d *devNode, h common.Hash) *types.Receipt {
		var r *types.Receipt
		require.Eventually(t, func() bool {
			r, err = d.eth.TransactionReceipt(t.Context(), h)
			return err == nil
		}, acceptWait, 10*time.Millisecond)
		return r
	}
	require.Equal(t, types.ReceiptStatusSuccessful, waitReceipt(d, h).Status)
	require.Equal(t, big.NewInt(5), d.balance(t, other))
	var rtx map[string]any
	d.call(t, &rtx, "eth_getTransactionByHash", h)
	require.Equal(t, strings.ToLower(devAddr.Hex()), rtx["from"])
	d.call(t, &null, "hardhat_stopImpersonatingAccount", devAddr)
	require.Equal(t, "unknown account", d.callErr(t, "eth_sendTransaction", map[string]any{"from": devAddr, "to": other, "value": "0x5"}).Error())
	d.call(t, &h, "eth_sendUnsignedTransaction", map[string]any{"from": devAddr, "to": other, "value": "0x6"})
	require.Equal(t, types.ReceiptStatusSuccessful, waitReceipt(d, h).Status)
	require.Equal(t, big.NewInt(11), d.balance(t, other))
	d.call(t, &null, "anvil_autoImpersonateAccount", true)
	d.call(t, &h, "eth_sendTransaction", map[string]any{"from": devAddr, "to": other, "value": "0x1"})
	require.Equal(t, types.ReceiptStatusSuccessful, waitReceipt(d, h).Status)

	// Header overrides reach the next block.
	d.call(t, &null, "anvil_setCoinbase", other)
	d.call(t, &null, "anvil_setNextBlockBaseFeePerGas", "0x7")
	d.call(t, &null, "evm_setBlockGasLimit", "0x1312d00")
	d.call(t, &null, "evm_mine")
	head, err := d.eth.HeaderByNumber(t.Context(), nil)
	require.NoError(t, err)
	require.Equal(t, other, head.Coinbase)
	require.Equal(t, big.NewInt(7), head.BaseFee)
	require.Equal(t, uint64(20_000_000), head.GasLimit)

	// A dump of the C-Chain loads into the L1.
	var dump hexutil.Bytes
	d.call(t, &dump, "anvil_dumpState")
	var loaded bool
	l.call(t, &loaded, "hardhat_loadState", dump)
	require.True(t, loaded)
	require.Equal(t, d.balance(t, devAddr), l.balance(t, devAddr))
	require.Equal(t, big.NewInt(12), l.balance(t, other))

	// Snapshots are per chain: the C-Chain's ID is unknown to the L1.
	var snap string
	d.call(t, &snap, "evm_snapshot")
	l.call(t, &null, "evm_mine")
	before := l.height(t)
	var ok bool
	l.call(t, &ok, "evm_revert", snap)
	require.False(t, ok)
	require.Equal(t, before, l.height(t))
	var lsnap string
	l.call(t, &lsnap, "anvil_snapshot")
	l.call(t, &null, "anvil_mine", 3)
	l.call(t, &ok, "anvil_revert", lsnap)
	require.True(t, ok)
	require.Equal(t, before, l.height(t))
	d.call(t, &ok, "evm_revert", snap)
	require.True(t, ok)

	// Interval mining builds blocks by itself until stopped.
	start := l.height(t)
	l.call(t, &null, "evm_setIntervalMining", 1)
	require.Eventually(t, func() bool { return l.height(t) >= start+2 }, acceptWait, 50*time.Millisecond)
	l.call(t, &auto, "anvil_getAutomine")
	require.False(t, auto)
	l.call(t, &null, "evm_setIntervalMining", 0)
	l.call(t, &null, "evm_setAutomine", true)
}
