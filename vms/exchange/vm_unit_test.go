package exchange_test

import (
	"crypto/ecdsa"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/chains/atomic"
	"github.com/cornice-node/cornice/genesis"
	"github.com/cornice-node/cornice/genesis/genesistest"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
	"github.com/cornice-node/cornice/vms/components/utxo"
	"github.com/cornice-node/cornice/vms/exchange"
	xtxs "github.com/cornice-node/cornice/vms/exchange/txs"
	"github.com/cornice-node/cornice/vms/internal/mempool"
	"github.com/cornice-node/cornice/vms/internal/processing"
	"github.com/cornice-node/cornice/vms/internal/utxovmtest"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// newUnitVM returns a local X-Chain VM on a database in a temp directory, at the vectors' time
// on a fake clock, with no pipeline around it: the test drives it.
func newUnitVM(t *testing.T) (*exchange.VM, *storage.DB, *genesis.Genesis) {
	vm, db, g, _ := newUnitVMShared(t)
	return vm, db, g
}

// newUnitVMShared is newUnitVM, with the P-Chain's handle on shared memory: what it exports
// reaches the X-Chain.
func newUnitVMShared(t *testing.T) (*exchange.VM, *storage.DB, *genesis.Genesis, *atomic.SharedMemory) {
	t.Helper()
	g := genesistest.Local(t)
	u := utxovmtest.NewUnit(t, genesis.LocalNetworkID, g.XChainID, g.XGenesis, storage.PrefixExchange,
		chains.Chain{ID: ids.Empty, Name: "P-Chain"}, "P", vectorTime)
	vm, err := exchange.New(t.Context(), exchange.Factory{CortinaTime: cortinaTime, TxFee: fee, CreateAssetTxFee: fee}, u.Context)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, vm.Close()) })
	return vm, u.DB, g, u.Memory.For(ids.Empty)
}

// ewoqGenesis is the AVAX of ewoq's genesis UTXO on the local X-Chain (nAVAX).
const ewoqGenesis = 300_000_000_000_000_000

// genesisSpend returns what the unit tests spend first: the ewoq key, ewoq's and vmrq's
// addresses, and the genesis UTXO of ewoqGenesis AVAX that ewoq owns.
func genesisSpend(t *testing.T, g *genesis.Genesis) (*ecdsa.PrivateKey, ids.ShortID, ids.ShortID, *xtxs.UTXO) {
	t.Helper()
	ewoqKey := key(t, ewoqKeyHex)
	utxos := g.AVAX.UTXOs()
	return ewoqKey, addrOf(ewoqKey), parseAddr(t, vmrqX), &utxos[1]
}

