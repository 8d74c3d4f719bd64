package evm_test

import (
	"context"
	"encoding/json"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/params"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/stretchr/testify/require"
)

// codeAt is an eth_call state override that puts code at addr.
func codeAt(addr common.Address, code []byte) map[string]any {
	return map[string]any{addr.Hex(): map[string]any{"code": hexutil.Bytes(code)}}
}

// wsDial serves h and dials it over websocket.
func wsDial(t *testing.T, h http.Handler) *rpc.Client {
	t.Helper()
	srv := httptest.NewServer(h)
	rc, err := rpc.DialWebsocket(t.Context(), "ws"+strings.TrimPrefix(srv.URL, "http"), "")
	require.NoError(t, err)
	t.Cleanup(func() {
		rc.Close()
		srv.Close()
	})
	return rc
}

var probeAddr = common.HexToAddress("0x000000000000000000000000000000000000b0b0")

func TestCallDetailed(t *testing.T) {
	t.Parallel()
	n := startNode(t, t.TempDir())
	// Error("no"), as TestRevert's.
	reason := common.FromHex("08c379a0" +
		"0000000000000000000000000000000000000000000000000000000000000020" +
		"0000000000000000000000000000000000000000000000000000000000000002" +
		"6e6f000000000000000000000000000000000000000000000000000000000000")
	revertWith := append([]byte{0x60, byte(len(reason)), 0x80, 0x60, 11, 0x60, 0, 0x39, 0x60, 0, 0xfd}, reason...)
	tests := []struct {
		name string
		code []byte
		gas  uint64 // 0 for the cap
		want string
	}{
		{
			name: "success",
			code: []byte{0x60, 7, 0x5f, 0x52, 0x60, 32, 0x5f, 0xf3}, // return 7
			want: `{"gas":21016,"errCode":0,"err":"","returnData":"0x0000000000000000000000000000000000000000000000000000000000000007"}`,
		},
		{
			name: "revert with a reason: code 3",
			code: revertWith,
			want: `{"gas":21042,"errCode":3,"err":"execution reverted: no","returnData":"` + hexutil.Encode(reason) + `"}`,
		},
		{
			name: "revert without data",
			code: []byte{0x5f, 0x5f, 0xfd},
			want: `{"gas":21004,"errCode":0,"err":"execution reverted","returnData":"0x"}`,
		},
		{
			name: "invalid opcode: all gas used",
			code: []byte{0xfe},
			gas:  30_000,
			want: `{"gas":30000,"errCode":0,"err":"invalid opcode: INVALID","returnData":"0x"}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			args := map[string]any{"to": probeAddr}
			if tt.gas != 0 {
				args["gas"] = hexutil.Uint64(tt.gas)
			}
			var res json.RawMessage
			require.NoError(t, n.rpc.Call(&res, "eth_callDetailed", args, "latest", codeAt(probeAddr, tt.code)))
			require.Equal(t, tt.want, string(res))
		})
	}
	t.Run("unknown block: an RPC error", func(t *testing.T) {
		t.Parallel()
		var res json.RawMessage
		err := n.rpc.Call(&res, "eth_callDetailed", map[string]any{"to": probeAddr}, "0x99")
		require.EqualError(t, err, "cannot query unfinalized data")
	})
}

func TestCallDetailedAndBadBlocksOnL1(t *testing.T) {
	t.Parallel()
	n := newL1(t)
	var res json.RawMessage
	require.NoError(t, n.rpc.Call(&res, "eth_callDetailed", map[string]any{"to": probeAddr}, nil, codeAt(probeAddr, []byte{0x5f, 0x5f, 0xf3})))
	require.Equal(t, `{"gas":21004,"errCode":0,"err":"","returnData":"0x"}`, string(res))
	got, err := n.raw(t, "eth_getBadBlocks")
	require.NoError(t, err)
	require.Equal(t, `[]`, got)
	// eth_suggestPriceOptions is the C-Chain's only (l1-evm.md §8).
	_, err = n.raw(t, "eth_suggestPriceOptions")
	require.EqualError(t, err, "the method eth_suggestPriceOptions does not exist/is not available")
}

func TestBadBlocks(t *testing.T) {
	t.Parallel()
	n := startNode(t, t.TempDir())
	var res json.RawMessage
	require.NoError(t, n.rpc.Call(&res, "eth_getBadBlocks"))
	require.Equal(t, `[]`, string(res))
}

func TestSuggestPriceOptions(t *testing.T) {
	t.Parallel()
	n := startNode(t, t.TempDir())
	// A new chain: the default tip of 1 gwei and ACP-176's minimum base
	// fee of 1 wei, so max fees are 2 wei plus the tips.
	var baseFee, tip hexutil.Big
	require.NoError(t, n.rpc.Call(&baseFee, "eth_baseFee"))
	require.NoError(t, n.rpc.Call(&tip, "eth_maxPriorityFeePerGas"))
	require.Equal(t, big.NewInt(1), baseFee.ToInt())
	require.Equal(t, big.NewInt(params.GWei), tip.ToInt())
	var res json.RawMessage
	require.NoError(t, n.rpc.Call(&res, "eth_suggestPriceOptions"))
	require.Equal(t, `{"slow":{"maxPriorityFeePerGas":"0x389fd980","maxFeePerGas":"0x389fd982"},`+
		`"normal":{"maxPriorityFeePerGas":"0x3b9aca00","maxFeePerGas":"0x3b9aca02"},`+
		`"fast":{"maxPriorityFeePerGas":"0x3e95ba80","maxFeePerGas":"0x3e95ba82"}}`, string(res))
}

func TestNewAcceptedTransactions(t *testing.T) {
	t.Parallel()
	n := startNode(t, t.TempDir())
	vm, ok := n.m.VM(cChainID)
	require.True(t, ok)
	handlers, err := vm.Handlers(t.Context())
	require.NoError(t, err)
	ws := wsDial(t, handlers["/ws"])
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()

	hashes := make(chan common.Hash, 8)
	hashSub, err := ws.EthSubscribe(ctx, hashes, "newAcceptedTransactions")
	require.NoError(t, err)
	defer hashSub.Unsubscribe()
	full := make(chan map[string]any, 8)
	fullSub, err := ws.EthSubscribe(ctx, full, "newAcceptedTransactions", true)
	require.NoError(t, err)
	defer fullSub.Unsubscribe()
	explicit := make(chan common.Hash, 8)
	explicitSub, err := ws.EthSubscribe(ctx, explicit, "newAcceptedTransactions", false)
	require.NoError(t, err)
	defer explicitSub.Unsubscribe()

	key := fundedKey(t)
	to := common.HexToAddress("0x00000000000000000000000000000000000000ee")
	var txs []*types.Transaction
	for nonce := range uint64(2) {
		tx := signTx(t, n, key, nonce, &to, big.NewInt(1), 21_000, nil)
		require.NoError(t, n.client.SendTransaction(ctx, tx))
		txs = append(txs, tx)
	}
	var receipts []*types.Receipt
	for _, tx := range txs {
		receipts = append(receipts, waitReceipt(t, n, tx.Hash()))
	}
	for i, tx := range txs {
		for _, ch := range []chan common.Hash{hashes, explicit} {
			select {
			case h := <-ch:
				require.Equal(t, tx.Hash(), h)
			case err := <-hashSub.Err():
				require.NoError(t, err)
			case <-ctx.Done():
				t.Fatal("no newAcceptedTransactions notification")
			}
		}
		select {
		case m := <-full:
			require.Equal(t, tx.Hash().Hex(), m["hash"])
			require.Equal(t, receipts[i].BlockHash.Hex(), m["blockHash"])
			require.Equal(t, hexutil.EncodeBig(receipts[i].BlockNumber), m["blockNumber"])
			require.Equal(t, hexutil.EncodeUint64(uint64(receipts[i].TransactionIndex)), m["transactionIndex"])
			require.Equal(t, strings.ToLower(fundedAddr.Hex()), strings.ToLower(m["from"].(string)))
		case err := <-fullSub.Err():
			require.NoError(t, err)
		case <-ctx.Done():
			t.Fatal("no full newAcceptedTransactions notification")
		}
	}
}

func TestNewAcceptedTransactionsOnL1(t *testing.T) {
	t.Parallel()
	n := newL1(t)
	handlers, err := n.vm.Handlers(t.Context())
	require.NoError(t, err)
	ws := wsDial(t, handlers["/ws"])
	hashes := make(chan common.Hash, 8)
	sub, err := ws.EthSubscribe(t.Context(), hashes, "newAcceptedTransactions")
	require.NoError(t, err)
	defer sub.Unsubscribe()
	tx := n.mustSend(t, fundedKey(t), ptrAddr(common.HexToAddress("0xee")), 21_000, nil)
	n.build(t)
	select {
	case h := <-hashes:
		require.Equal(t, tx.Hash(), h)
	case err := <-sub.Err():
		require.NoError(t, err)
	case <-time.After(20 * time.Second):
		t.Fatal("no newAcceptedTransactions notification")
	}
}

// TestBeaconRoots checks EIP-4788 on a chain whose genesis holds the
// beacon roots contract: each block records its (zero) parent beacon root
// under its time before its transactions (l1-evm.md §4.4).
func TestBeaconRoots(t *testing.T) {
	t.Parallel()
	var g map[string]any
	require.NoError(t, json.Unmarshal(cChainGenesis(t), &g))
	g["alloc"].(map[string]any)[params.BeaconRootsAddress.Hex()] = map[string]any{
		"balance": "0x0", "code": hexutil.Encode(params.BeaconRootsCode), "nonce": "0x1",
	}
	genesis, err := json.Marshal(g)
	require.NoError(t, err)
	n := startNodeGenesis(t, t.TempDir(), genesis)
	ctx := t.Context()
	to := common.HexToAddress("0x00000000000000000000000000000000000000ee")
	tx := signTx(t, n, fundedKey(t), 0, &to, big.NewInt(1), 21_000, nil)
	require.NoError(t, n.client.SendTransaction(ctx, tx))
	r := waitReceipt(t, n, tx.Hash())
	header, err := n.client.HeaderByNumber(ctx, r.BlockNumber)
	require.NoError(t, err)
	require.Equal(t, common.Hash{}, *header.ParentBeaconRoot)
	ts := header.Time
	const ring = 8191 // the contract's history length
	slot := common.BigToHash(new(big.Int).SetUint64(ts % ring))
	got, err := n.client.StorageAt(ctx, params.BeaconRootsAddress, slot, r.BlockNumber)
	require.NoError(t, err)
	require.Equal(t, common.BigToHash(new(big.Int).SetUint64(ts)).Bytes(), got)
	rootSlot := common.BigToHash(new(big.Int).SetUint64(ts%ring + ring))
	got, err = n.client.StorageAt(ctx, params.BeaconRootsAddress, rootSlot, r.BlockNumber)
	require.NoError(t, err)
	require.Equal(t, make([]byte, 32), got)
	// The contract answers the block's time with the zero root; before the
	// block it knew nothing of that time and reverts.
	query := map[string]any{"to": params.BeaconRootsAddress, "data": hexutil.Bytes(common.BigToHash(new(big.Int).SetUint64(ts)).Bytes())}
	var out hexutil.Bytes
	require.NoError(t, n.rpc.Call(&out, "eth_call", query, hexutil.EncodeBig(r.BlockNumber)))
	require.Equal(t, make([]byte, 32), []byte(out))
	parent := new(big.Int).Sub(r.BlockNumber, common.Big1)
	require.Error(t, n.rpc.Call(&out, "eth_call", query, hexutil.EncodeBig(parent)))
}

// p256ProbeCode CALLs P256VERIFY's address (0x…0100) with no gas and
// returns what the CALL cost plus 19 (the pushes around it): 119 warm,
// 2619 cold.
var p256ProbeCode = common.FromHex("5a5f5f5f5f5f6101005ff1505a90035f5260205ff3")

// TestP256Warm checks that P256VERIFY is warm at a transaction's start
// from Granite (l1-evm.md §5.8): on the C-Chain (the local network's
// rules), on an L1 after Granite, and not on an L1 before it.
func TestP256Warm(t *testing.T) {
	t.Parallel()
	c := startNode(t, t.TempDir())
	l1 := newL1(t)
	preGranite, err := startL1(t, t.TempDir(), []byte(`{"networkUpgradeOverrides":{"graniteTimestamp":1800000000}}`), l1Clock())
	require.NoError(t, err)
	tests := []struct {
		name string
		rpc  *rpc.Client
		want uint64
	}{
		{"C-Chain", c.rpc, 119},
		{"L1 after Granite", l1.rpc, 119},
		{"L1 before Granite", preGranite.rpc, 2619},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var out hexutil.Bytes
			require.NoError(t, tt.rpc.Call(&out, "eth_call", map[string]any{"to": probeAddr}, "latest", codeAt(probeAddr, p256ProbeCode)))
			require.Equal(t, tt.want, new(big.Int).SetBytes(out).Uint64())
		})
	}
	// Being warm anyway, it stays out of eth_createAccessList's list.
	var al struct {
		AccessList types.AccessList `json:"accessList"`
	}
	require.NoError(t, c.rpc.Call(&al, "eth_createAccessList", map[string]any{"to": probeAddr}, "latest", codeAt(probeAddr, p256ProbeCode)))
	require.Empty(t, al.AccessList)
}
