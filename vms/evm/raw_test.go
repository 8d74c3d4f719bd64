package evm_test

import (
	"encoding/json"
	"fmt"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rlp"
	"github.com/stretchr/testify/require"
)

// quote is v's JSON.
func quote(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

func TestRawData(t *testing.T) {
	t.Parallel()
	s := runScenario(t)
	n := s.n
	ctx := t.Context()
	blk2, err := n.client.BlockByNumber(ctx, big.NewInt(2))
	require.NoError(t, err)
	setTx := blk2.Transactions()[0]
	setRaw, err := setTx.MarshalBinary()
	require.NoError(t, err)
	to := common.HexToAddress("0x00000000000000000000000000000000000000ee")
	queued := signTx(t, n, fundedKey(t), 9, &to, nil, 21_000, nil)
	require.NoError(t, n.client.SendTransaction(ctx, queued))
	queuedRaw, err := queued.MarshalBinary()
	require.NoError(t, err)
	unknown := common.Hash{1}
	null := rpcResult("null")
	// go-ethereum's raw methods return a nil hexutil.Bytes for "none",
	// which encodes as "0x", not null.
	none := rpcResult(`"0x"`)

	t.Run("transactions", func(t *testing.T) {
		tests := []struct {
			name   string
			method string
			params []any
			want   string
		}{
			{"by hash", "eth_getRawTransactionByHash", []any{setTx.Hash()}, rpcResult(quote(t, hexutil.Bytes(setRaw)))},
			{"pooled by hash", "eth_getRawTransactionByHash", []any{queued.Hash()}, rpcResult(quote(t, hexutil.Bytes(queuedRaw)))},
			{"unknown hash", "eth_getRawTransactionByHash", []any{unknown}, none},
			{"debug by hash", "debug_getRawTransaction", []any{setTx.Hash()}, rpcResult(quote(t, hexutil.Bytes(setRaw)))},
			{"debug unknown hash", "debug_getRawTransaction", []any{unknown}, none},
			{"by number and index", "eth_getRawTransactionByBlockNumberAndIndex", []any{"0x2", "0x0"}, rpcResult(quote(t, hexutil.Bytes(setRaw)))},
			{"by number past the index", "eth_getRawTransactionByBlockNumberAndIndex", []any{"0x2", "0x1"}, none},
			{"by number past the head", "eth_getRawTransactionByBlockNumberAndIndex", []any{"0x64", "0x0"}, none},
			{"by hash and index", "eth_getRawTransactionByBlockHashAndIndex", []any{blk2.Hash(), "0x0"}, rpcResult(quote(t, hexutil.Bytes(setRaw)))},
			{"by unknown hash and index", "eth_getRawTransactionByBlockHashAndIndex", []any{unknown, "0x0"}, none},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				require.Equal(t, tt.want, post(t, n, tt.method, tt.params...))
			})
		}
	})
	t.Run("blocks and headers", func(t *testing.T) {
		blkRaw, err := rlp.EncodeToBytes(blk2)
		require.NoError(t, err)
		hdrRaw, err := rlp.EncodeToBytes(blk2.Header())
		require.NoError(t, err)
		tests := []struct {
			name   string
			method string
			param  any
			want   string
		}{
			{"block by number", "debug_getRawBlock", "0x2", rpcResult(quote(t, hexutil.Bytes(blkRaw)))},
			{"block by hash", "debug_getRawBlock", blk2.Hash(), rpcResult(quote(t, hexutil.Bytes(blkRaw)))},
			{"block by object", "debug_getRawBlock", map[string]any{"blockHash": blk2.Hash()}, rpcResult(quote(t, hexutil.Bytes(blkRaw)))},
			{"block past the head", "debug_getRawBlock", "0x64", none},
			{"block of unknown hash", "debug_getRawBlock", unknown, rpcError(-32000, fmt.Sprintf("block #%d not found", unknown))},
			{"header by number", "debug_getRawHeader", "0x2", rpcResult(quote(t, hexutil.Bytes(hdrRaw)))},
			{"header by hash", "debug_getRawHeader", blk2.Hash(), rpcResult(quote(t, hexutil.Bytes(hdrRaw)))},
			{"header past the head", "debug_getRawHeader", "0x64", none},
			{"header of unknown hash", "debug_getRawHeader", unknown, rpcError(-32000, fmt.Sprintf("header #%d not found", unknown))},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				require.Equal(t, tt.want, post(t, n, tt.method, tt.param))
			})
		}
		// go-ethereum's %d of a hash: its bytes in decimal.
		require.Contains(t, fmt.Sprintf("block #%d not found", unknown), "#[1 0 0 ")

		var b hexutil.Bytes
		require.NoError(t, n.rpc.Call(&b, "debug_getRawBlock", "latest"))
		var got types.Block
		require.NoError(t, rlp.DecodeBytes(b, &got))
		require.Equal(t, s.transfer.BlockHash, got.Hash())
	})
	t.Run("receipts", func(t *testing.T) {
		var raws []hexutil.Bytes
		require.NoError(t, n.rpc.Call(&raws, "debug_getRawReceipts", "0x2"))
		require.Len(t, raws, 1)
		var r types.Receipt
		require.NoError(t, r.UnmarshalBinary(raws[0]))
		require.Equal(t, s.set.Status, r.Status)
		require.Equal(t, s.set.CumulativeGasUsed, r.CumulativeGasUsed)
		require.Equal(t, s.set.Bloom, r.Bloom)
		require.Len(t, r.Logs, 1)
		require.Equal(t, s.set.Logs[0].Topics, r.Logs[0].Topics)
		want, err := s.set.MarshalBinary()
		require.NoError(t, err)
		require.Equal(t, rpcResult(quote(t, []hexutil.Bytes{want})), post(t, n, "debug_getRawReceipts", blk2.Hash()))
		require.Equal(t, rpcResult("[]"), post(t, n, "debug_getRawReceipts", "0x0"))
		require.Equal(t, rpcResult("[]"), post(t, n, "debug_getRawReceipts", unknown))
		require.Equal(t, null, post(t, n, "debug_getRawReceipts", "0x64"))
	})
}

