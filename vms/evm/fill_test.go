package evm_test

import (
	"encoding/json"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/jsonrpc"
)

// post sends one JSON-RPC request to n's /rpc handler over HTTP and
// returns the response body as sent, without its final newline.
func post(t *testing.T, n *node, method string, params ...any) string {
	t.Helper()
	if params == nil {
		params = []any{}
	}
	req, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	require.NoError(t, err)
	_, body, err := jsonrpc.NewClient(n.srv.URL, nil).Post(t.Context(), "", req)
	require.NoError(t, err)
	return strings.TrimSuffix(string(body), "\n")
}

// rpcError is the response of a failed call with id 1.
func rpcError(code int, msg string) string {
	m, _ := json.Marshal(msg)
	return `{"jsonrpc":"2.0","id":1,"error":{"code":` + big.NewInt(int64(code)).String() + `,"message":` + string(m) + `}}`
}

// rpcResult is the response of a successful call with id 1.
func rpcResult(result string) string {
	return `{"jsonrpc":"2.0","id":1,"result":` + result + `}`
}

type fillResult struct {
	Raw hexutil.Bytes      `json:"raw"`
	Tx  *types.Transaction `json:"tx"`
}

func TestFillTransaction(t *testing.T) {
	t.Parallel()
	n := startNode(t, t.TempDir())
	ctx := t.Context()
	to := common.HexToAddress("0x00000000000000000000000000000000000000ee")
	gwei := func(v int64) *big.Int { return new(big.Int).Mul(big.NewInt(v), big.NewInt(1_000_000_000)) }

	t.Run("dynamic fee defaults", func(t *testing.T) {
		var res fillResult
		require.NoError(t, n.rpc.Call(&res, "eth_fillTransaction", map[string]any{"from": fundedAddr, "to": to, "value": "0x1"}))
		tx := res.Tx
		require.Equal(t, uint8(types.DynamicFeeTxType), tx.Type())
		require.Equal(t, chainID, tx.ChainId())
		require.Zero(t, tx.Nonce())
		require.Equal(t, uint64(21_000), tx.Gas())
		// eth_maxPriorityFeePerGas's tip; twice eth_baseFee's 1 wei plus it.
		require.Equal(t, gwei(1), tx.GasTipCap())
		require.Equal(t, new(big.Int).Add(gwei(1), big.NewInt(2)), tx.GasFeeCap())
		require.Equal(t, big.NewInt(1), tx.Value())
		require.Equal(t, &to, tx.To())
		raw, err := tx.MarshalBinary()
		require.NoError(t, err)
		require.Equal(t, raw, []byte(res.Raw))

		// Signed and sent as filled, it is accepted; the next fill takes
		// the next nonce.
		signed, err := types.SignTx(tx, types.LatestSignerForChainID(chainID), fundedKey(t))
		require.NoError(t, err)
		require.NoError(t, n.client.SendTransaction(ctx, signed))
		require.Equal(t, types.ReceiptStatusSuccessful, waitReceipt(t, n, signed.Hash()).Status)
		require.NoError(t, n.rpc.Call(&res, "eth_fillTransaction", map[string]any{"from": fundedAddr, "to": to}))
		require.Equal(t, uint64(1), res.Tx.Nonce())
		require.Zero(t, res.Tx.Value().Sign())
	})
	t.Run("pending nonce counts pooled transactions", func(t *testing.T) {
		// A queued transaction (nonce gap) does not count.
		key := fundedKey(t)
		var cur hexutil.Uint64
		require.NoError(t, n.rpc.Call(&cur, "eth_getTransactionCount", fundedAddr, "pending"))
		queued := signTx(t, n, key, uint64(cur)+5, &to, nil, 21_000, nil)
		require.NoError(t, n.client.SendTransaction(ctx, queued))
		var res fillResult
		require.NoError(t, n.rpc.Call(&res, "eth_fillTransaction", map[string]any{"from": fundedAddr, "to": to}))
		require.Equal(t, uint64(cur), res.Tx.Nonce())
	})
	t.Run("creation gas is estimated", func(t *testing.T) {
		data := hexutil.Bytes(common.FromHex(initCode + runtimeCode))
		var est hexutil.Uint64
		require.NoError(t, n.rpc.Call(&est, "eth_estimateGas", map[string]any{"from": fundedAddr, "input": data}))
		var res fillResult
		require.NoError(t, n.rpc.Call(&res, "eth_fillTransaction", map[string]any{"from": fundedAddr, "input": data, "nonce": "0x9"}))
		require.Equal(t, uint64(est), res.Tx.Gas())
		require.Nil(t, res.Tx.To())
		require.Equal(t, uint64(9), res.Tx.Nonce())
		require.Equal(t, []byte(data), res.Tx.Data())
	})
	t.Run("types", func(t *testing.T) {
		al := types.AccessList{{Address: to, StorageKeys: []common.Hash{{1}}}}
		tests := []struct {
			name string
			args map[string]any
			typ  uint8
		}{
			{"gas price is legacy", map[string]any{"gasPrice": "0x1000"}, types.LegacyTxType},
			{"gas price and access list", map[string]any{"gasPrice": "0x1000", "accessList": al}, types.AccessListTxType},
			{"fee fields", map[string]any{"maxFeePerGas": "0x2000", "maxPriorityFeePerGas": "0x10", "accessList": al}, types.DynamicFeeTxType},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				tt.args["from"], tt.args["to"], tt.args["gas"] = fundedAddr, to, "0x5208"
				var res fillResult
				require.NoError(t, n.rpc.Call(&res, "eth_fillTransaction", tt.args))
				require.Equal(t, tt.typ, res.Tx.Type())
				require.Equal(t, uint64(21_000), res.Tx.Gas())
				if tt.typ != types.DynamicFeeTxType {
					require.Equal(t, big.NewInt(0x1000), res.Tx.GasPrice())
				} else {
					require.Equal(t, big.NewInt(0x2000), res.Tx.GasFeeCap())
					require.Equal(t, big.NewInt(0x10), res.Tx.GasTipCap())
				}
				if tt.typ != types.LegacyTxType {
					require.Equal(t, al, res.Tx.AccessList())
				}
			})
		}
	})
	t.Run("errors", func(t *testing.T) {
		tests := []struct {
			name string
			args map[string]any
			want string
		}{
			{"both fee kinds", map[string]any{"to": to, "gasPrice": "0x1", "maxFeePerGas": "0x1"}, rpcError(-32000, "both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified")},
			{"zero max fee", map[string]any{"to": to, "maxFeePerGas": "0x0", "maxPriorityFeePerGas": "0x0"}, rpcError(-32000, "maxFeePerGas must be non-zero")},
			{"max fee below tip", map[string]any{"to": to, "maxFeePerGas": "0x1", "maxPriorityFeePerGas": "0x2"}, rpcError(-32000, "maxFeePerGas (0x1) < maxPriorityFeePerGas (0x2)")},
			// Estimated with the filled fees: the balance must cover the
			// block gas limit, 10M, at the max fee, 1 gwei + 2 wei.
			{"estimation fails", map[string]any{"from": "0x0000000000000000000000000000000000000001", "to": to, "value": "0x1"}, rpcError(-32000, "insufficient funds for gas * price + value: address 0x0000000000000000000000000000000000000001 have 0 want 10000000020000001")},
			{"zero gas price", map[string]any{"to": to, "gasPrice": "0x0"}, rpcError(-32000, "gasPrice must be non-zero after london fork")},
			{"creation without data", map[string]any{"from": fundedAddr}, rpcError(-32000, "contract creation without any data provided")},
			{"data and input differ", map[string]any{"to": to, "data": "0x01", "input": "0x02"}, rpcError(-32000, `both "data" and "input" are set and not equal. Please use "input" to pass transaction call data`)},
			{"other chain", map[string]any{"to": to, "gas": "0x5208", "chainId": "0x1"}, rpcError(-32000, "chainId does not match node's (have=1, want=43112)")},
			{"blob transaction", map[string]any{"to": to, "blobVersionedHashes": []common.Hash{{1}}}, rpcError(-32000, "transaction type not supported: tx type 3 not supported by this pool")},
			{"set-code transaction", map[string]any{"to": to, "authorizationList": []any{}}, rpcError(-32000, "transaction type not supported: tx type 4 not supported by this pool")},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				require.Equal(t, tt.want, post(t, n, "eth_fillTransaction", tt.args))
			})
		}
	})
}

