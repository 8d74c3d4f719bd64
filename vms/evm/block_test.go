package evm

import (
	"context"
	"encoding/json"
	"log/slog"
	"math/big"
	"os"
	"path/filepath"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/rawdb"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rlp"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/chains/chainstest"
	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
)

// testVM is a VM over a database of its own, with the local C-Chain
// genesis, driven by hand the way the acceptance pipeline drives it.
type testVM struct {
	*VM
	store *storage.DB
}

func newTestVM(t *testing.T) *testVM {
	t.Helper()
	return newTestVMWith(t, Config{})
}

// newTestVMWith is newTestVM with cfg; with developer methods on, a roll-back commits the VM's
// writes (Rewind.Stage) and nothing else: there is no index nor last-accepted pointer.
func newTestVMWith(t *testing.T, cfg Config) *testVM {
	t.Helper()
	log := slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelWarn}))
	db, err := storage.Open(t.TempDir(), log)
	require.NoError(t, err)
	t.Cleanup(func() { _ = db.Close() })
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "genesis_local.json"))
	require.NoError(t, err)
	var g struct {
		CChainGenesis string `json:"cChainGenesis"`
	}
	require.NoError(t, json.Unmarshal(b, &g))
	c := chains.Context{
		NetworkID: 12345,
		Chain:     chains.Chain{ID: ids.ID{'C'}, Name: "C-Chain"},
		Genesis:   []byte(g.CChainGenesis),
		DB:        db.Prefixed(storage.PrefixEVM),
		Log:       log,
		Clock:     clock.Real{},
	}
	if cfg.DevMethods {
		c.Rewind = func(_ context.Context, r chains.Rewind) error {
			batch := db.NewBatch()
			defer batch.Close()
			if _, err := r.Stage(batch); err != nil {
				return err
			}
			return batch.Commit()
		}
	}
	vm, err := New(t.Context(), cfg, c)
	require.NoError(t, err)
	t.Cleanup(func() { _ = vm.Close() })
	return &testVM{VM: vm, store: db}
}

// accept verifies blk and accepts it as the pipeline does: stage, commit,
// Accepted.
func (v *testVM) accept(t *testing.T, blk chains.Block) {
	t.Helper()
	chainstest.VerifyAccept(t, v, v.store, blk)
}

// TestBuiltBlockResults checks that what Accepted takes from a built
// block's execution (receipts with every derived field, senders, nonces)
// equals what the database gives back, that another VM re-executes the
// block from its bytes to the same receipts, that the bytes of the block
// just built parse to that very block, and that a block from elsewhere with
// a wrong state root is refused.
func TestBuiltBlockResults(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	a, b := newTestVM(t), newTestVM(t)
	key, err := crypto.HexToECDSA("56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027")
	require.NoError(t, err)
	from := crypto.PubkeyToAddress(key.PublicKey)
	signer := types.LatestSignerForChainID(a.ChainID())
	// The contract of vm_test.go: it stores its 32 bytes of call data and
	// logs them with topic 42.
	initCode := common.FromHex("600760005560228060106000396000f3" + "361560165760003580600055600052602a60206000a15b60005460005260206000f3")
	contract := crypto.CreateAddress(from, 0)
	to := common.HexToAddress("0x00000000000000000000000000000000000000aa")
	legacyTo := common.HexToAddress("0x00000000000000000000000000000000000000bb")
	feeCap := big.NewInt(100_000_000_000)
	blocks := [][]types.TxData{
		{&types.DynamicFeeTx{Nonce: 0, GasTipCap: big.NewInt(1), GasFeeCap: feeCap, Gas: 200_000, Data: initCode}},
		{
			&types.DynamicFeeTx{Nonce: 1, GasTipCap: big.NewInt(2), GasFeeCap: feeCap, Gas: 100_000, To: &contract, Data: common.LeftPadBytes([]byte{99}, 32)},
			&types.DynamicFeeTx{Nonce: 2, GasTipCap: big.NewInt(2), GasFeeCap: feeCap, Gas: 21_000, To: &to, Value: big.NewInt(5)},
			&types.LegacyTx{Nonce: 3, GasPrice: feeCap, Gas: 21_000, To: &legacyTo, Value: big.NewInt(6)},
			&types.DynamicFeeTx{Nonce: 4, GasTipCap: big.NewInt(2), GasFeeCap: feeCap, Gas: 100_000, To: &contract, Data: common.LeftPadBytes([]byte{7}, 32)},
		},
	}
	for i, txs := range blocks {
		for _, data := range txs {
			switch d := data.(type) {
			case *types.DynamicFeeTx:
				d.ChainID = a.ChainID()
			}
			tx, err := types.SignNewTx(key, signer, data)
			require.NoError(t, err)
			require.NoError(t, a.SendTx(tx))
		}
		cb, err := a.BuildBlock(ctx)
		require.NoError(t, err)
		built := cb.(*Block)
		require.Len(t, built.eth.Transactions(), len(txs), "block %d", i)
		again, err := a.ParseBlock(ctx, cb.Bytes())
		require.NoError(t, err)
		require.Same(t, built, again, "the bytes of the block just built give that block")
		res := built.result
		a.accept(t, cb)
		require.Nil(t, a.built.Load())
		require.Zero(t, a.pool.len(), "the block's transactions leave the mempool")

		blk := built.eth
		stored := rawdb.ReadReceipts(a.db, blk.Hash(), blk.NumberU64(), blk.Time(), a.chainCfg)
		require.Equal(t, jsonOf(t, stored), jsonOf(t, res.receipts), "block %d: receipts kept = receipts read back", i)
		require.Equal(t, map[common.Address]uint64{from: blk.Transactions()[len(txs)-1].Nonce() + 1}, res.nonces)
		for j, tx := range blk.Transactions() {
			require.Equal(t, from, res.senders[j])
			got, ok := a.senders.Get(tx.Hash())
			require.True(t, ok)
			require.Equal(t, from, got)
		}

		// Another node: a block it did not build is executed in full.
		pb, err := b.ParseBlock(ctx, cb.Bytes())
		require.NoError(t, err)
		require.False(t, pb.(*Block).built)
		require.Nil(t, pb.(*Block).result)
		b.accept(t, pb)
		require.Equal(t, jsonOf(t, stored), jsonOf(t, rawdb.ReadReceipts(b.db, blk.Hash(), blk.NumberU64(), blk.Time(), b.chainCfg)))
		require.Equal(t, a.currentHead().Hash(), b.currentHead().Hash())
	}

	// A block whose header claims another state root fails on the other node.
	tx, err := types.SignNewTx(key, signer, &types.DynamicFeeTx{ChainID: a.ChainID(), Nonce: 5, GasTipCap: big.NewInt(1), GasFeeCap: feeCap, Gas: 21_000, To: &to, Value: big.NewInt(1)})
	require.NoError(t, err)
	require.NoError(t, a.SendTx(tx))
	cb, err := a.BuildBlock(ctx)
	require.NoError(t, err)
	h := cb.(*Block).eth.Header()
	h.Root = common.Hash{1}
	bad := types.NewBlockWithHeader(h).WithBody(*cb.(*Block).eth.Body())
	enc, err := rlp.EncodeToBytes(bad)
	require.NoError(t, err)
	pb, err := b.ParseBlock(ctx, enc)
	require.NoError(t, err)
	require.ErrorContains(t, pb.Verify(ctx), "invalid state root")
	// The good one is still fine on both.
	pb, err = b.ParseBlock(ctx, cb.Bytes())
	require.NoError(t, err)
	require.NoError(t, pb.Verify(ctx))
	require.NoError(t, cb.Verify(ctx))
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}
