package evm_test

import (
	"context"
	"encoding/json"
	"math/big"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/ethdb/memorydb"
	"github.com/ethereum/go-ethereum/rlp"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/ethereum/go-ethereum/trie"
	"github.com/stretchr/testify/require"
)

// logTopic is the topic the test contract logs with (runtimeCode).
var logTopic = common.BigToHash(big.NewInt(42))

// scenario is a node on which the test contract was deployed (block 1),
// set to 99 (block 2, one log) and a transfer made (block 3).
type scenario struct {
	n                     *node
	contract              common.Address
	setData               []byte
	deploy, set, transfer *types.Receipt
}

func runScenario(t *testing.T) *scenario {
	t.Helper()
	n := startNode(t, t.TempDir())
	ctx := t.Context()
	key := fundedKey(t)
	s := &scenario{n: n, contract: crypto.CreateAddress(fundedAddr, 0), setData: common.LeftPadBytes([]byte{99}, 32)}

	deploy := signTx(t, n, key, 0, nil, nil, 200_000, common.FromHex(initCode+runtimeCode))
	require.NoError(t, n.client.SendTransaction(ctx, deploy))
	s.deploy = waitReceipt(t, n, deploy.Hash())
	set := signTx(t, n, key, 1, &s.contract, nil, 100_000, s.setData)
	require.NoError(t, n.client.SendTransaction(ctx, set))
	s.set = waitReceipt(t, n, set.Hash())
	to := common.HexToAddress("0x00000000000000000000000000000000000000ee")
	transfer := signTx(t, n, key, 2, &to, big.NewInt(12345), 21_000, nil)
	require.NoError(t, n.client.SendTransaction(ctx, transfer))
	s.transfer = waitReceipt(t, n, transfer.Hash())
	require.Equal(t, []uint64{1, 2, 3}, []uint64{s.deploy.BlockNumber.Uint64(), s.set.BlockNumber.Uint64(), s.transfer.BlockNumber.Uint64()})
	return s
}

// wsClient serves n's websocket handler and dials it.
func wsClient(t *testing.T, n *node) *ethclient.Client {
	t.Helper()
	vm, ok := n.m.VM(cChainID)
	require.True(t, ok)
	handlers, err := vm.Handlers(t.Context())
	require.NoError(t, err)
	srv := httptest.NewServer(handlers["/ws"])
	rc, err := rpc.DialWebsocket(t.Context(), "ws"+strings.TrimPrefix(srv.URL, "http"), "")
	require.NoError(t, err)
	t.Cleanup(func() {
		rc.Close()
		srv.Close()
	})
	return ethclient.NewClient(rc)
}

// rpcCode returns the JSON-RPC error code of err.
func rpcCode(t *testing.T, err error) int {
	t.Helper()
	var re rpc.Error
	require.ErrorAs(t, err, &re)
	return re.ErrorCode()
}