func TestKeylessMethods(t *testing.T) {
	t.Parallel()
	n := startNode(t, t.TempDir())
	ctx := t.Context()
	to := common.HexToAddress("0x00000000000000000000000000000000000000ee")
	// A queued transaction (nonce gap) that eth_resend can find.
	pooled := signTx(t, n, fundedKey(t), 7, &to, big.NewInt(1), 21_000, nil)
	require.NoError(t, n.client.SendTransaction(ctx, pooled))
	resendArgs := map[string]any{
		"from": fundedAddr, "to": to, "value": "0x1", "gas": "0x5208", "nonce": "0x7",
		"maxFeePerGas": (*hexutil.Big)(pooled.GasFeeCap()), "maxPriorityFeePerGas": (*hexutil.Big)(pooled.GasTipCap()),
	}
	other := map[string]any{"from": fundedAddr, "to": to, "value": "0x2", "gas": "0x5208", "nonce": "0x7", "gasPrice": "0x6fc23ac00"}
	otherTx := types.NewTx(&types.LegacyTx{Nonce: 7, GasPrice: big.NewInt(0x6fc23ac00), Gas: 21_000, To: &to, Value: big.NewInt(2)})
	unknown := rpcError(-32000, "unknown account")
	full := map[string]any{"from": fundedAddr, "to": to, "gas": "0x5208", "gasPrice": "0x1", "nonce": "0x0"}
	tests := []struct {
		name   string
		method string
		params []any
		want   string
	}{
		{"sendTransaction", "eth_sendTransaction", []any{map[string]any{"from": fundedAddr, "to": to}}, unknown},
		{"sign", "eth_sign", []any{fundedAddr, "0x01"}, unknown},
		{"signTransaction", "eth_signTransaction", []any{full}, unknown},
		{"signTransaction without gas", "eth_signTransaction", []any{map[string]any{"from": fundedAddr, "to": to}}, rpcError(-32000, "gas not specified")},
		{"signTransaction without fees", "eth_signTransaction", []any{map[string]any{"to": to, "gas": "0x5208", "maxFeePerGas": "0x1"}}, rpcError(-32000, "missing gasPrice or maxFeePerGas/maxPriorityFeePerGas")},
		{"signTransaction without nonce", "eth_signTransaction", []any{map[string]any{"to": to, "gas": "0x5208", "gasPrice": "0x1"}}, rpcError(-32000, "nonce not specified")},
		{"signTransaction above the fee cap", "eth_signTransaction", []any{map[string]any{"to": to, "gas": "0xf4240", "gasPrice": "0x1d1a94a2000", "nonce": "0x0"}}, rpcError(-32000, "tx fee (2.00 ether) exceeds the configured cap (1.00 ether)")},
		{"pendingTransactions", "eth_pendingTransactions", nil, rpcResult("[]")},
		{"resend of a pooled transaction", "eth_resend", []any{resendArgs, "0x77359400", "0x5208"}, unknown},
		{"resend of another", "eth_resend", []any{other, nil, nil}, rpcError(-32000, "transaction "+otherTx.Hash().Hex()+" not found")},
		{"resend without nonce", "eth_resend", []any{map[string]any{"to": to}, nil, nil}, rpcError(-32000, "missing transaction nonce in transaction spec")},
		{"accounts", "eth_accounts", nil, rpcResult("[]")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, post(t, n, tt.method, tt.params...))
		})
	}
}
