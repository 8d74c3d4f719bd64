package evm

import (
	"context"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/rawdb"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains"
)

// TestStageRollBackWrites pins the writes of a 1-block roll-back, as each costs the revert's
// commit about 2 µs (docs/benchmarks.md, "Then (branch rvgate2)"): the dropped block's records
// and its transaction's lookup, the head block's hash, and the root record of the block rolled
// back to only when it changes: none when it has none and keeps its header's root, a removal
// when it has one, a write when its root in effect differs. An accepted block writes the head
// block's hash, not go-ethereum's head header and fast-sync records, which nothing reads.
func TestStageRollBackWrites(t *testing.T) {
	t.Parallel()
	v := newTestVM(t)
	genesis := v.currentHead()
	headerHead := rawdb.ReadHeadHeaderHash(v.db)
	v.acceptTransfer(t, 0)
	head := v.currentHead()
	require.Equal(t, genesis.NumberU64()+1, head.NumberU64())
	require.Equal(t, head.Hash(), rawdb.ReadHeadBlockHash(v.db))
	require.Equal(t, headerHead, rawdb.ReadHeadHeaderHash(v.db), "the head header record is not written")

	// The dropped block's removal (dropCanonical: its transaction's lookup, six records of
	// go-ethereum's, its gas cost record), then the head block's hash.
	rec := &recordingWriter{}
	_, err := v.dropCanonical(rec, head.NumberU64(), head)
	require.NoError(t, err)
	require.Len(t, rec.ops, 8)
	const base = 9
	for _, c := range []struct {
		name     string
		root     common.Hash
		recorded bool
		want     int
	}{
		{"no root record", genesis.Root(), false, base},
		{"root record removed", genesis.Root(), true, base + 1},
		{"root record written", common.Hash{1}, false, base + 1},
	} {
		batch := v.kv.view.NewBatch()
		dropped, err := v.stageRollBack(batch, genesis, head, c.root, c.recorded)
		require.NoError(t, err, c.name)
		require.Len(t, dropped, 1, c.name)
		require.Equal(t, c.want, batch.Count(), c.name)
		batch.Close()
	}
}

// TestRollBackBatchRoom checks that the buffer of a 1-block roll-back has room for all its
// writes (the head block's hash, a root record, the block's removal with a transaction's
// lookup) so that it grows not once, and that the next roll-back reuses it, emptied: an
// allocation or a growth shows in the revert's time before its answer.
func TestRollBackBatchRoom(t *testing.T) { // not parallel: AllocsPerRun
	v := newTestVM(t)
	genesis := v.currentHead()
	v.acceptTransfer(t, 0)
	head := v.currentHead()

	eb := v.rollBackBatch(head.NumberU64() - genesis.NumberU64())
	ops, data := cap(eb.ops), cap(eb.data)
	hash := genesis.Hash()
	rawdb.WriteHeadBlockHash(eb, hash)
	require.NoError(t, eb.Put(devKey(devRootPrefix, hash[:]), common.Hash{1}.Bytes()))
	_, err := v.dropCanonical(eb, head.NumberU64(), head)
	require.NoError(t, err)
	require.Len(t, eb.ops, 10)
	require.Equal(t, ops, cap(eb.ops), "the writes' list grew")
	require.Equal(t, data, cap(eb.data), "the keys' and values' buffer grew")
	require.Same(t, eb, v.rollBackBatch(1), "reused")
	require.Empty(t, eb.ops)
	require.Empty(t, eb.data)
	require.Zero(t, eb.ValueSize())
	require.Zero(t, testing.AllocsPerRun(10, func() { v.rollBackBatch(1) }), "a 1-block roll-back allocates no buffer")
	require.Same(t, eb, v.rollBackBatch(inlineDrop+1), "a roll-back recorded for the sweep removes no block inline: the room is there")
	big := v.rollBackBatch(inlineDrop)
	require.GreaterOrEqual(t, cap(big.ops), 2+dropOpsPerBlock*inlineDrop, "grown for the largest inline drop")
}

// TestDevRevertKeepsSnapshotHeader checks that a revert makes the header the snapshot recorded
// (the VM's shared copy of it then) the head's again, without copying it anew, and that it is
// the reverted-to block's.
func TestDevRevertKeepsSnapshotHeader(t *testing.T) {
	t.Parallel()
	v := newTestVMWith(t, Config{DevMethods: true})
	v.acceptTransfer(t, 0)
	head, header := v.currentHeadAndHeader()
	id := v.dev.snapshot()
	v.acceptTransfer(t, 1)
	require.NotSame(t, header, v.currentHeader())
	ok, err := v.dev.revert(t.Context(), id)
	require.NoError(t, err)
	require.True(t, ok)
	require.Same(t, head, v.currentHead())
	require.Same(t, header, v.currentHeader(), "the snapshot's header, not a new copy")
	require.Equal(t, head.Hash(), v.currentHeader().Hash())
}

// acceptTransfer builds and accepts a block with a transfer of the funded test key's, its
// nonce-th.
func (v *testVM) acceptTransfer(t *testing.T, nonce uint64) {
	t.Helper()
	key, err := crypto.HexToECDSA("56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027")
	require.NoError(t, err)
	to := common.HexToAddress("0x00000000000000000000000000000000000000aa")
	tx, err := types.SignNewTx(key, types.LatestSignerForChainID(v.ChainID()), &types.DynamicFeeTx{
		ChainID: v.ChainID(), Nonce: nonce, GasTipCap: big.NewInt(1), GasFeeCap: big.NewInt(100_000_000_000), Gas: 21_000, To: &to, Value: big.NewInt(1),
	})
	require.NoError(t, err)
	require.NoError(t, v.SendTx(tx))
	blk, err := v.BuildBlock(t.Context())
	require.NoError(t, err)
	v.accept(t, blk)
}

// TestDevRevertArmsAfterAnswer checks that what a roll-back leaves until its answer
// (chains.Rewind.Later: the arming of its batch's timer) runs on the engine goroutine once the
// revert has answered, not before, and not never.
func TestDevRevertArmsAfterAnswer(t *testing.T) {
	t.Parallel()
	v := newTestVMWith(t, Config{DevMethods: true})
	v.acceptTransfer(t, 0)
	id := v.dev.snapshot()
	v.acceptTransfer(t, 1)
	ran := 0
	rewind := v.rewind
	v.rewind = func(ctx context.Context, r chains.Rewind) error {
		require.NotNil(t, r.Later)
		r.Later(func() { ran++ })
		return rewind(ctx, r)
	}
	var (
		reverted bool
		before   int // ran at the answer
	)
	answered := make(chan error, 1)
	go func() {
		answered <- v.dev.do(t.Context(), func(ctx context.Context) error {
			var err error
			reverted, err = v.dev.revert(ctx, id)
			before = ran
			return err
		})
	}()
	require.Eventually(t, func() bool {
		v.dev.opsMu.Lock()
		defer v.dev.opsMu.Unlock()
		return len(v.dev.ops) == 1
	}, 10*time.Second, time.Millisecond)
	_, err := v.BuildBlock(t.Context()) // runs the queued revert: no block to build then
	require.ErrorIs(t, err, chains.ErrNoWork)
	require.NoError(t, <-answered)
	require.True(t, reverted)
	require.Zero(t, before, "not before the answer")
	require.Equal(t, 1, ran, "once the answer is given")
	require.Empty(t, v.dev.later)
}
