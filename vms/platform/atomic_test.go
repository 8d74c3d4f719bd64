package platform_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains/atomic"
	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/genesis"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
	"github.com/cornice-node/cornice/vms/internal/utxovmtest"
	"github.com/cornice-node/cornice/vms/internal/vectortest"
	"github.com/cornice-node/cornice/vms/platform/txs"
)

// atomicVector returns a vector of codec-vectors-2.json.
func atomicVector(t *testing.T, name string) map[string]json.RawMessage {
	t.Helper()
	return vectortest.RawVector(t, vectortest.Load2[vectortest.RawFile](t).Vectors, name)
}

// exported is a vector's exportedUTXOs entry.
type exported struct {
	UTXOID       string `json:"utxoID"`
	UTXOBytesHex string `json:"utxoBytesHex"`
}

func exportedOf(t *testing.T, vec map[string]json.RawMessage) exported {
	t.Helper()
	var e []exported
	require.NoError(t, json.Unmarshal(vec["exportedUTXOs"], &e))
	require.Len(t, e, 1)
	return e[0]
}

// shared returns chain id's handle on the node's shared memory.
func (n *node) shared(id ids.ID) *atomic.SharedMemory {
	return atomic.New(n.DB.Prefixed(storage.PrefixAtomic)).For(id)
}

// atomicUTXOs returns getUTXOs' atomic UTXOs of addr from sourceChain, in hexnc.
func (n *node) atomicUTXOs(addr, sourceChain string) []string {
	n.t.Helper()
	var reply struct {
		UTXOs []string `json:"utxos"`
	}
	n.Result("getUTXOs", `{"addresses":["`+addr+`"],"sourceChain":"`+sourceChain+`","encoding":"hexnc"}`, &reply)
	return reply.UTXOs
}

// requireGetTx checks that getTx in json gives the vector's form.
func (n *node) requireGetTx(t *testing.T, vec map[string]json.RawMessage, txID ids.ID) {
	t.Helper()
	var want struct {
		Tx json.RawMessage `json:"tx"`
	}
	require.NoError(t, json.Unmarshal(vec["platform.getTx(json)"], &want))
	require.Equal(t, `{"tx":`+vectortest.Compact(t, want.Tx)+`,"encoding":"json"}`,
		n.RawResult("getTx", `{"txID":"`+txID.String()+`","encoding":"json"}`))
}

// TestAtomicVectors issues the P-Chain's ExportTx and ImportTx vectors: the export's UTXO lands
// in the X-Chain's shared memory byte for byte in the export's block; the X-Chain's export to the
// P-Chain is listed by getUTXOs with sourceChain, imported by the ImportTx vector, and gone from
// shared memory with it; importing it again is refused with the reference's words.
func TestAtomicVectors(t *testing.T) {
	t.Parallel()
	clk := clock.NewFake(vectorTime)
	n := startNode(t, t.TempDir(), clk)
	xID := n.g.XChainID

	// P → X.
	vec := atomicVector(t, "p_export_tx_to_x")
	exportID := n.issueBytes(vectorBytes(t, vec))
	require.Equal(t, vectortest.RawString(t, vec, "txID"), exportID.String())
	n.requireGetTx(t, vec, exportID)
	e := exportedOf(t, vec)
	values, err := n.shared(xID).Get(ids.Empty, []ids.ID{vectortest.CB58(t, e.UTXOID)})
	require.NoError(t, err)
	require.Equal(t, [][]byte{vectortest.Unhex(t, e.UTXOBytesHex)}, values)
	keys, err := n.shared(xID).Keys(ids.Empty, addrOf(key(t, ewoqKeyHex)), ids.Empty, 10)
	require.NoError(t, err)
	require.Equal(t, []ids.ID{vectortest.CB58(t, e.UTXOID)}, keys, "indexed by its owner")

	// X → P: the X-Chain's block put its export into the P-Chain's shared memory.
	xe := exportedOf(t, atomicVector(t, "x_export_tx_to_p"))
	utxovmtest.Export(t, n.DB, xID, ids.Empty, vectortest.CB58(t, xe.UTXOID), vectortest.Unhex(t, xe.UTXOBytesHex), addrOf(key(t, ewoqKeyHex)))
	utxoHex, err := ids.HexNC.Encode(vectortest.Unhex(t, xe.UTXOBytesHex))
	require.NoError(t, err)
	require.Equal(t, []string{utxoHex}, n.atomicUTXOs(ewoqP, "X"))
	require.NotContains(t, n.atomicUTXOs(ewoqP, ""), utxoHex, "its own UTXOs are another set")

	clk.Advance(time.Second)
	vec = atomicVector(t, "p_import_tx_from_x")
	before := n.balance(ewoqP)
	importID := n.issueBytes(vectorBytes(t, vec))
	require.Equal(t, vectortest.RawString(t, vec, "txID"), importID.String())
	n.requireGetTx(t, vec, importID)
	require.Equal(t, before+9_999_000_000, n.balance(ewoqP))
	require.Empty(t, n.atomicUTXOs(ewoqP, "X"))

	// Importing it twice.
	require.Equal(t, "couldn't issue tx: failed verification: failed execution: standard tx "+importID.String()+
		" failed execution: failed to get shared memory: not found", n.IssueError(vectorBytes(t, vec)))
}

