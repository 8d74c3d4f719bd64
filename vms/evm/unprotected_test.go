package evm_test

import (
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"
)

// TestUnprotectedTransactions checks the rule for transactions without a chain ID
// (pre-EIP-155): a contract creation at nonce 0, the form of a keyless deployment, is
// accepted; any other is refused with the reference's text, by eth_sendRawTransaction and its
// Sync form, and nothing is pooled.
func TestUnprotectedTransactions(t *testing.T) {
	t.Parallel()
	n := startNode(t, t.TempDir())
	key := fundedKey(t)
	price, err := n.client.SuggestGasPrice(t.Context())
	require.NoError(t, err)
	price.Mul(price, big.NewInt(2))
	unprotected := func(nonce uint64, to *common.Address, data []byte) []byte {
		tx, err := types.SignNewTx(key, types.HomesteadSigner{}, &types.LegacyTx{
			Nonce: nonce, GasPrice: price, Gas: 100_000, To: to, Data: data,
		})
		require.NoError(t, err)
		require.False(t, tx.Protected())
		raw, err := tx.MarshalBinary()
		require.NoError(t, err)
		return raw
	}
	const refusal = "only replay-protected (EIP-155) transactions allowed over RPC"

	// A transfer, even at nonce 0: refused.
	to := common.HexToAddress("0x00000000000000000000000000000000000000ee")
	transfer := unprotected(0, &to, nil)
	require.Equal(t, rpcError(-32000, refusal), post(t, n, "eth_sendRawTransaction", hexutil.Bytes(transfer)))
	require.Equal(t, rpcError(-32000, refusal), post(t, n, "eth_sendRawTransactionSync", hexutil.Bytes(transfer)))

	// A creation at nonce 0 (init code returning one byte of code): accepted and deployed at
	// the address the sender and nonce give.
	create := unprotected(0, nil, common.FromHex("0x600160005360016000f3"))
	var h common.Hash
	require.NoError(t, n.client.Client().Call(&h, "eth_sendRawTransaction", hexutil.Bytes(create)))
	r := waitReceipt(t, n, h)
	require.Equal(t, types.ReceiptStatusSuccessful, r.Status)
	require.Equal(t, crypto.CreateAddress(crypto.PubkeyToAddress(key.PublicKey), 0), r.ContractAddress)

	// The same sender's next creation is not a keyless deployment: refused.
	require.Equal(t, rpcError(-32000, refusal), post(t, n, "eth_sendRawTransaction", hexutil.Bytes(unprotected(1, nil, common.FromHex("0x00")))))
	nonce, err := n.client.PendingNonceAt(t.Context(), crypto.PubkeyToAddress(key.PublicKey))
	require.NoError(t, err)
	require.Equal(t, uint64(1), nonce)
}
