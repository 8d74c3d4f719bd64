// Package utxovmtest holds the tests the X- and P-Chain VMs share, written once against the
// chains.VM contract: each chain's test passes its VM and the txs and blocks of its own wire
// format, and the suite drives the VM as a consensus engine would (build, verify, prefer, accept,
// reject) and checks what any UTXO chain must do. Key, Addr and Sign make the keys and signed
// txs both chains' tests use.
package utxovmtest

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
	"github.com/cornice-node/cornice/vms/components/utxo"
	"github.com/cornice-node/cornice/vms/internal/vectortest"
)

// Tx is a chain's signed tx.
type Tx interface{ ID() ids.ID }

// VM is a UTXO chain's VM, which takes txs T.
type VM[T Tx] interface {
	chains.VM
	IssueTx(tx T) error
}

// Processing is one chain's fixtures for TestProcessing, on a VM at its genesis whose clock
// stands still.
type Processing[T Tx] struct {
	VM VM[T]
	// DB is the database the VM's batches are committed to.
	DB *storage.DB
	// First and Conflict spend the same genesis UTXO; Chained spends an output of First, and
	// Next one of Chained.
	First, Conflict, Chained, Next T
	// Block returns the bytes of a standard block on parent at height and time holding txs.
	Block func(t *testing.T, parent ids.ID, height, time uint64, txs ...T) []byte
	// TxIDs returns the IDs of b's txs, in order.
	TxIDs func(t *testing.T, b chains.Block) []ids.ID
}

// TestProcessing drives the VM as a consensus engine would: two blocks built and verified in a
// chain before either is accepted, the child verified on the state its parent leaves, a sibling
// of the parent verified on the accepted state and rejected once the parent is accepted.
func TestProcessing[T Tx](t *testing.T, p Processing[T]) {
	vm, ctx := p.VM, t.Context()
	genesisID, err := vm.LastAccepted(ctx)
	require.NoError(t, err)

	require.NoError(t, vm.IssueTx(p.First))
	b1, err := vm.BuildBlock(ctx)
	require.NoError(t, err)
	require.NoError(t, b1.Verify(ctx))
	require.NoError(t, vm.SetPreference(ctx, b1.ID()))

	// A tx spending the processing block's output goes into a block on it; the processing
	// block's own tx stays out.
	require.NoError(t, vm.IssueTx(p.Chained))
	b2, err := vm.BuildBlock(ctx)
	require.NoError(t, err)
	require.Equal(t, b1.ID(), b2.Parent())
	require.Equal(t, uint64(2), b2.Height())
	require.Equal(t, []ids.ID{p.Chained.ID()}, p.TxIDs(t, b2))
	require.NoError(t, b2.Verify(ctx))

	// Processing blocks are found by ID and by bytes.
	for _, b := range []chains.Block{b1, b2} {
		got, err := vm.GetBlock(ctx, b.ID())
		require.NoError(t, err)
		require.Same(t, b, got)
		parsed, err := vm.ParseBlock(ctx, b.Bytes())
		require.NoError(t, err)
		require.Same(t, b, parsed)
	}

	// Blocks on the processing b1 are verified on the state it leaves.
	at := uint64(b1.Timestamp().Unix())
	parse := func(b []byte) chains.Block {
		parsed, err := vm.ParseBlock(ctx, b)
		require.NoError(t, err)
		return parsed
	}
	require.ErrorIs(t, parse(p.Block(t, b1.ID(), 2, at, p.Conflict)).Verify(ctx), utxo.ErrDoubleSpend,
		"b1 spent the genesis UTXO")
	require.ErrorIs(t, parse(p.Block(t, b1.ID(), 2, at, p.First)).Verify(ctx), utxo.ErrDoubleSpend,
		"b1 holds it already")

	// A sibling of b1 on the accepted state: valid there.
	sibling := parse(p.Block(t, genesisID, 1, at, p.Conflict))
	require.NoError(t, sibling.Verify(ctx))

	// b1 is accepted, its sibling rejected, then b2 is accepted on it.
	accept := func(b chains.Block) { vectortest.Accept(t, vm, p.DB, b) }
	accept(b1)
	require.NoError(t, sibling.Reject(ctx))
	_, err = vm.GetBlock(ctx, sibling.ID())
	require.ErrorIs(t, err, chains.ErrBlockNotFound, "a rejected block is forgotten")
	accept(b2)
	last, err := vm.LastAccepted(ctx)
	require.NoError(t, err)
	require.Equal(t, b2.ID(), last)
	for h, want := range []chains.Block{b1, b2} {
		id, err := vm.GetBlockIDAtHeight(ctx, uint64(h+1))
		require.NoError(t, err)
		require.Equal(t, want.ID(), id)
	}
	_, err = vm.BuildBlock(ctx)
	require.ErrorIs(t, err, chains.ErrNoWork, "both txs left the mempool")
	require.NoError(t, vm.IssueTx(p.Next), "b2's output is spendable")
}