func TestLogsAndFilters(t *testing.T) {
	t.Parallel()
	n := startNode(t, t.TempDir())
	ctx := t.Context()
	contract := crypto.CreateAddress(fundedAddr, 0)

	// Filters installed before the blocks see them.
	var logFilter, blockFilter, pendingFilter, otherFilter string
	require.NoError(t, n.rpc.Call(&logFilter, "eth_newFilter", map[string]any{"address": contract, "topics": []any{logTopic}}))
	require.NoError(t, n.rpc.Call(&otherFilter, "eth_newFilter", map[string]any{"topics": []any{nil, logTopic}}))
	require.NoError(t, n.rpc.Call(&blockFilter, "eth_newBlockFilter"))
	require.NoError(t, n.rpc.Call(&pendingFilter, "eth_newPendingTransactionFilter"))

	key := fundedKey(t)
	deploy := signTx(t, n, key, 0, nil, nil, 200_000, common.FromHex(initCode+runtimeCode))
	require.NoError(t, n.client.SendTransaction(ctx, deploy))
	waitReceipt(t, n, deploy.Hash())
	data := common.LeftPadBytes([]byte{99}, 32)
	set := signTx(t, n, key, 1, &contract, nil, 100_000, data)
	require.NoError(t, n.client.SendTransaction(ctx, set))
	r := waitReceipt(t, n, set.Hash())
	require.Len(t, r.Logs, 1)
	want := *r.Logs[0]

	t.Run("eth_getLogs", func(t *testing.T) {
		tests := []struct {
			name string
			q    ethereum.FilterQuery
			want int
		}{
			{"by address and topic", ethereum.FilterQuery{FromBlock: big.NewInt(0), Addresses: []common.Address{contract}, Topics: [][]common.Hash{{logTopic}}}, 1},
			{"default range is latest", ethereum.FilterQuery{}, 1},
			{"by block hash", ethereum.FilterQuery{BlockHash: &r.BlockHash}, 1},
			{"topic alternatives", ethereum.FilterQuery{FromBlock: big.NewInt(1), Topics: [][]common.Hash{{common.Hash{1}, logTopic}}}, 1},
			{"other topic", ethereum.FilterQuery{FromBlock: big.NewInt(0), Topics: [][]common.Hash{{common.Hash{1}}}}, 0},
			{"other address", ethereum.FilterQuery{FromBlock: big.NewInt(0), Addresses: []common.Address{fundedAddr}}, 0},
			{"before the log", ethereum.FilterQuery{FromBlock: big.NewInt(0), ToBlock: big.NewInt(1)}, 0},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				logs, err := n.client.FilterLogs(ctx, tt.q)
				require.NoError(t, err)
				require.Len(t, logs, tt.want)
				if tt.want == 1 {
					require.Equal(t, want, logs[0])
				}
			})
		}
	})
	t.Run("eth_getLogs tags and wire form", func(t *testing.T) {
		var raw []map[string]any
		require.NoError(t, n.rpc.Call(&raw, "eth_getLogs", map[string]any{"fromBlock": "earliest", "toBlock": "accepted", "address": contract.Hex()}))
		require.Len(t, raw, 1)
		for _, k := range []string{"address", "topics", "data", "blockNumber", "transactionHash", "transactionIndex", "blockHash", "logIndex", "removed"} {
			require.Contains(t, raw[0], k)
		}
		require.Equal(t, "0x2", raw[0]["blockNumber"])
		// No match is [], not null.
		var none json.RawMessage
		require.NoError(t, n.rpc.Call(&none, "eth_getLogs", map[string]any{"fromBlock": "0x0", "address": fundedAddr}))
		require.JSONEq(t, "[]", string(none))
	})
	t.Run("eth_getLogs errors", func(t *testing.T) {
		tests := []struct {
			name string
			crit map[string]any
			want string
			code int
		}{
			{"range cap", map[string]any{"fromBlock": "0x0", "toBlock": "0x800"}, "exceed maximum block range 2048: blocks 0 to 2048 are 2049 blocks", -32602},
			{"into the future", map[string]any{"fromBlock": "0x0", "toBlock": "0x7ff"}, "block range extends beyond current head block", -32602},
			{"inverted", map[string]any{"fromBlock": "0x2", "toBlock": "0x1"}, "invalid block range params", -32602},
			{"hash and range", map[string]any{"blockHash": r.BlockHash, "fromBlock": "0x1"}, "cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other", -32602},
			{"unknown hash", map[string]any{"blockHash": common.Hash{1}}, "unknown block", -32000},
			{"too many topics", map[string]any{"topics": []any{nil, nil, nil, nil, nil}}, "exceed max topics", -32602},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				var out any
				err := n.rpc.Call(&out, "eth_getLogs", tt.crit)
				require.Error(t, err)
				require.Contains(t, err.Error(), tt.want)
				require.Equal(t, tt.code, rpcCode(t, err))
			})
		}
		// Just under the cap, from a later block, is fine.
		_, err := n.client.FilterLogs(ctx, ethereum.FilterQuery{FromBlock: big.NewInt(0), ToBlock: big.NewInt(2)})
		require.NoError(t, err)
	})
	t.Run("filters", func(t *testing.T) {
		var logs []types.Log
		require.NoError(t, n.rpc.Call(&logs, "eth_getFilterChanges", logFilter))
		require.Equal(t, []types.Log{want}, logs)
		require.NoError(t, n.rpc.Call(&logs, "eth_getFilterChanges", logFilter))
		require.Empty(t, logs)
		require.NoError(t, n.rpc.Call(&logs, "eth_getFilterChanges", otherFilter))
		require.Empty(t, logs) // the topic is at position 0, not 1
		require.NoError(t, n.rpc.Call(&logs, "eth_getFilterLogs", logFilter))
		require.Equal(t, []types.Log{want}, logs)

		var hashes []common.Hash
		require.NoError(t, n.rpc.Call(&hashes, "eth_getFilterChanges", blockFilter))
		blk1, err := n.client.HeaderByNumber(ctx, big.NewInt(1))
		require.NoError(t, err)
		require.Equal(t, []common.Hash{blk1.Hash(), r.BlockHash}, hashes)
		require.NoError(t, n.rpc.Call(&hashes, "eth_getFilterChanges", pendingFilter))
		require.Equal(t, []common.Hash{deploy.Hash(), set.Hash()}, hashes)
		require.NoError(t, n.rpc.Call(&hashes, "eth_getFilterChanges", pendingFilter))
		require.Empty(t, hashes)

		var ok bool
		require.NoError(t, n.rpc.Call(&ok, "eth_uninstallFilter", logFilter))
		require.True(t, ok)
		require.NoError(t, n.rpc.Call(&ok, "eth_uninstallFilter", logFilter))
		require.False(t, ok)
		err = n.rpc.Call(&logs, "eth_getFilterChanges", logFilter)
		require.EqualError(t, err, "filter not found")
		err = n.rpc.Call(&logs, "eth_getFilterLogs", blockFilter)
		require.EqualError(t, err, "filter not found")
	})
}