// TestPipelineContract drives the VM as the pipeline does, step by step: the mempool refuses
// conflicts and duplicates and takes chained txs, a built block holds them in order, a block
// with a double spend or a wrong header fails Verify, and an Accept whose batch is not
// committed changes nothing.
func TestPipelineContract(t *testing.T) {
	t.Parallel()
	vm, db, g := newUnitVM(t)
	ctx := t.Context()
	n := &node{t: t, g: g}
	ewoqKey, ewoq, vmrq, genesisUTXO := genesisSpend(t, g)
	avax := g.AVAXAssetID
	require.Equal(t, "Gqdc55Wu2egMkQABwJb74h6UydveDxHCMo1uEEUKeEVvPeoUc", genesisUTXO.InputID().String())

	_, err := vm.BuildBlock(ctx)
	require.ErrorIs(t, err, chains.ErrNoWork)

	first := sign(t, n.baseTx([]xtxs.TransferableOutput{xtxs.TransferTo(avax, 1_000, vmrq), xtxs.TransferTo(avax, ewoqGenesis-1_000-fee, ewoq)}, xtxs.SpendUTXO(genesisUTXO)), ewoqKey)
	conflict := sign(t, n.baseTx([]xtxs.TransferableOutput{xtxs.TransferTo(avax, ewoqGenesis-fee, vmrq)}, xtxs.SpendUTXO(genesisUTXO)), ewoqKey)
	require.NoError(t, vm.IssueTx(first))
	require.ErrorIs(t, vm.IssueTx(conflict), utxo.ErrDoubleSpend)
	require.ErrorIs(t, vm.IssueTx(first), mempool.ErrDuplicateTx)
	select {
	case <-vm.WorkReady():
	default:
		t.Fatal("no work signal after a tx was issued")
	}

	// A pending tx may spend a pending tx's output.
	firstUTXOs := first.UTXOs()
	change := &firstUTXOs[1]
	chained := sign(t, n.baseTx([]xtxs.TransferableOutput{xtxs.TransferTo(avax, ewoqGenesis-1_000-2*fee, ewoq)}, xtxs.SpendUTXO(change)), ewoqKey)
	require.NoError(t, vm.IssueTx(chained))

	// A block with the pending txs in order; Accept into a batch that is never committed
	// changes nothing.
	built, err := vm.BuildBlock(ctx)
	require.NoError(t, err)
	require.Equal(t, uint64(1), built.Height())
	require.Equal(t, vectorTime.UTC(), built.Timestamp())
	require.Equal(t, []chains.Container{{ID: first.ID(), Bytes: first.Bytes()}, {ID: chained.ID(), Bytes: chained.Bytes()}},
		built.(chains.TxLister).Txs())
	require.NoError(t, built.Verify(ctx))
	batch := db.NewBatch()
	require.NoError(t, built.Accept(ctx, batch))
	batch.Close()
	_, err = vm.GetBlockIDAtHeight(ctx, 1)
	require.ErrorIs(t, err, chains.ErrBlockNotFound)
	last, err := vm.LastAccepted(ctx)
	require.NoError(t, err)
	require.Equal(t, built.Parent(), last)

	// Blocks that fail Verify.
	parent := xtxs.NewGenesisBlock(xtxs.EmptyStopVertexID(g.XChainID), uint64(cortinaTime.Unix()))
	at := uint64(vectorTime.Unix())
	tests := []struct {
		name    string
		parent  ids.ID
		height  uint64
		time    uint64
		txs     []*xtxs.Tx
		wantErr error
	}{
		{"double spend in a block", parent.ID(), 1, at, []*xtxs.Tx{first, conflict}, utxo.ErrDoubleSpend},
		{"same tx twice", parent.ID(), 1, at, []*xtxs.Tx{first, first}, mempool.ErrDuplicateTx},
		{"no txs", parent.ID(), 1, at, nil, exchange.ErrNoTxs},
		{"wrong parent", ids.ID{1}, 1, at, []*xtxs.Tx{first}, processing.ErrWrongParent},
		{"wrong height", parent.ID(), 2, at, []*xtxs.Tx{first}, processing.ErrWrongParent},
		{"before its parent", parent.ID(), 1, parent.Time() - 1, []*xtxs.Tx{first}, exchange.ErrBlockTime},
		{"too far ahead", parent.ID(), 1, at + 11, []*xtxs.Tx{first}, exchange.ErrBlockTime},
		{"chained out of order", parent.ID(), 1, at, []*xtxs.Tx{chained, first}, utxo.ErrUTXONotFound},
	}
	for _, tt := range tests {
		blk, err := xtxs.NewStandardBlock(tt.parent, tt.height, tt.time, tt.txs)
		require.NoError(t, err)
		parsed, err := vm.ParseBlock(ctx, blk.Bytes())
		require.NoError(t, err)
		require.ErrorIs(t, parsed.Verify(ctx), tt.wantErr, tt.name)
	}

	// The real acceptance: commit, then Accepted; the mempool is empty again.
	utxovmtest.AcceptSpent(t, vm, db, built, first, utxo.ErrUTXONotFound)
	last, err = vm.LastAccepted(ctx)
	require.NoError(t, err)
	require.Equal(t, built.ID(), last)
	_, err = vm.BuildBlock(ctx)
	require.ErrorIs(t, err, chains.ErrNoWork)
	// Across blocks: the genesis UTXO is gone, the first tx's change too (spent in the block).
	require.ErrorIs(t, vm.IssueTx(conflict), utxo.ErrUTXONotFound)
	again := sign(t, n.baseTx([]xtxs.TransferableOutput{xtxs.TransferTo(avax, 1, vmrq)}, xtxs.SpendUTXO(change)), ewoqKey)
	require.ErrorIs(t, vm.IssueTx(again), utxo.ErrUTXONotFound)
	got, err := vm.GetBlock(ctx, built.ID())
	require.NoError(t, err)
	require.Equal(t, built.Bytes(), got.Bytes())
}

// TestForgedCredentials runs the UTXO chains' forged-credentials test on the X-Chain.
func TestForgedCredentials(t *testing.T) {
	t.Parallel()
	vm, db, g := newUnitVM(t)
	n := &node{t: t, g: g}
	ewoqKey, vmrqKey := key(t, ewoqKeyHex), key(t, vmrqKeyHex)
	ewoq, vmrq := addrOf(ewoqKey), addrOf(vmrqKey)
	avax := g.AVAXAssetID
	utxos := g.AVAX.UTXOs()
	good := sign(t, n.baseTx([]xtxs.TransferableOutput{xtxs.TransferTo(avax, 1_000, vmrq), xtxs.TransferTo(avax, ewoqGenesis-1_000-fee, ewoq)}, xtxs.SpendUTXO(&utxos[1])), ewoqKey)
	goodUTXOs := good.UTXOs()
	utxovmtest.TestForgedCredentials(t, utxovmtest.Forged[*xtxs.Tx]{
		VM:     vm,
		DB:     db,
		Good:   good,
		Other:  sign(t, good.Unsigned(), vmrqKey),
		Resign: func(c []secp256k1fx.Credential) (*xtxs.Tx, error) { return xtxs.NewTx(good.Unsigned(), c) },
		Next:   sign(t, n.baseTx([]xtxs.TransferableOutput{xtxs.TransferTo(avax, ewoqGenesis-1_000-2*fee, ewoq)}, xtxs.SpendUTXO(&goodUTXOs[1])), ewoqKey),
		Creds:  (*xtxs.Tx).Creds,
		Block:  standardBlock,
	})
}
