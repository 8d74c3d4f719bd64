package platform_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/chains/atomic"
	"github.com/cornice-node/cornice/genesis"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
	"github.com/cornice-node/cornice/vms/components/utxo"
	"github.com/cornice-node/cornice/vms/internal/mempool"
	"github.com/cornice-node/cornice/vms/internal/utxovmtest"
	"github.com/cornice-node/cornice/vms/platform/txs"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// TestAtomicPipeline drives the VM as the pipeline does with an ImportTx: a second pending import
// of the same UTXO conflicts (the reference's mempool text), a block's Accept stages the removal
// into the block's batch only, and after the commit the UTXO is gone from shared memory and the
// conflicting tx from the mempool.
func TestAtomicPipeline(t *testing.T) {
	t.Parallel()
	vm, db, g := newUnitVM(t)
	ctx := t.Context()
	ewoqKey := key(t, ewoqKeyHex)
	ewoq := addrOf(ewoqKey)
	pShared := atomic.New(db.Prefixed(storage.PrefixAtomic)).For(ids.Empty)

	exported := &txs.UTXO{
		UTXOID:  utxo.UTXOID{TxID: ids.ID{'x'}, OutputIndex: 1},
		AssetID: g.AVAXAssetID,
		Out:     &secp256k1fx.TransferOutput{Amount: 5_000_000_000, OutputOwners: owner(ewoq)},
	}
	b, err := exported.Bytes()
	require.NoError(t, err)
	utxovmtest.Export(t, db, g.XChainID, ids.Empty, exported.InputID(), b, ewoq)

	importOf := func(keep uint64) *txs.Tx {
		return sign(t, &txs.ImportTx{
			BaseTx: txs.BaseTx{NetworkID: genesis.LocalNetworkID, Outs: []txs.TransferableOutput{txs.TransferTo(g.AVAXAssetID, keep, ewoq)}},
			Import: txs.Import{SourceChain: g.XChainID, ImportedIns: []txs.TransferableInput{txs.SpendUTXO(exported)}},
		}, ewoqKey)
	}
	first, second := importOf(5_000_000_000-burn), importOf(4_000_000_000)
	require.NoError(t, vm.IssueTx(first))
	err = vm.IssueTx(second)
	require.ErrorIs(t, err, mempool.ErrConflictsWithOtherTx)
	require.EqualError(t, err, "tx conflicts with other tx: "+second.ID().String())

	built, err := vm.BuildBlock(ctx)
	require.NoError(t, err)
	require.NoError(t, built.Verify(ctx))
	batch := db.NewBatch()
	require.NoError(t, built.Accept(ctx, batch))
	batch.Close()
	_, err = pShared.Get(g.XChainID, []ids.ID{exported.InputID()})
	require.NoError(t, err, "not imported without the commit")

	// The real acceptance: the tx issued again is refused as its import is spent.
	utxovmtest.AcceptSpent(t, vm, db, built, first, utxo.ErrUTXONotFound)
	_, err = pShared.Get(g.XChainID, []ids.ID{exported.InputID()})
	require.ErrorIs(t, err, atomic.ErrNotFound)
	_, err = vm.BuildBlock(ctx)
	require.ErrorIs(t, err, chains.ErrNoWork, "the conflicting import left the mempool")
	require.ErrorIs(t, vm.IssueTx(second), utxo.ErrUTXONotFound)
}