func TestSubscriptions(t *testing.T) {
	t.Parallel()
	n := startNode(t, t.TempDir())
	ws := wsClient(t, n)
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	contract := crypto.CreateAddress(fundedAddr, 0)

	heads := make(chan *types.Header, 8)
	headSub, err := ws.SubscribeNewHead(ctx, heads)
	require.NoError(t, err)
	defer headSub.Unsubscribe()
	logs := make(chan types.Log, 8)
	logSub, err := ws.SubscribeFilterLogs(ctx, ethereum.FilterQuery{Addresses: []common.Address{contract}, Topics: [][]common.Hash{{logTopic}}}, logs)
	require.NoError(t, err)
	defer logSub.Unsubscribe()
	allLogs := make(chan types.Log, 8)
	allSub, err := ws.SubscribeFilterLogs(ctx, ethereum.FilterQuery{}, allLogs)
	require.NoError(t, err)
	defer allSub.Unsubscribe()

	key := fundedKey(t)
	deploy := signTx(t, n, key, 0, nil, nil, 200_000, common.FromHex(initCode+runtimeCode))
	require.NoError(t, n.client.SendTransaction(ctx, deploy))
	set := signTx(t, n, key, 1, &contract, nil, 100_000, common.LeftPadBytes([]byte{99}, 32))
	require.NoError(t, n.client.SendTransaction(ctx, set))
	r := waitReceipt(t, n, set.Hash())

	// The heads arrive in order, each decoded by ethclient.
	for want := uint64(1); want <= r.BlockNumber.Uint64(); want++ {
		select {
		case h := <-heads:
			require.Equal(t, want, h.Number.Uint64())
			if want == r.BlockNumber.Uint64() {
				require.Equal(t, r.BlockHash, h.Hash())
			}
		case err := <-headSub.Err():
			require.NoError(t, err)
		case <-ctx.Done():
			t.Fatal("no newHeads notification")
		}
	}
	for _, ch := range []chan types.Log{logs, allLogs} {
		select {
		case l := <-ch:
			require.Equal(t, *r.Logs[0], l)
		case <-ctx.Done():
			t.Fatal("no logs notification")
		}
	}
}

