package exchange_test

import (
	"testing"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/ids"
	xtxs "github.com/cornice-node/cornice/vms/exchange/txs"
	"github.com/cornice-node/cornice/vms/internal/utxovmtest"
)

// TestProcessing runs the UTXO chains' processing suite on the X-Chain.
func TestProcessing(t *testing.T) {
	t.Parallel()
	vm, db, g := newUnitVM(t)
	n := &node{t: t, g: g}
	ewoqKey, ewoq, vmrq, genesisUTXO := genesisSpend(t, g)
	avax := g.AVAXAssetID
	first := sign(t, n.baseTx([]xtxs.TransferableOutput{xtxs.TransferTo(avax, 1_000, vmrq), xtxs.TransferTo(avax, ewoqGenesis-1_000-fee, ewoq)}, xtxs.SpendUTXO(genesisUTXO)), ewoqKey)
	firstUTXOs := first.UTXOs()
	chained := sign(t, n.baseTx([]xtxs.TransferableOutput{xtxs.TransferTo(avax, ewoqGenesis-1_000-2*fee, ewoq)}, xtxs.SpendUTXO(&firstUTXOs[1])), ewoqKey)
	chainedUTXOs := chained.UTXOs()
	utxovmtest.TestProcessing(t, utxovmtest.Processing[*xtxs.Tx]{
		VM:       vm,
		DB:       db,
		First:    first,
		Conflict: sign(t, n.baseTx([]xtxs.TransferableOutput{xtxs.TransferTo(avax, ewoqGenesis-fee, vmrq)}, xtxs.SpendUTXO(genesisUTXO)), ewoqKey),
		Chained:  chained,
		Next:     sign(t, n.baseTx([]xtxs.TransferableOutput{xtxs.TransferTo(avax, 1, vmrq)}, xtxs.SpendUTXO(&chainedUTXOs[0])), ewoqKey),
		Block:    standardBlock,
		TxIDs:    blockTxIDs,
	})
}

// TestRejectKeepsTxs runs the UTXO chains' rejection test on the X-Chain.
func TestRejectKeepsTxs(t *testing.T) {
	t.Parallel()
	vm, _, g := newUnitVM(t)
	n := &node{t: t, g: g}
	ewoqKey, ewoq, vmrq, genesisUTXO := genesisSpend(t, g)
	tx := sign(t, n.baseTx([]xtxs.TransferableOutput{xtxs.TransferTo(g.AVAXAssetID, 1_000, vmrq), xtxs.TransferTo(g.AVAXAssetID, ewoqGenesis-1_000-fee, ewoq)}, xtxs.SpendUTXO(genesisUTXO)), ewoqKey)
	utxovmtest.TestRejectKeepsTxs(t, vm, tx, blockTxIDs)
}

// standardBlock returns the bytes of a standard block on parent.
var standardBlock = utxovmtest.StandardBlock(xtxs.NewStandardBlock)

// blockTxIDs returns the IDs of b's txs.
func blockTxIDs(t *testing.T, b chains.Block) []ids.ID {
	t.Helper()
	var out []ids.ID
	for _, c := range b.(chains.TxLister).Txs() {
		out = append(out, c.ID)
	}
	return out
}
