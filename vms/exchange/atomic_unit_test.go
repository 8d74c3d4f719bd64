package exchange_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/chains/atomic"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
	"github.com/cornice-node/cornice/vms/components/utxo"
	xtxs "github.com/cornice-node/cornice/vms/exchange/txs"
	"github.com/cornice-node/cornice/vms/internal/mempool"
	"github.com/cornice-node/cornice/vms/internal/utxovmtest"
	"github.com/cornice-node/cornice/vms/internal/vectortest"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// TestAtomicPipeline drives the VM as the pipeline does with atomic txs: a pending import
// conflicts with a second one of the same UTXO, a block's Accept stages its imports and exports
// into the block's batch (nothing of them without the commit), and after the commit the UTXO is
// gone from shared memory and the export is the P-Chain's to import.
func TestAtomicPipeline(t *testing.T) {
	t.Parallel()
	vm, db, g, pShared := newUnitVMShared(t)
	ctx := t.Context()
	n := &node{t: t, g: g}
	ewoqKey := key(t, ewoqKeyHex)
	ewoq := addrOf(ewoqKey)
	avax := g.AVAXAssetID

	// The P-Chain exported 5 AVAX to ewoq.
	exported := &xtxs.UTXO{
		UTXOID:  utxo.UTXOID{TxID: ids.ID{'p'}, OutputIndex: 1},
		AssetID: avax,
		Out:     &secp256k1fx.TransferOutput{Amount: 5_000_000_000, OutputOwners: secp256k1fx.OutputOwners{Threshold: 1, Addrs: []ids.ShortID{ewoq}}},
	}
	b, err := exported.Bytes()
	require.NoError(t, err)
	utxovmtest.Export(t, db, ids.Empty, g.XChainID, exported.InputID(), b, ewoq)

	importOf := func(keep uint64) *xtxs.Tx {
		return sign(t, &xtxs.ImportTx{
			BaseTx: *n.baseTx([]xtxs.TransferableOutput{xtxs.TransferTo(avax, keep, ewoq)}),
			Import: xtxs.Import{SourceChain: ids.Empty, ImportedIns: []xtxs.TransferableInput{xtxs.SpendUTXO(exported)}},
		}, ewoqKey)
	}
	first, second := importOf(5_000_000_000-fee), importOf(4_000_000_000)
	require.NoError(t, vm.IssueTx(first))
	require.EqualError(t, vm.IssueTx(second), "tx conflicts with other tx: "+second.ID().String())

	utxos := g.AVAX.UTXOs()
	genesisUTXO := &utxos[1]
	export := sign(t, &xtxs.ExportTx{
		BaseTx: *n.baseTx([]xtxs.TransferableOutput{xtxs.TransferTo(avax, ewoqGenesis-7_000_000_000-fee, ewoq)}, xtxs.SpendUTXO(genesisUTXO)),
		Export: xtxs.Export{DestinationChain: ids.Empty, ExportedOuts: []xtxs.TransferableOutput{xtxs.TransferTo(avax, 7_000_000_000, ewoq)}},
	}, ewoqKey)
	require.NoError(t, vm.IssueTx(export))

	// Two imports of one UTXO in a block fail its verification.
	parent, err := vm.LastAccepted(ctx)
	require.NoError(t, err)
	twice, err := xtxs.NewStandardBlock(parent, 1, uint64(vectorTime.Unix()), []*xtxs.Tx{first, second})
	require.NoError(t, err)
	parsed, err := vm.ParseBlock(ctx, twice.Bytes())
	require.NoError(t, err)
	require.ErrorIs(t, parsed.Verify(ctx), mempool.ErrConflictsWithOtherTx)

	built, err := vm.BuildBlock(ctx)
	require.NoError(t, err)
	require.NoError(t, built.Verify(ctx))
	exportedToP := export.Unsigned().(*xtxs.ExportTx).ExportedUTXOs(export.ID())
	require.Len(t, exportedToP, 1)
	require.Equal(t, uint32(1), exportedToP[0].OutputIndex, "after the tx's own output")
	xView := atomic.New(db.Prefixed(storage.PrefixAtomic)).For(g.XChainID)

	// Accept into a batch that is never committed: shared memory is untouched.
	batch := db.NewBatch()
	require.NoError(t, built.Accept(ctx, batch))
	batch.Close()
	_, err = xView.Get(ids.Empty, []ids.ID{exported.InputID()})
	require.NoError(t, err)
	_, err = pShared.Get(g.XChainID, []ids.ID{exportedToP[0].InputID()})
	require.ErrorIs(t, err, atomic.ErrNotFound)

	// The commit moves both.
	vectortest.Accept(t, vm, db, built)
	_, err = xView.Get(ids.Empty, []ids.ID{exported.InputID()})
	require.ErrorIs(t, err, atomic.ErrNotFound)
	values, err := pShared.Get(g.XChainID, []ids.ID{exportedToP[0].InputID()})
	require.NoError(t, err)
	want, err := exportedToP[0].Bytes()
	require.NoError(t, err)
	require.Equal(t, [][]byte{want}, values)
	keys, err := pShared.Keys(g.XChainID, ewoq, ids.Empty, 10)
	require.NoError(t, err)
	require.Equal(t, []ids.ID{exportedToP[0].InputID()}, keys)

	// The conflicting import has left the mempool, and is refused now that the UTXO is gone.
	_, err = vm.BuildBlock(ctx)
	require.ErrorIs(t, err, chains.ErrNoWork)
	require.EqualError(t, vm.IssueTx(second), "not found")
}