func TestFeeHistory(t *testing.T) {
	t.Parallel()
	s := runScenario(t)
	ctx := t.Context()

	fh, err := s.n.client.FeeHistory(ctx, 10, nil, []float64{10, 50, 90})
	require.NoError(t, err)
	require.Zero(t, fh.OldestBlock.Sign()) // only 4 blocks exist
	require.Len(t, fh.BaseFee, 5)
	require.Len(t, fh.GasUsedRatio, 4)
	require.Len(t, fh.Reward, 4)
	for _, r := range fh.Reward[0] {
		require.Zero(t, r.Sign()) // the genesis has no transactions
	}
	tip := new(big.Int).Sub(s.transfer.EffectiveGasPrice, fh.BaseFee[3])
	require.Equal(t, []*big.Int{tip, tip, tip}, fh.Reward[3])
	require.InDelta(t, 21_000.0/10_000_000.0, fh.GasUsedRatio[3], 1e-12) // ACP-176's 10M gas limit
	require.Equal(t, big.NewInt(1), fh.BaseFee[1])

	fh, err = s.n.client.FeeHistory(ctx, 2, big.NewInt(2), nil)
	require.NoError(t, err)
	require.Equal(t, big.NewInt(1), fh.OldestBlock)
	require.Len(t, fh.BaseFee, 3)
	require.Empty(t, fh.Reward)

	// The field names and encodings on the wire.
	var raw map[string]json.RawMessage
	require.NoError(t, s.n.rpc.Call(&raw, "eth_feeHistory", "0x2", "accepted", []float64{50}))
	require.ElementsMatch(t, []string{"oldestBlock", "reward", "baseFeePerGas", "gasUsedRatio", "baseFeePerBlobGas", "blobGasUsedRatio"}, keys(raw))
	require.JSONEq(t, `"0x2"`, string(raw["oldestBlock"]))
	require.JSONEq(t, `["0x1","0x1","0x1"]`, string(raw["baseFeePerBlobGas"]))
	clear(raw)
	require.NoError(t, s.n.rpc.Call(&raw, "eth_feeHistory", "0x2", "latest"))
	require.NotContains(t, raw, "reward") // no percentiles asked
	require.JSONEq(t, `"0x2"`, string(raw["oldestBlock"]))

	var out any
	err = s.n.rpc.Call(&out, "eth_feeHistory", 2, "latest", []float64{50, 10})
	require.ErrorContains(t, err, "invalid reward percentile: #0:50.000000 >= #1:10.000000")
	err = s.n.rpc.Call(&out, "eth_feeHistory", 2, "0x10", nil)
	require.EqualError(t, err, "request beyond head block: requested 16, head 3")
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// proofDB holds the nodes of a proof under their hashes, as
// trie.VerifyProof reads them.
func proofDB(t *testing.T, nodes []hexutil.Bytes) *memorydb.Database {
	db := memorydb.New()
	for _, node := range nodes {
		require.NoError(t, db.Put(crypto.Keccak256(node), node))
	}
	return db
}

func TestGetProof(t *testing.T) {
	t.Parallel()
	s := runScenario(t)
	ctx := t.Context()
	type result struct {
		Address      common.Address  `json:"address"`
		AccountProof []hexutil.Bytes `json:"accountProof"`
		Balance      *hexutil.Big    `json:"balance"`
		CodeHash     common.Hash     `json:"codeHash"`
		Nonce        hexutil.Uint64  `json:"nonce"`
		StorageHash  common.Hash     `json:"storageHash"`
		StorageProof []struct {
			Key   string          `json:"key"`
			Value *hexutil.Big    `json:"value"`
			Proof []hexutil.Bytes `json:"proof"`
		} `json:"storageProof"`
	}
	slot0 := "0x0000000000000000000000000000000000000000000000000000000000000000"

	tests := []struct {
		name      string
		block     any
		wantValue int64
	}{
		{"latest", "latest", 99},
		{"before the set call", "0x1", 7},
		{"by hash", s.set.BlockHash, 99},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var res result
			require.NoError(t, s.n.rpc.Call(&res, "eth_getProof", s.contract, []string{"0x0", slot0, "0x1"}, tt.block))
			var header *types.Header
			var err error
			if h, ok := tt.block.(common.Hash); ok {
				header, err = s.n.client.HeaderByHash(ctx, h)
			} else if tt.block == "latest" {
				header, err = s.n.client.HeaderByNumber(ctx, nil)
			} else {
				header, err = s.n.client.HeaderByNumber(ctx, big.NewInt(1))
			}
			require.NoError(t, err)

			// The account proof verifies against the block's state root.
			val, err := trie.VerifyProof(header.Root, crypto.Keccak256(s.contract[:]), proofDB(t, res.AccountProof))
			require.NoError(t, err)
			var acct types.StateAccount
			require.NoError(t, rlp.DecodeBytes(val, &acct))
			require.Equal(t, uint64(res.Nonce), acct.Nonce)
			require.Equal(t, res.Balance.ToInt(), acct.Balance.ToBig())
			require.Equal(t, res.StorageHash, acct.Root)
			require.Equal(t, res.CodeHash, common.BytesToHash(acct.CodeHash))
			require.Equal(t, crypto.Keccak256Hash(common.FromHex(runtimeCode)), res.CodeHash)

			// Each storage proof verifies against the storage root.
			require.Len(t, res.StorageProof, 3)
			require.Equal(t, "0x0", res.StorageProof[0].Key) // quantity in, quantity out
			require.Equal(t, slot0, res.StorageProof[1].Key)
			slots := []common.Hash{{}, {}, common.BigToHash(big.NewInt(1))}
			for i, want := range []int64{tt.wantValue, tt.wantValue, 0} {
				sp := res.StorageProof[i]
				require.Zero(t, big.NewInt(want).Cmp(sp.Value.ToInt()))
				key := slots[i]
				val, err := trie.VerifyProof(res.StorageHash, crypto.Keccak256(key[:]), proofDB(t, sp.Proof))
				require.NoError(t, err)
				if want == 0 {
					require.Nil(t, val) // a proof of absence
					continue
				}
				var content []byte
				require.NoError(t, rlp.DecodeBytes(val, &content))
				require.Equal(t, big.NewInt(want).Bytes(), content)
			}
		})
	}

	t.Run("absent account", func(t *testing.T) {
		var res result
		absent := common.HexToAddress("0x00000000000000000000000000000000deadbeef")
		require.NoError(t, s.n.rpc.Call(&res, "eth_getProof", absent, []string{"0x1"}, "latest"))
		header, err := s.n.client.HeaderByNumber(ctx, nil)
		require.NoError(t, err)
		val, err := trie.VerifyProof(header.Root, crypto.Keccak256(absent[:]), proofDB(t, res.AccountProof))
		require.NoError(t, err)
		require.Nil(t, val)
		require.Equal(t, "0x1", res.StorageProof[0].Key)
		require.Empty(t, res.StorageProof[0].Proof)
	})
	t.Run("bad key", func(t *testing.T) {
		var res result
		err := s.n.rpc.Call(&res, "eth_getProof", s.contract, []string{"0x" + strings.Repeat("00", 33)}, "latest")
		require.ErrorContains(t, err, "storage key too long (want at most 32 bytes)")
		require.Equal(t, -32602, rpcCode(t, err))
	})
}

func TestCreateAccessList(t *testing.T) {
	t.Parallel()
	s := runScenario(t)
	var res struct {
		AccessList types.AccessList `json:"accessList"`
		GasUsed    hexutil.Uint64   `json:"gasUsed"`
		Error      string           `json:"error"`
	}
	call := map[string]any{"from": fundedAddr, "to": s.contract, "data": hexutil.Bytes(s.setData)}
	require.NoError(t, s.n.rpc.Call(&res, "eth_createAccessList", call, "latest"))
	require.Equal(t, types.AccessList{{Address: s.contract, StorageKeys: []common.Hash{{}}}}, res.AccessList)
	require.Greater(t, uint64(res.GasUsed), uint64(21_000))
	require.Empty(t, res.Error)

	// A contract that reads another account's balance lists that account.
	// BALANCE(0xee…ee) then STOP, at an address given by a state override.
	other := common.HexToAddress("0x00000000000000000000000000000000000000ee")
	code := append(append([]byte{0x73}, other[:]...), 0x31, 0x00)
	caller := common.HexToAddress("0x00000000000000000000000000000000000c0de1")
	over := map[string]any{caller.Hex(): map[string]any{"code": hexutil.Bytes(code)}}
	require.NoError(t, s.n.rpc.Call(&res, "eth_createAccessList", map[string]any{"to": caller}, "latest", over))
	require.Equal(t, types.AccessList{{Address: other, StorageKeys: []common.Hash{}}}, res.AccessList)
}

