package evm_test

import (
	"crypto/ecdsa"
	"encoding/json"
	"log/slog"
	"math/big"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
	"github.com/cornice-node/cornice/vms/evm"
)

// benchVM is a C-Chain VM over a real Pebble database, driven the way the acceptance pipeline
// drives it (build, verify, stage into a batch, synced commit, Accepted), with the timing of each
// step kept apart.
type benchVM struct {
	db     *storage.DB
	vm     *evm.VM
	key    *ecdsa.PrivateKey
	signer types.Signer
	nonce  uint64
	clk    clock.Clock
	// Time spent in each step, summed over the blocks made.
	build, stage, commit, accepted time.Duration
}

// benchGasLimit lets a block hold 1,000 transfers (21M gas); the C-Chain's 8M holds 380.
const benchGasLimit = 25_000_000

// newBenchVM makes the VM with the local C-Chain genesis, a gas limit of benchGasLimit and a gas
// target no benchmark reaches, so the base fee stays at its minimum.
func newBenchVM(tb testing.TB) *benchVM {
	tb.Helper()
	log := slog.New(slog.DiscardHandler)
	db, err := storage.Open(tb.TempDir(), log)
	require.NoError(tb, err)
	tb.Cleanup(func() { _ = db.Close() })
	fees := evm.DefaultFeeConfig()
	fees.GasLimit = benchGasLimit
	fees.TargetGas = 1 << 62
	vm, err := evm.New(tb.Context(), evm.Config{Fees: &fees}, chains.Context{
		NetworkID: 12345,
		Chain:     chains.Chain{ID: ids.ID{'C'}, Name: "C-Chain"},
		Genesis:   benchGenesis(tb),
		DB:        db.Prefixed(storage.PrefixEVM),
		Log:       log,
		Clock:     clock.Real{},
	})
	require.NoError(tb, err)
	tb.Cleanup(func() { _ = vm.Close() })
	key, err := crypto.HexToECDSA(fundedKeyHex)
	require.NoError(tb, err)
	return &benchVM{db: db, vm: vm, key: key, signer: types.LatestSignerForChainID(chainID), clk: clock.Real{}}
}

// benchGenesis is the local network's C-Chain genesis.
func benchGenesis(tb testing.TB) []byte {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "genesis_local.json"))
	require.NoError(tb, err)
	var g struct {
		CChainGenesis string `json:"cChainGenesis"`
	}
	require.NoError(tb, json.Unmarshal(b, &g))
	return []byte(g.CChainGenesis)
}

// transfers signs n transfers from the funded key with the next nonces.
func (e *benchVM) transfers(tb testing.TB, n int) []*types.Transaction {
	tb.Helper()
	to := common.HexToAddress("0x00000000000000000000000000000000000be7c4")
	txs := make([]*types.Transaction, n)
	for i := range txs {
		tx, err := types.SignNewTx(e.key, e.signer, &types.DynamicFeeTx{
			ChainID: chainID, Nonce: e.nonce, GasTipCap: big.NewInt(1_000_000_000),
			GasFeeCap: big.NewInt(1_000_000_000_000), Gas: 21000, To: &to, Value: big.NewInt(1),
		})
		require.NoError(tb, err)
		// The sender is recovered and cached here, as eth_sendRawTransaction does.
		_, err = types.Sender(e.signer, tx)
		require.NoError(tb, err)
		txs[i] = tx
		e.nonce++
	}
	return txs
}

// submit puts txs in the mempool.
func (e *benchVM) submit(tb testing.TB, txs []*types.Transaction) {
	tb.Helper()
	for _, tx := range txs {
		require.NoError(tb, e.vm.SendTx(tx))
	}
}

// block builds a block from the mempool and accepts it as the pipeline does, and returns it.
func (e *benchVM) block(tb testing.TB) *evm.Block {
	tb.Helper()
	ctx := tb.Context()
	t0 := e.clk.Now()
	cb, err := e.vm.BuildBlock(ctx)
	require.NoError(tb, err)
	require.NoError(tb, cb.Verify(ctx))
	t1 := e.clk.Now()
	batch := e.db.NewBatch()
	require.NoError(tb, cb.Accept(ctx, batch))
	t2 := e.clk.Now()
	require.NoError(tb, batch.Commit())
	t3 := e.clk.Now()
	require.NoError(tb, e.vm.Accepted(ctx, cb))
	t4 := e.clk.Now()
	e.build += t1.Sub(t0)
	e.stage += t2.Sub(t1)
	e.commit += t3.Sub(t2)
	e.accepted += t4.Sub(t3)
	return cb.(*evm.Block)
}

// report adds the time of each step per block to b's results.
func (e *benchVM) report(b *testing.B, blocks int) {
	per := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / float64(blocks) }
	b.ReportMetric(per(e.build), "build-ns/block")
	b.ReportMetric(per(e.stage), "stage-ns/block")
	b.ReportMetric(per(e.commit), "commit-ns/block")
	b.ReportMetric(per(e.accepted), "accepted-ns/block")
	b.ReportMetric(per(e.build+e.stage+e.accepted), "cpu-ns/block")
}

// BenchmarkBuildAccept measures one block of n transfers from the mempool to accepted: build
// (executing the transactions, which also verifies the block), staging the block, receipts,
// lookups and trie nodes into the batch, the synced commit, and VM.Accepted (mempool, head,
// subscriptions). Signing and submitting the transactions is not timed. cpu-ns/block is the
// total without the commit, which mostly waits for the disk's fsync.
func BenchmarkBuildAccept(b *testing.B) {
	for _, n := range []int{1, 1000} {
		b.Run(strconv.Itoa(n)+"tx", func(b *testing.B) {
			e := newBenchVM(b)
			b.ReportAllocs()
			blocks := 0
			for b.Loop() {
				b.StopTimer()
				e.submit(b, e.transfers(b, n))
				b.StartTimer()
				blk := e.block(b)
				blocks++
				if got := blk.Eth().Transactions().Len(); got != n {
					b.Fatalf("block %d holds %d transactions, want %d", blk.Height(), got, n)
				}
			}
			e.report(b, blocks)
		})
	}
}

// TestBenchVM checks the benchmark's set-up: a block of 1,000 transfers fits, and the base fee
// stays at its minimum.
func TestBenchVM(t *testing.T) {
	t.Parallel()
	e := newBenchVM(t)
	for range 2 {
		e.submit(t, e.transfers(t, 1000))
		blk := e.block(t)
		require.Equal(t, 1000, blk.Eth().Transactions().Len())
		require.Equal(t, evm.DefaultFeeConfig().MinBaseFee, blk.Eth().BaseFee())
	}
}
