package e2e_test

import (
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/config"
)

// TestEVMBlockTime runs the node with --evm-block-time: on the C-Chain and on an L1, transactions
// sent quickly share a block, blocks come at most once per interval, and no block is empty (issue
// #4 §2). Time is only read to bound the number of blocks from above, which a slow machine cannot
// break.
func TestEVMBlockTime(t *testing.T) {
	t.Parallel()
	// A second, not less: the batching check below needs the ten sends to take less than eight
	// block times, which a fifth of a second gave a loaded machine (the suite's parallel tests
	// under -race on two cores) too little room for.
	const blockTime = time.Second
	xn := startXNodeWith(t, t.TempDir(), func(c *config.Config) { c.EVMBlockTime = blockTime })
	t.Run("C-Chain", func(t *testing.T) {
		t.Parallel()
		checkBlockTime(t, xn.base+"/ext/bc/C/rpc", blockTime)
	})
	t.Run("L1", func(t *testing.T) {
		t.Parallel()
		code, stdout, stderr := runCLI(t, "l1", "create", "--genesis", exampleGenesis, "--node-uri", xn.base)
		require.Equal(t, 0, code, stderr)
		m := l1Out.FindStringSubmatch(stdout)
		require.NotNil(t, m, stdout)
		checkBlockTime(t, m[3], blockTime)
	})
}

// checkBlockTime checks interval building on the EVM chain at rpcURL, whose block time is
// blockTime, with transfers from the local key, which the chain has just funded (no block yet).
func checkBlockTime(t *testing.T, rpcURL string, blockTime time.Duration) {
	client, err := ethclient.DialContext(t.Context(), rpcURL)
	require.NoError(t, err)
	defer client.Close()
	chainID, err := client.ChainID(t.Context())
	require.NoError(t, err)

	key, err := crypto.HexToECDSA(localKeyHex)
	require.NoError(t, err)
	signer := types.LatestSignerForChainID(chainID)
	to := common.HexToAddress("0x000000000000000000000000000000000000b10c")
	sign := func(nonce uint64) *types.Transaction {
		tx, err := types.SignNewTx(key, signer, &types.DynamicFeeTx{
			ChainID:   chainID,
			Nonce:     nonce,
			GasTipCap: big.NewInt(1_000_000_000),
			GasFeeCap: big.NewInt(1_000_000_000_000),
			Gas:       21000,
			To:        &to,
			Value:     big.NewInt(1),
		})
		require.NoError(t, err)
		return tx
	}
	waitReceipt := func(h common.Hash) *types.Receipt {
		var r *types.Receipt
		require.Eventually(t, func() bool {
			var err error
			r, err = client.TransactionReceipt(t.Context(), h)
			return err == nil
		}, 20*time.Second, 5*time.Millisecond, "receipt of %s", h)
		return r
	}

	// The first transaction after an idle chain is built at once: there is no block to wait on.
	first := sign(0)
	require.NoError(t, client.SendTransaction(t.Context(), first))
	require.Equal(t, uint64(1), waitReceipt(first.Hash()).BlockNumber.Uint64())

	// Right after that block, ten transactions, each its own request, a tenth of the block time
	// apart: without a block time each would be built into a block of its own before the next
	// arrives.
	const quick = 10
	txs := make([]*types.Transaction, quick)
	for i := range txs {
		txs[i] = sign(uint64(i + 1))
	}
	clk := clock.Real{}
	start := clk.Now()
	for i, tx := range txs {
		if i > 0 {
			<-clk.NewTimer(blockTime / quick).C
		}
		require.NoError(t, client.SendTransaction(t.Context(), tx))
	}
	sent := clk.Now().Sub(start)
	blocks := make(map[uint64]int)
	for _, tx := range txs {
		r := waitReceipt(tx.Hash())
		require.Equal(t, types.ReceiptStatusSuccessful, r.Status)
		blocks[r.BlockNumber.Uint64()]++
	}
	// Blocks are built at most once per interval. Every block holding one of these
	// transactions but the last began while they were arriving (the last one's transactions
	// came after it began), so k blocks need k-2 intervals within the time the sending took:
	// k ≤ sent/blockTime+2. Sending ten transactions takes far less than eight intervals, so
	// some block holds several of them.
	require.LessOrEqual(t, len(blocks), int(sent/blockTime)+2, "blocks %v for transactions sent in %s", blocks, sent)
	require.Less(t, len(blocks), quick, "blocks %v", blocks)
	for num := range blocks {
		require.Greater(t, num, uint64(1), "a transaction sent after block 1 is in block %d", num)
	}

	// No empty blocks: three more intervals pass without a transaction and the height stays,
	// and every block up to it holds transactions.
	head, err := client.BlockNumber(t.Context())
	require.NoError(t, err)
	for range 3 {
		timer := clk.NewTimer(blockTime)
		<-timer.C
		now, err := client.BlockNumber(t.Context())
		require.NoError(t, err)
		require.Equal(t, head, now, "a block without transactions was built")
	}
	for num := uint64(1); num <= head; num++ {
		count, err := client.TransactionCount(t.Context(), mustBlockHash(t, client, num))
		require.NoError(t, err)
		require.NotZero(t, count, "block %d is empty", num)
	}
}

// mustBlockHash returns the hash of the accepted block at height num.
func mustBlockHash(t *testing.T, client *ethclient.Client, num uint64) common.Hash {
	t.Helper()
	h, err := client.HeaderByNumber(t.Context(), new(big.Int).SetUint64(num))
	require.NoError(t, err)
	return h.Hash()
}