func TestCallOverrides(t *testing.T) {
	t.Parallel()
	s := runScenario(t)
	// Code returning NUMBER, TIMESTAMP, COINBASE, BASEFEE or the caller's
	// BALANCE as one word: <op> PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN.
	returning := func(op byte) hexutil.Bytes {
		return hexutil.Bytes{op, 0x60, 0, 0x52, 0x60, 32, 0x60, 0, 0xf3}
	}
	probe := common.HexToAddress("0x0000000000000000000000000000000000000bee")
	word := func(v int64) hexutil.Bytes { return common.LeftPadBytes(big.NewInt(v).Bytes(), 32) }

	tests := []struct {
		name    string
		to      common.Address
		state   map[string]any
		block   map[string]any
		want    hexutil.Bytes
		wantErr string
	}{
		{"no override", s.contract, nil, nil, word(99), ""},
		{"stateDiff", s.contract, map[string]any{s.contract.Hex(): map[string]any{"stateDiff": map[string]string{"0x" + strings.Repeat("00", 32): "0x" + strings.Repeat("00", 31) + "05"}}}, nil, word(5), ""},
		{"state replaces storage", s.contract, map[string]any{s.contract.Hex(): map[string]any{"state": map[string]string{}}}, nil, word(0), ""},
		{"code", probe, map[string]any{probe.Hex(): map[string]any{"code": returning(0x43)}}, nil, word(3), ""},
		{"block number", probe, map[string]any{probe.Hex(): map[string]any{"code": returning(0x43)}}, map[string]any{"number": "0x64"}, word(100), ""},
		{"block time", probe, map[string]any{probe.Hex(): map[string]any{"code": returning(0x42)}}, map[string]any{"time": "0x1234"}, word(0x1234), ""},
		{"base fee", probe, map[string]any{probe.Hex(): map[string]any{"code": returning(0x48)}}, map[string]any{"baseFeePerGas": "0x7"}, word(7), ""},
		{"balance", probe, map[string]any{probe.Hex(): map[string]any{"code": hexutil.Bytes{0x33, 0x31, 0x60, 0, 0x52, 0x60, 32, 0x60, 0, 0xf3}, "balance": "0x0"}, fundedAddr.Hex(): map[string]any{"balance": "0x2a"}}, nil, word(42), ""},
		{"state and stateDiff", s.contract, map[string]any{s.contract.Hex(): map[string]any{"state": map[string]string{}, "stateDiff": map[string]string{}}}, nil, nil, "account " + s.contract.Hex() + " has both 'state' and 'stateDiff'"},
		{"move of a non-precompile", s.contract, map[string]any{s.contract.Hex(): map[string]any{"movePrecompileToAddress": probe}}, nil, nil, "account " + s.contract.Hex() + " is not a precompile"},
		{"beacon root", s.contract, nil, map[string]any{"beaconRoot": common.Hash{}}, nil, `block override "beaconRoot" is not supported for this RPC method`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			call := map[string]any{"from": fundedAddr, "to": tt.to}
			if tt.name == "base fee" {
				// With a gas price: without one the base fee is 0, as in
				// go-ethereum.
				call["gasPrice"] = "0x7"
			}
			args := []any{call, "latest", tt.state}
			if tt.block != nil {
				args = append(args, tt.block)
			}
			var out hexutil.Bytes
			err := s.n.rpc.Call(&out, "eth_call", args...)
			if tt.wantErr != "" {
				require.EqualError(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.want, out)
		})
	}
	// The overrides are not kept.
	var out hexutil.Bytes
	require.NoError(t, s.n.rpc.Call(&out, "eth_call", map[string]any{"to": s.contract}, "latest"))
	require.Equal(t, word(99), out)
	// eth_estimateGas takes them too: with code that stores, it needs more
	// than a transfer.
	var gas hexutil.Uint64
	require.NoError(t, s.n.rpc.Call(&gas, "eth_estimateGas", map[string]any{"from": fundedAddr, "to": probe}, "latest",
		map[string]any{probe.Hex(): map[string]any{"code": hexutil.Bytes(common.FromHex(runtimeCode))}}))
	require.Greater(t, uint64(gas), uint64(21_000))
}