func TestUnclesAndBlobFee(t *testing.T) {
	t.Parallel()
	s := runScenario(t)
	n := s.n
	null := rpcResult("null")
	tests := []struct {
		name   string
		method string
		params []any
		want   string
	}{
		{"count by number", "eth_getUncleCountByBlockNumber", []any{"latest"}, rpcResult(`"0x0"`)},
		{"count by genesis number", "eth_getUncleCountByBlockNumber", []any{"0x0"}, rpcResult(`"0x0"`)},
		{"count past the head", "eth_getUncleCountByBlockNumber", []any{"0x64"}, null},
		{"count by hash", "eth_getUncleCountByBlockHash", []any{s.set.BlockHash}, rpcResult(`"0x0"`)},
		{"count by unknown hash", "eth_getUncleCountByBlockHash", []any{common.Hash{1}}, null},
		{"uncle by number", "eth_getUncleByBlockNumberAndIndex", []any{"0x2", "0x0"}, null},
		{"uncle by hash", "eth_getUncleByBlockHashAndIndex", []any{s.set.BlockHash, "0x0"}, null},
		{"blob base fee", "eth_blobBaseFee", nil, rpcResult(`"0x1"`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, post(t, n, tt.method, tt.params...))
		})
	}
	fee, err := n.client.BlobBaseFee(t.Context())
	require.NoError(t, err)
	require.Equal(t, big.NewInt(1), fee)
	count, err := n.client.TransactionCount(t.Context(), s.set.BlockHash)
	require.NoError(t, err)
	require.Equal(t, uint(1), count)
}

