package exchange_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/vms/components/utxo"
	xtxs "github.com/cornice-node/cornice/vms/exchange/txs"
)

// TestProcessing drives the VM as a consensus engine would: two blocks built and verified in a
// chain before either is accepted, the child verified on its parent's UTXOs, a sibling of the
// parent verified on the accepted state and rejected once the parent is accepted.
func TestProcessing(t *testing.T) {
	t.Parallel()
	vm, db, g := newUnitVM(t)
	ctx := t.Context()
	n := &node{t: t, g: g}
	ewoqKey := key(t, ewoqKeyHex)
	ewoq, vmrq := addrOf(ewoqKey), parseAddr(t, vmrqX)
	avax := g.AVAXAssetID
	const start = 300_000_000_000_000_000
	utxos := g.AVAX.UTXOs()
	genesisUTXO := &utxos[1]
	genesisID, err := vm.LastAccepted(ctx)
	require.NoError(t, err)

	first := sign(t, n.baseTx([]xtxs.TransferableOutput{out(avax, 1_000, vmrq), out(avax, start-1_000-fee, ewoq)}, in(genesisUTXO)), ewoqKey)
	conflict := sign(t, n.baseTx([]xtxs.TransferableOutput{out(avax, start-fee, vmrq)}, in(genesisUTXO)), ewoqKey)
	require.NoError(t, vm.IssueTx(first))
	b1, err := vm.BuildBlock(ctx)
	require.NoError(t, err)
	require.NoError(t, b1.Verify(ctx))
	require.NoError(t, vm.SetPreference(ctx, b1.ID()))

	// A tx spending the processing block's output goes into a block on it; the processing
	// block's own tx stays out.
	firstUTXOs := first.UTXOs()
	chained := sign(t, n.baseTx([]xtxs.TransferableOutput{out(avax, start-1_000-2*fee, ewoq)}, in(&firstUTXOs[1])), ewoqKey)
	require.NoError(t, vm.IssueTx(chained))
	b2, err := vm.BuildBlock(ctx)
	require.NoError(t, err)
	require.Equal(t, b1.ID(), b2.Parent())
	require.Equal(t, uint64(2), b2.Height())
	require.Equal(t, []chains.Container{{ID: chained.ID(), Bytes: chained.Bytes()}}, b2.(chains.TxLister).Txs())
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

	// Blocks on the processing b1 are verified on the UTXOs it leaves.
	at := uint64(vectorTime.Unix())
	onB1 := func(list ...*xtxs.Tx) chains.Block {
		blk, err := xtxs.NewStandardBlock(b1.ID(), 2, at, list)
		require.NoError(t, err)
		parsed, err := vm.ParseBlock(ctx, blk.Bytes())
		require.NoError(t, err)
		return parsed
	}
	require.ErrorIs(t, onB1(conflict).Verify(ctx), utxo.ErrDoubleSpend, "b1 spent the genesis UTXO")
	require.ErrorIs(t, onB1(first).Verify(ctx), utxo.ErrDoubleSpend, "b1 holds it already")

	// A sibling of b1 on the accepted state: valid there.
	sib, err := xtxs.NewStandardBlock(genesisID, 1, at, []*xtxs.Tx{conflict})
	require.NoError(t, err)
	sibling, err := vm.ParseBlock(ctx, sib.Bytes())
	require.NoError(t, err)
	require.NoError(t, sibling.Verify(ctx))

	// b1 is accepted, its sibling rejected, then b2 is accepted on it.
	accept := func(b chains.Block) {
		batch := db.NewBatch()
		require.NoError(t, b.Accept(ctx, batch))
		require.NoError(t, batch.Commit())
		require.NoError(t, vm.Accepted(ctx, b))
	}
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
	chainedUTXOs := chained.UTXOs()
	again := sign(t, n.baseTx([]xtxs.TransferableOutput{out(avax, 1, vmrq)}, in(&chainedUTXOs[0])), ewoqKey)
	require.NoError(t, vm.IssueTx(again), "b2's output is spendable")
}

// TestRejectKeepsTxs: the txs of a rejected block stay in the mempool, and the next block, on
// the last accepted one, holds them.
func TestRejectKeepsTxs(t *testing.T) {
	t.Parallel()
	vm, _, g := newUnitVM(t)
	ctx := t.Context()
	n := &node{t: t, g: g}
	ewoqKey := key(t, ewoqKeyHex)
	ewoq, vmrq := addrOf(ewoqKey), parseAddr(t, vmrqX)
	const start = 300_000_000_000_000_000
	utxos := g.AVAX.UTXOs()
	tx := sign(t, n.baseTx([]xtxs.TransferableOutput{out(g.AVAXAssetID, 1_000, vmrq), out(g.AVAXAssetID, start-1_000-fee, ewoq)}, in(&utxos[1])), ewoqKey)
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
	require.Equal(t, b.(chains.TxLister).Txs(), again.(chains.TxLister).Txs())
	require.Error(t, vm.SetPreference(ctx, b.ID()), "a rejected block cannot be preferred")
}
