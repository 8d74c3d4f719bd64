package e2e_test

import (
	"context"
	"encoding/hex"
	"log/slog"
	"math/big"
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
	"github.com/cornice-node/cornice/jsonrpc"
	"github.com/cornice-node/cornice/node"
	"github.com/cornice-node/cornice/node/vmset"
)

// The well-known local key funds 0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC in the local C-Chain
// genesis (platform-exchange.md §7.5).
const localKeyHex = "56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027"

// TestCChain runs the node as `cornice run` builds it, with the C-Chain, and uses it with
// go-ethereum's ethclient: a transfer is accepted at once, and its block is in /ext/index/C/block
// with the block hash as ID and the block's RLP as bytes (issue #4 §1, §4).
func TestCChain(t *testing.T) {
	t.Parallel()
	cfg := config.Default()
	cfg.DataDir = t.TempDir()
	cfg.HTTPPort = 0
	cfg.StakingPort = 0
	n, err := node.New(cfg, slog.New(slog.DiscardHandler), vmset.For(cfg))
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- n.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		require.NoError(t, <-done)
	})
	base := "http://" + n.HTTPAddr().String()

	client, err := ethclient.DialContext(t.Context(), base+"/ext/bc/C/rpc")
	require.NoError(t, err)
	defer client.Close()
	chainID, err := client.ChainID(t.Context())
	require.NoError(t, err)
	require.Equal(t, int64(43112), chainID.Int64())

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
	}, 10*time.Second, 10*time.Millisecond)
	require.Equal(t, types.ReceiptStatusSuccessful, receipt.Status)
	balance, err := client.BalanceAt(t.Context(), to, nil)
	require.NoError(t, err)
	require.Equal(t, big.NewInt(1_000_000_000), balance)

	block, err := client.BlockByNumber(t.Context(), receipt.BlockNumber)
	require.NoError(t, err)
	wantBytes, err := rlp.EncodeToBytes(block)
	require.NoError(t, err)

	// The index holds the block: ID = block hash (in CB58), bytes = RLP.
	var last struct {
		ID    string `json:"id"`
		Bytes string `json:"bytes"`
		Index string `json:"index"`
	}
	require.NoError(t, jsonrpc.NewClient(base, nil).Call(t.Context(), "/ext/index/C/block", "index.getLastAccepted",
		map[string]string{"encoding": "hexnc"}, &last))
	require.Equal(t, "0", last.Index)
	require.Equal(t, "0x"+hex.EncodeToString(wantBytes), last.Bytes)
	require.Equal(t, ids.ID(block.Hash()).String(), last.ID)
}
