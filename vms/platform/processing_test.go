package platform_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/genesis"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/internal/utxovmtest"
	"github.com/cornice-node/cornice/vms/platform/txs"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// TestProcessing runs the UTXO chains' processing suite on the P-Chain: the child block is
// verified on the state its parent leaves (UTXOs, txs, fee state).
func TestProcessing(t *testing.T) {
	t.Parallel()
	vm, db, g := newUnitVM(t)
	ewoqKey, vmrqKey := key(t, ewoqKeyHex), key(t, vmrqKeyHex)
	ewoq, vmrq := addrOf(ewoqKey), addrOf(vmrqKey)
	genesisUTXO := unlockedGenesisUTXO(t, g, ewoq)
	n := &node{t: t, g: g}
	first := sign(t, ptr(n.baseTx(genesisUTXO, 1_000, vmrq, ewoq)), ewoqKey)
	change := first.UTXOs()[slices.IndexFunc(first.UTXOs(), func(u txs.UTXO) bool {
		return u.Out.(*secp256k1fx.TransferOutput).Addrs[0] == ewoq
	})]
	chained := sign(t, ptr(n.baseTx(&change, 0, ewoq, ewoq)), ewoqKey)
	utxovmtest.TestProcessing(t, utxovmtest.Processing[*txs.Tx]{
		VM:       vm,
		DB:       db,
		First:    first,
		Conflict: sign(t, ptr(n.baseTx(genesisUTXO, 2_000, vmrq, ewoq)), ewoqKey),
		Chained:  chained,
		Next:     sign(t, ptr(n.baseTx(&chained.UTXOs()[0], 0, ewoq, ewoq)), ewoqKey),
		Block:    standardBlock,
		TxIDs:    blockTxIDs,
	})
}

// TestRejectKeepsTxs runs the UTXO chains' rejection test on the P-Chain.
func TestRejectKeepsTxs(t *testing.T) {
	t.Parallel()
	vm, _, g := newUnitVM(t)
	ewoqKey, vmrqKey := key(t, ewoqKeyHex), key(t, vmrqKeyHex)
	ewoq, vmrq := addrOf(ewoqKey), addrOf(vmrqKey)
	n := &node{t: t, g: g}
	tx := sign(t, ptr(n.baseTx(unlockedGenesisUTXO(t, g, ewoq), 1_000, vmrq, ewoq)), ewoqKey)
	utxovmtest.TestRejectKeepsTxs(t, vm, tx, blockTxIDs)
}

// standardBlock returns the bytes of a Banff standard block on parent.
var standardBlock = utxovmtest.StandardBlock(txs.NewStandardBlock)

// blockTxIDs returns the IDs of b's txs.
func blockTxIDs(t *testing.T, b chains.Block) []ids.ID {
	t.Helper()
	blk, err := txs.ParseBlock(b.Bytes())
	require.NoError(t, err)
	var out []ids.ID
	for _, tx := range blk.Txs() {
		out = append(out, tx.ID())
	}
	return out
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