// TestRejectKeepsTxs: the txs of a rejected block stay in the mempool, and the next block, on
// the last accepted one, holds them. tx is valid on vm's genesis; txIDs is Processing.TxIDs.
func TestRejectKeepsTxs[T Tx](t *testing.T, vm VM[T], tx T, txIDs func(*testing.T, chains.Block) []ids.ID) {
	ctx := t.Context()
	require.NoError(t, vm.IssueTx(tx))
	b, err := vm.BuildBlock(ctx)
	require.NoError(t, err)
	require.NoError(t, b.Verify(ctx))
	require.NoError(t, vm.SetPreference(ctx, b.ID()))
	_, err = vm.BuildBlock(ctx)
	require.ErrorIs(t, err, chains.ErrNoWork, "its tx is in the processing block")
	require.NoError(t, b.Reject(ctx))
	again, err := vm.BuildBlock(ctx)
	require.NoError(t, err)
	require.Equal(t, b.Parent(), again.Parent())
	require.Equal(t, []ids.ID{tx.ID()}, txIDs(t, again))
	require.Equal(t, b.Bytes(), again.Bytes(), "the same tx at the same time")
	require.Error(t, vm.SetPreference(ctx, b.ID()), "a rejected block cannot be preferred")
}

// StandardBlock returns the Block function of Processing and Forged for a chain whose standard
// blocks newBlock makes: the bytes of a block on parent at height and time holding txs.
func StandardBlock[T any, B interface{ Bytes() []byte }](newBlock func(parent ids.ID, height, time uint64, txs []T) (B, error)) func(t *testing.T, parent ids.ID, height, time uint64, txs ...T) []byte {
	return func(t *testing.T, parent ids.ID, height, time uint64, txs ...T) []byte {
		t.Helper()
		blk, err := newBlock(parent, height, time, txs)
		require.NoError(t, err)
		return blk.Bytes()
	}
}

// AcceptSpent accepts blk on vm as the accept path does (Accept into a batch of db's, the commit,
// then Accepted) and checks that tx, one of its txs, issued again between the commit and Accepted
// and after them, is refused with wantErr: answered as it will be once Accepted ran (its inputs
// spent), not as a duplicate of the pending tx it still is until then.
func AcceptSpent[T Tx](t *testing.T, vm VM[T], db *storage.DB, blk chains.Block, tx T, wantErr error) {
	t.Helper()
	batch := db.NewBatch()
	defer batch.Close()
	require.NoError(t, blk.Accept(t.Context(), batch))
	require.NoError(t, batch.Commit())
	require.ErrorIs(t, vm.IssueTx(tx), wantErr, "between the commit and Accepted")
	require.NoError(t, vm.Accepted(t.Context(), blk))
	require.ErrorIs(t, vm.IssueTx(tx), wantErr, "after Accepted")
}