func TestBlockTags(t *testing.T) {
	t.Parallel()
	s := runScenario(t)
	head := s.transfer.BlockNumber.Uint64()
	h1, err := s.n.client.HeaderByNumber(t.Context(), big.NewInt(1))
	require.NoError(t, err)

	// Block-number parameters (eth_getBlockByNumber).
	numberTests := []struct {
		tag  any
		want uint64
	}{
		{"latest", head}, {"pending", head}, {"accepted", head}, {"finalized", head}, {"safe", head},
		{"earliest", 0}, {"0x1", 1}, {"0x2", 2},
	}
	for _, tt := range numberTests {
		t.Run("number "+tt.tag.(string), func(t *testing.T) {
			var blk map[string]any
			require.NoError(t, s.n.rpc.Call(&blk, "eth_getBlockByNumber", tt.tag, false))
			require.Equal(t, hexutil.EncodeUint64(tt.want), blk["number"])
			require.Equal(t, hexutil.EncodeUint64(tt.want), blk["totalDifficulty"])
		})
	}
	var null map[string]any
	require.NoError(t, s.n.rpc.Call(&null, "eth_getBlockByNumber", "0x10", false))
	require.Nil(t, null)

	// Block-number-or-hash parameters (eth_getTransactionCount: the
	// sender's nonce is the block number after each of its blocks).
	bnhTests := []struct {
		name    string
		block   any
		want    uint64
		wantErr string
	}{
		{"latest", "latest", head, ""},
		{"pending", "pending", head, ""},
		{"accepted", "accepted", head, ""},
		{"finalized", "finalized", head, ""},
		{"safe", "safe", head, ""},
		{"earliest", "earliest", 0, ""},
		{"number", "0x1", 1, ""},
		{"hash", h1.Hash(), 1, ""},
		{"object hash", map[string]any{"blockHash": h1.Hash(), "requireCanonical": true}, 1, ""},
		{"object number", map[string]any{"blockNumber": "0x2"}, 2, ""},
		{"object tag", map[string]any{"blockNumber": "accepted"}, head, ""},
		{"both", map[string]any{"blockNumber": "0x1", "blockHash": h1.Hash()}, 0, "cannot specify both BlockHash and BlockNumber, choose one or the other"},
		{"neither", map[string]any{}, 0, "must specify either BlockHash or BlockNumber"},
		{"past the head", "0x10", 0, "cannot query unfinalized data"},
		{"unknown hash", common.Hash{1}, 0, "header for hash not found"},
		{"unknown tag", "tip", 0, "hex string without 0x prefix"},
	}
	for _, tt := range bnhTests {
		t.Run("block "+tt.name, func(t *testing.T) {
			var n hexutil.Uint64
			err := s.n.rpc.Call(&n, "eth_getTransactionCount", fundedAddr, tt.block)
			if tt.wantErr != "" {
				require.ErrorContains(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.want, uint64(n))
		})
	}

	// ethclient decodes every block, with its totalDifficulty and
	// withdrawals.
	for n := int64(0); n <= int64(head); n++ {
		blk, err := s.n.client.BlockByNumber(t.Context(), big.NewInt(n))
		require.NoError(t, err)
		require.Equal(t, uint64(n), blk.NumberU64())
	}
}

func TestTxpool(t *testing.T) {
	t.Parallel()
	n := startNode(t, t.TempDir())
	ctx := t.Context()
	key := fundedKey(t)
	to := common.HexToAddress("0x00000000000000000000000000000000000000ab")
	first := signTx(t, n, key, 0, &to, big.NewInt(1), 21_000, nil)
	require.NoError(t, n.client.SendTransaction(ctx, first))
	waitReceipt(t, n, first.Hash())

	// Nonce 2 waits for nonce 1: queued.
	future := signTx(t, n, key, 2, &to, big.NewInt(1), 21_000, nil)
	require.NoError(t, n.client.SendTransaction(ctx, future))

	var status map[string]hexutil.Uint
	require.NoError(t, n.rpc.Call(&status, "txpool_status"))
	require.Equal(t, map[string]hexutil.Uint{"pending": 0, "queued": 1}, status)

	var content map[string]map[string]map[string]map[string]any
	require.NoError(t, n.rpc.Call(&content, "txpool_content"))
	require.Empty(t, content["pending"])
	tx := content["queued"][fundedAddr.Hex()]["2"]
	require.Equal(t, future.Hash().Hex(), tx["hash"])
	require.Equal(t, "0x2", tx["nonce"])
	require.Nil(t, tx["blockHash"])
	require.Equal(t, strings.ToLower(fundedAddr.Hex()), strings.ToLower(tx["from"].(string)))

	var from map[string]map[string]map[string]any
	require.NoError(t, n.rpc.Call(&from, "txpool_contentFrom", fundedAddr))
	require.Equal(t, future.Hash().Hex(), from["queued"]["2"]["hash"])
	var inspect map[string]map[string]map[string]string
	require.NoError(t, n.rpc.Call(&inspect, "txpool_inspect"))
	require.Equal(t, to.Hex()+": 1 wei + 21000 gas × "+future.GasFeeCap().String()+" wei", inspect["queued"][fundedAddr.Hex()]["2"])

	// Filling the gap mines both; the pool is empty.
	gap := signTx(t, n, key, 1, &to, big.NewInt(1), 21_000, nil)
	require.NoError(t, n.client.SendTransaction(ctx, gap))
	waitReceipt(t, n, future.Hash())
	require.NoError(t, n.rpc.Call(&status, "txpool_status"))
	require.Equal(t, map[string]hexutil.Uint{"pending": 0, "queued": 0}, status)
}

func TestTracers(t *testing.T) {
	t.Parallel()
	s := runScenario(t)
	type frame struct {
		Type    string         `json:"type"`
		From    common.Address `json:"from"`
		To      common.Address `json:"to"`
		Value   *hexutil.Big   `json:"value"`
		Gas     hexutil.Uint64 `json:"gas"`
		GasUsed hexutil.Uint64 `json:"gasUsed"`
		Input   hexutil.Bytes  `json:"input"`
		Output  hexutil.Bytes  `json:"output"`
		Logs    []struct {
			Address common.Address `json:"address"`
			Topics  []common.Hash  `json:"topics"`
			Data    hexutil.Bytes  `json:"data"`
		} `json:"logs"`
		Calls []frame `json:"calls"`
		Error string  `json:"error"`
	}
	type structLogs struct {
		Gas         uint64           `json:"gas"`
		Failed      bool             `json:"failed"`
		ReturnValue hexutil.Bytes    `json:"returnValue"`
		StructLogs  []map[string]any `json:"structLogs"`
	}
	type account struct {
		Balance *hexutil.Big                `json:"balance"`
		Nonce   uint64                      `json:"nonce"`
		Code    hexutil.Bytes               `json:"code"`
		Storage map[common.Hash]common.Hash `json:"storage"`
	}
	callTracer := map[string]any{"tracer": "callTracer", "tracerConfig": map[string]any{"withLog": true}}
	prestate := map[string]any{"tracer": "prestateTracer"}
	diff := map[string]any{"tracer": "prestateTracer", "tracerConfig": map[string]any{"diffMode": true}}

	t.Run("struct logger", func(t *testing.T) {
		var transfer structLogs
		require.NoError(t, s.n.rpc.Call(&transfer, "debug_traceTransaction", s.transfer.TxHash))
		require.Equal(t, structLogs{Gas: 21_000, ReturnValue: hexutil.Bytes{}, StructLogs: []map[string]any{}}, transfer)

		var set structLogs
		require.NoError(t, s.n.rpc.Call(&set, "debug_traceTransaction", s.set.TxHash, map[string]any{"enableMemory": true}))
		require.Equal(t, s.set.GasUsed, set.Gas)
		require.False(t, set.Failed)
		require.Equal(t, hexutil.Bytes(s.setData), set.ReturnValue)
		var ops []string
		for _, l := range set.StructLogs {
			ops = append(ops, l["op"].(string))
		}
		require.Contains(t, ops, "SSTORE")
		require.Contains(t, ops, "LOG1")
		require.Equal(t, "RETURN", ops[len(ops)-1])
		require.Contains(t, set.StructLogs[len(ops)-1], "memory")
	})
	t.Run("callTracer", func(t *testing.T) {
		var transfer frame
		require.NoError(t, s.n.rpc.Call(&transfer, "debug_traceTransaction", s.transfer.TxHash, callTracer))
		require.Equal(t, "CALL", transfer.Type)
		require.Equal(t, fundedAddr, transfer.From)
		require.Equal(t, common.HexToAddress("0x00000000000000000000000000000000000000ee"), transfer.To)
		require.Equal(t, big.NewInt(12345), transfer.Value.ToInt())
		require.Equal(t, hexutil.Uint64(21_000), transfer.GasUsed)

		var set frame
		require.NoError(t, s.n.rpc.Call(&set, "debug_traceTransaction", s.set.TxHash, callTracer))
		require.Equal(t, "CALL", set.Type)
		require.Equal(t, s.contract, set.To)
		require.Equal(t, hexutil.Bytes(s.setData), set.Input)
		require.Equal(t, hexutil.Bytes(s.setData), set.Output)
		require.Equal(t, hexutil.Uint64(s.set.GasUsed), set.GasUsed)
		require.Len(t, set.Logs, 1)
		require.Equal(t, []common.Hash{logTopic}, set.Logs[0].Topics)

		var deploy frame
		require.NoError(t, s.n.rpc.Call(&deploy, "debug_traceTransaction", s.deploy.TxHash, callTracer))
		require.Equal(t, "CREATE", deploy.Type)
		require.Equal(t, s.contract, deploy.To)
	})
	t.Run("prestateTracer", func(t *testing.T) {
		var pre map[common.Address]account
		require.NoError(t, s.n.rpc.Call(&pre, "debug_traceTransaction", s.set.TxHash, prestate))
		require.Equal(t, map[common.Hash]common.Hash{{}: common.BigToHash(big.NewInt(7))}, pre[s.contract].Storage)
		require.Equal(t, hexutil.Bytes(common.FromHex(runtimeCode)), pre[s.contract].Code)
		require.Equal(t, uint64(1), pre[fundedAddr].Nonce)

		var d struct {
			Pre  map[common.Address]account `json:"pre"`
			Post map[common.Address]account `json:"post"`
		}
		require.NoError(t, s.n.rpc.Call(&d, "debug_traceTransaction", s.set.TxHash, diff))
		require.Equal(t, common.BigToHash(big.NewInt(7)), d.Pre[s.contract].Storage[common.Hash{}])
		require.Equal(t, common.BigToHash(big.NewInt(99)), d.Post[s.contract].Storage[common.Hash{}])

		var transfer map[common.Address]account
		require.NoError(t, s.n.rpc.Call(&transfer, "debug_traceTransaction", s.transfer.TxHash, prestate))
		require.Contains(t, transfer, fundedAddr)
		require.Equal(t, uint64(2), transfer[fundedAddr].Nonce)
	})
	t.Run("block traces", func(t *testing.T) {
		type result struct {
			TxHash common.Hash `json:"txHash"`
			Result frame       `json:"result"`
		}
		var byNumber, byHash []result
		require.NoError(t, s.n.rpc.Call(&byNumber, "debug_traceBlockByNumber", "0x2", callTracer))
		require.NoError(t, s.n.rpc.Call(&byHash, "debug_traceBlockByHash", s.set.BlockHash, callTracer))
		require.Len(t, byNumber, 1)
		require.Equal(t, s.set.TxHash, byNumber[0].TxHash)
		require.Equal(t, s.contract, byNumber[0].Result.To)
		require.Equal(t, byNumber, byHash)

		var logs []struct {
			TxHash common.Hash `json:"txHash"`
			Result structLogs  `json:"result"`
		}
		require.NoError(t, s.n.rpc.Call(&logs, "debug_traceBlockByNumber", "latest"))
		require.Len(t, logs, 1)
		require.Equal(t, s.transfer.TxHash, logs[0].TxHash)
		require.Equal(t, uint64(21_000), logs[0].Result.Gas)

		var pre []struct {
			Result map[common.Address]account `json:"result"`
		}
		require.NoError(t, s.n.rpc.Call(&pre, "debug_traceBlockByHash", s.set.BlockHash, prestate))
		require.Equal(t, common.BigToHash(big.NewInt(7)), pre[0].Result[s.contract].Storage[common.Hash{}])
	})
	t.Run("debug_traceCall", func(t *testing.T) {
		call := map[string]any{"from": fundedAddr, "to": s.contract, "data": hexutil.Bytes(common.LeftPadBytes([]byte{5}, 32))}
		var f frame
		require.NoError(t, s.n.rpc.Call(&f, "debug_traceCall", call, "latest", callTracer))
		require.Equal(t, "CALL", f.Type)
		require.Equal(t, hexutil.Bytes(common.LeftPadBytes([]byte{5}, 32)), f.Output)
		require.Len(t, f.Logs, 1)

		var pre map[common.Address]account
		require.NoError(t, s.n.rpc.Call(&pre, "debug_traceCall", call, "latest", prestate))
		require.Equal(t, common.BigToHash(big.NewInt(99)), pre[s.contract].Storage[common.Hash{}])
		// On the state before the block's first transaction, with an override.
		require.NoError(t, s.n.rpc.Call(&pre, "debug_traceCall", call, "0x2", map[string]any{"tracer": "prestateTracer", "txIndex": "0x0"}))
		require.Equal(t, common.BigToHash(big.NewInt(7)), pre[s.contract].Storage[common.Hash{}])
		over := map[string]any{"tracer": "prestateTracer", "stateOverrides": map[string]any{s.contract.Hex(): map[string]any{"stateDiff": map[string]string{"0x" + strings.Repeat("00", 32): "0x" + strings.Repeat("00", 31) + "11"}}}}
		require.NoError(t, s.n.rpc.Call(&pre, "debug_traceCall", call, "latest", over))
		require.Equal(t, common.BigToHash(big.NewInt(0x11)), pre[s.contract].Storage[common.Hash{}])

		var sl structLogs
		require.NoError(t, s.n.rpc.Call(&sl, "debug_traceCall", map[string]any{"to": s.contract}, "latest"))
		require.Equal(t, hexutil.Bytes(common.LeftPadBytes([]byte{99}, 32)), sl.ReturnValue)
		require.NotEmpty(t, sl.StructLogs)
	})
	t.Run("errors", func(t *testing.T) {
		var out any
		require.EqualError(t, s.n.rpc.Call(&out, "debug_traceTransaction", common.Hash{1}), "transaction not found")
		require.EqualError(t, s.n.rpc.Call(&out, "debug_traceBlockByNumber", "0x0"), "genesis is not traceable")
		require.ErrorContains(t, s.n.rpc.Call(&out, "debug_traceTransaction", s.set.TxHash, map[string]any{"tracer": "nope"}), `tracer "nope" not found`)
		require.ErrorContains(t, s.n.rpc.Call(&out, "debug_traceTransaction", s.set.TxHash, map[string]any{"timeout": "soon"}), "invalid duration")
	})
}
