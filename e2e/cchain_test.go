package e2e_test

import (
	"encoding/hex"
	"io"
	"math/big"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rlp"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/config"
	"github.com/cornice-node/cornice/ids"
)

// The well-known local key funds 0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC in the local C-Chain
// genesis (platform-exchange.md §7.5).
const localKeyHex = "56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027"

// TestCChain runs the node as `cornice run` builds it, with the C-Chain, and uses it with
// go-ethereum's ethclient: a transfer is accepted at once, and its block is in /ext/index/C/block
// with the block hash as ID and the block's RLP as bytes (issue #4 §1, §4).
func TestCChain(t *testing.T) {
	t.Parallel()
	xn := startXNode(t, t.TempDir())
	base := xn.base

	client, err := ethclient.DialContext(t.Context(), base+"/ext/bc/C/rpc")
	require.NoError(t, err)
	defer client.Close()
	chainID, err := client.ChainID(t.Context())
	require.NoError(t, err)
	require.Equal(t, int64(43112), chainID.Int64())

	// Through the node's HTTP stack a reply ends with a newline, as the reference's, and
	// web3_clientVersion is the node's version string.
	resp, err := http.Post(base+"/ext/bc/C/rpc", "application/json",
		strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"web3_clientVersion","params":[]}`))
	require.NoError(t, err)
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.NoError(t, err)
	require.Equal(t, `{"jsonrpc":"2.0","id":1,"result":"`+config.Current()+`"}`+"\n", string(body))

	key, err := crypto.HexToECDSA(localKeyHex)
	require.NoError(t, err)
	from := crypto.PubkeyToAddress(key.PublicKey)
	require.Equal(t, common.HexToAddress("0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC"), from)
	to := common.HexToAddress("0x000000000000000000000000000000000000c0de")
	tip, err := client.SuggestGasTipCap(t.Context())
	require.NoError(t, err)
	head, err := client.HeaderByNumber(t.Context(), nil)
	require.NoError(t, err)
	tx, err := types.SignNewTx(key, types.LatestSignerForChainID(chainID), &types.DynamicFeeTx{
		ChainID:   chainID,
		Nonce:     0,
		GasTipCap: tip,
		GasFeeCap: new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(2)), tip),
		Gas:       21000,
		To:        &to,
		Value:     big.NewInt(1_000_000_000),
	})
	require.NoError(t, err)
	require.NoError(t, client.SendTransaction(t.Context(), tx))

	var receipt *types.Receipt
	require.Eventually(t, func() bool {
		receipt, err = client.TransactionReceipt(t.Context(), tx.Hash())
		return err == nil
	}, acceptWait, 10*time.Millisecond)
	require.Equal(t, types.ReceiptStatusSuccessful, receipt.Status)
	balance, err := client.BalanceAt(t.Context(), to, nil)
	require.NoError(t, err)
	require.Equal(t, big.NewInt(1_000_000_000), balance)

	block, err := client.BlockByNumber(t.Context(), receipt.BlockNumber)
	require.NoError(t, err)
	require.Equal(t, big.NewInt(1), block.BaseFee()) // ACP-176 on an idle chain
	wantBytes, err := rlp.EncodeToBytes(block)
	require.NoError(t, err)

	// The index holds the block: ID = block hash (in CB58), bytes = RLP.
	var last struct {
		ID    string `json:"id"`
		Bytes string `json:"bytes"`
		Index string `json:"index"`
	}
	xn.call("/ext/index/C/block", "index.getLastAccepted", map[string]string{"encoding": "hexnc"}, &last)
	require.Equal(t, "0", last.Index)
	require.Equal(t, "0x"+hex.EncodeToString(wantBytes), last.Bytes)
	require.Equal(t, ids.ID(block.Hash()).String(), last.ID)
}