func TestStorageValuesAndCapabilities(t *testing.T) {
	t.Parallel()
	s := runScenario(t)
	n := s.n
	slot0, slot1 := common.Hash{}, common.Hash{31: 1}
	word := func(v byte) string { return quote(t, hexutil.Bytes(common.Hash{31: v}.Bytes())) }
	tooMany := make([]common.Hash, 1025)
	tests := []struct {
		name   string
		params []any
		want   string
	}{
		{"latest", []any{map[common.Address][]common.Hash{s.contract: {slot0, slot1}}}, rpcResult(`{"` + hexLower(s.contract) + `":[` + word(99) + `,` + word(0) + `]}`)},
		{"after deployment", []any{map[common.Address][]common.Hash{s.contract: {slot0}}, "0x1"}, rpcResult(`{"` + hexLower(s.contract) + `":[` + word(7) + `]}`)},
		{"empty", []any{map[common.Address][]common.Hash{}}, rpcError(-32602, "empty request")},
		{"too many", []any{map[common.Address][]common.Hash{s.contract: tooMany}}, rpcError(-38026, "too many slots (max 1024)")},
		{"past the head", []any{map[common.Address][]common.Hash{s.contract: {slot0}}, "0x64"}, rpcError(-32000, "cannot query unfinalized data")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, post(t, n, "eth_getStorageValues", tt.params...))
		})
	}

	head := s.transfer.BlockHash.Hex()
	all := `{"disabled":false,"oldestBlock":"0x0"}`
	want := `{"head":{"number":"0x3","hash":"` + head + `"},"state":` + all + `,"tx":` + all + `,"logs":` + all +
		`,"receipts":` + all + `,"blocks":` + all + `,"stateproofs":` + all + `}`
	require.Equal(t, rpcResult(want), post(t, n, "eth_capabilities"))
}

// hexLower is addr in lower-case hex, as a JSON object key of an address.
func hexLower(addr common.Address) string { return hexutil.Encode(addr[:]) }

func TestBadBlocksAndBlockTraces(t *testing.T) {
	t.Parallel()
	s := runScenario(t)
	n := s.n
	ctx := t.Context()
	require.Equal(t, rpcResult("[]"), post(t, n, "debug_getBadBlocks"))
	h := common.Hash{2}
	require.Equal(t, rpcError(-32000, "bad block "+h.Hex()+" not found"), post(t, n, "debug_traceBadBlock", h))

	// debug_traceBlock of an accepted block's RLP is its trace by number.
	blk2, err := n.client.BlockByNumber(ctx, big.NewInt(2))
	require.NoError(t, err)
	raw, err := rlp.EncodeToBytes(blk2)
	require.NoError(t, err)
	cfg := map[string]any{"tracer": "callTracer"}
	var byRLP, byNumber json.RawMessage
	require.NoError(t, n.rpc.Call(&byRLP, "debug_traceBlock", hexutil.Bytes(raw), cfg))
	require.NoError(t, n.rpc.Call(&byNumber, "debug_traceBlockByNumber", "0x2", cfg))
	require.JSONEq(t, string(byNumber), string(byRLP))
	require.Contains(t, string(byRLP), s.set.TxHash.Hex())
	require.Equal(t, rpcError(-32000, "could not decode block: rlp: expected input list for types.extblock"), post(t, n, "debug_traceBlock", "0x01", nil))

	// The root after the block's one transaction is the block's root.
	var roots []common.Hash
	require.NoError(t, n.rpc.Call(&roots, "debug_intermediateRoots", blk2.Hash(), nil))
	require.Equal(t, []common.Hash{blk2.Root()}, roots)
	genesis, err := n.client.HeaderByNumber(ctx, big.NewInt(0))
	require.NoError(t, err)
	require.Equal(t, rpcError(-32000, "genesis is not traceable"), post(t, n, "debug_intermediateRoots", genesis.Hash()))
	require.Equal(t, rpcError(-32000, "block "+h.Hex()+" not found"), post(t, n, "debug_intermediateRoots", h))
}
