package platform_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/genesis"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/components/utxo"
	"github.com/cornice-node/cornice/vms/platform/txs"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// TestProcessing drives the VM as a consensus engine would: two blocks built and verified in a
// chain before either is accepted, the child verified on the state its parent leaves (UTXOs,
// txs, fee state), a sibling of the parent verified on the accepted state and rejected once the
// parent is accepted.
func TestProcessing(t *testing.T) {
	t.Parallel()
	vm, db, g := newUnitVM(t)
	ctx := t.Context()
	ewoqKey, vmrqKey := key(t, ewoqKeyHex), key(t, vmrqKeyHex)
	ewoq, vmrq := addrOf(ewoqKey), addrOf(vmrqKey)
	genesisUTXO := unlockedGenesisUTXO(t, g, ewoq)
	n := &node{t: t, g: g}
	genesisID, err := vm.LastAccepted(ctx)
	require.NoError(t, err)

	first := sign(t, ptr(n.baseTx(genesisUTXO, 1_000, vmrq, ewoq)), ewoqKey)
	conflict := sign(t, ptr(n.baseTx(genesisUTXO, 2_000, vmrq, ewoq)), ewoqKey)
	require.NoError(t, vm.IssueTx(first))
	b1, err := vm.BuildBlock(ctx)
	require.NoError(t, err)
	require.NoError(t, b1.Verify(ctx))
	require.NoError(t, vm.SetPreference(ctx, b1.ID()))

	// A tx spending the processing block's change goes into a block on it; the processing
	// block's own tx stays out.
	change := first.UTXOs()[slices.IndexFunc(first.UTXOs(), func(u txs.UTXO) bool {
		return u.Out.(*secp256k1fx.TransferOutput).Addrs[0] == ewoq
	})]
	chained := sign(t, ptr(n.baseTx(&change, 0, ewoq, ewoq)), ewoqKey)
	require.NoError(t, vm.IssueTx(chained))
	b2, err := vm.BuildBlock(ctx)
	require.NoError(t, err)
	require.Equal(t, b1.ID(), b2.Parent())
	require.Equal(t, uint64(2), b2.Height())
	std, err := txs.ParseBlock(b2.Bytes())
	require.NoError(t, err)
	require.Equal(t, []ids.ID{chained.ID()}, txIDs(std.Txs()))
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
	onB1 := func(list ...*txs.Tx) chains.Block {
		blk, err := txs.NewStandardBlock(b1.ID(), 2, at, list)
		require.NoError(t, err)
		parsed, err := vm.ParseBlock(ctx, blk.Bytes())
		require.NoError(t, err)
		return parsed
	}
	require.ErrorIs(t, onB1(conflict).Verify(ctx), utxo.ErrDoubleSpend, "b1 spent the genesis UTXO")
	require.ErrorIs(t, onB1(first).Verify(ctx), utxo.ErrDoubleSpend, "b1 holds it already")

	// A sibling of b1 on the accepted state: valid there.
	sib, err := txs.NewStandardBlock(genesisID, 1, at, []*txs.Tx{conflict})
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
	next := sign(t, ptr(n.baseTx(&chained.UTXOs()[0], 0, ewoq, ewoq)), ewoqKey)
	require.NoError(t, vm.IssueTx(next), "b2's output is spendable")
}

// TestRejectKeepsTxs: the txs of a rejected block stay in the mempool, and the next block, on
// the last accepted one, holds them.
func TestRejectKeepsTxs(t *testing.T) {
	t.Parallel()
	vm, _, g := newUnitVM(t)
	ctx := t.Context()
	ewoqKey, vmrqKey := key(t, ewoqKeyHex), key(t, vmrqKeyHex)
	ewoq, vmrq := addrOf(ewoqKey), addrOf(vmrqKey)
	n := &node{t: t, g: g}
	require.NoError(t, vm.IssueTx(sign(t, ptr(n.baseTx(unlockedGenesisUTXO(t, g, ewoq), 1_000, vmrq, ewoq)), ewoqKey)))
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
	require.Equal(t, b.Bytes(), again.Bytes(), "the same tx at the same time")
	require.Error(t, vm.SetPreference(ctx, b.ID()), "a rejected block cannot be preferred")
}

// unlockedGenesisUTXO returns a genesis UTXO that addr alone may spend at once.
func unlockedGenesisUTXO(t *testing.T, g *genesis.Genesis, addr ids.ShortID) *txs.UTXO {
	t.Helper()
	pg, err := txs.ParseGenesis(g.PGenesis)
	require.NoError(t, err)
	i := slices.IndexFunc(pg.UTXOs, func(u txs.GenesisUTXO) bool {
		o, ok := u.Out.(*secp256k1fx.TransferOutput)
		return ok && o.Locktime == 0 && slices.Equal(o.Addrs, []ids.ShortID{addr})
	})
	require.GreaterOrEqual(t, i, 0, "an unlocked genesis UTXO of %s's", addr)
	return &pg.UTXOs[i].UTXO
}

func txIDs(list []*txs.Tx) []ids.ID {
	out := make([]ids.ID, len(list))
	for i, tx := range list {
		out[i] = tx.ID()
	}
	return out
}
