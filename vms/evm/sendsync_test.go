package evm_test

import (
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/stretchr/testify/require"
)

func TestSendRawTransactionSync(t *testing.T) {
	t.Parallel()
	n := startNode(t, t.TempDir())
	ctx := t.Context()
	key := fundedKey(t)
	to := common.HexToAddress("0x00000000000000000000000000000000000000ee")

	// Accepted: the receipt comes back, as eth_getTransactionReceipt's.
	tx := signTx(t, n, key, 0, &to, big.NewInt(5), 21_000, nil)
	r, err := n.client.SendTransactionSync(ctx, tx, nil)
	require.NoError(t, err)
	require.Equal(t, types.ReceiptStatusSuccessful, r.Status)
	require.Equal(t, tx.Hash(), r.TxHash)
	require.Equal(t, uint64(1), r.BlockNumber.Uint64())
	got, err := n.client.TransactionReceipt(ctx, tx.Hash())
	require.NoError(t, err)
	require.Equal(t, got, r)

	// With a timeout of its own.
	tx = signTx(t, n, key, 1, &to, big.NewInt(5), 21_000, nil)
	timeout := 10 * time.Second
	r, err = n.client.SendTransactionSync(ctx, tx, &timeout)
	require.NoError(t, err)
	require.Equal(t, uint64(2), r.BlockNumber.Uint64())

	// Pooled but never accepted (a nonce gap): code 4, the hash as data.
	gap := signTx(t, n, key, 5, &to, nil, 21_000, nil)
	raw, err := gap.MarshalBinary()
	require.NoError(t, err)
	want := `{"jsonrpc":"2.0","id":1,"error":{"code":4,"message":"The transaction was added to the transaction pool but wasn't processed in 50ms","data":"` + gap.Hash().Hex() + `"}}`
	require.Equal(t, want, post(t, n, "eth_sendRawTransactionSync", hexutil.Bytes(raw), 50))

	// Refused by the mempool, or not a transaction: the errors of
	// eth_sendRawTransaction.
	require.Equal(t, rpcError(-32000, "already known"), post(t, n, "eth_sendRawTransactionSync", hexutil.Bytes(raw)))
	require.Equal(t, rpcError(-32000, "typed transaction too short"), post(t, n, "eth_sendRawTransactionSync", "0x01"))
}

func TestSyncingSubscription(t *testing.T) {
	t.Parallel()
	n := startNode(t, t.TempDir())
	c := wsClient(t, n)
	ch := make(chan any, 1)
	sub, err := c.Client().EthSubscribe(t.Context(), ch, "syncing")
	require.NoError(t, err)
	sub.Unsubscribe()
	var syncing bool
	require.NoError(t, c.Client().Call(&syncing, "eth_syncing"))
	require.False(t, syncing)
	// Over HTTP there are no subscriptions, as on go-ethereum.
	require.Equal(t, rpcError(-32601, "notifications not supported"), post(t, n, "eth_subscribe", "syncing"))
}