// TestAtomicRefusals covers the ImportTx and ExportTx the P-Chain refuses, with the reference's
// texts, changing nothing.
func TestAtomicRefusals(t *testing.T) {
	t.Parallel()
	n := startNode(t, t.TempDir(), clock.NewFake(vectorTime))
	ewoqKey := key(t, ewoqKeyHex)
	ewoq := addrOf(ewoqKey)
	avax := n.g.AVAXAssetID
	ux := n.largest(ewoqP)
	start := n.balance(ewoqP)
	importOf := func(source ids.ID) *txs.Tx {
		ref := txs.SpendUTXO(ux)
		ref.TxID = ids.ID{'n', 'o', 'n', 'e'}
		return sign(t, &txs.ImportTx{
			BaseTx: txs.BaseTx{NetworkID: genesis.LocalNetworkID, Outs: []txs.TransferableOutput{txs.TransferTo(avax, amountOf(ux)-burn, ewoq)}},
			Import: txs.Import{SourceChain: source, ImportedIns: []txs.TransferableInput{ref}},
		}, ewoqKey)
	}
	prefix := func(tx *txs.Tx) string {
		return "couldn't issue tx: failed verification: failed execution: standard tx " + tx.ID().String() + " failed execution: "
	}
	tx := importOf(n.g.XChainID)
	require.Equal(t, prefix(tx)+"failed to get shared memory: not found", n.IssueTxError(tx), "the X-Chain exported nothing")
	tx = importOf(ids.Empty)
	require.Equal(t, prefix(tx)+"same chainID", n.IssueTxError(tx))
	tx = importOf(ids.ID{9})
	require.Equal(t, prefix(tx)+`failed to get subnet of "`+ids.ID{9}.String()+`": not found`, n.IssueTxError(tx))

	base := n.baseTx(ux, 0, ewoq, ewoq)
	tooMuch := sign(t, &txs.ExportTx{
		BaseTx: base,
		Export: txs.Export{DestinationChain: n.g.XChainID, ExportedOuts: []txs.TransferableOutput{txs.TransferTo(avax, amountOf(ux), ewoq)}},
	}, ewoqKey)
	// The outputs: the change, the exported whole UTXO and the fee (its gas at the price).
	require.Regexp(t, "^"+prefix(tooMuch)+"insufficient funds: asset "+avax.String()+": inputs 20000000000000000 < outputs plus fee 3999999999900[0-9]{4}$",
		n.IssueTxError(tooMuch))
	require.Equal(t, start, n.balance(ewoqP), "nothing changed")
	require.Equal(t, "0", n.Height())
	require.Empty(t, n.atomicUTXOs(ewoqP, "X"))
}
