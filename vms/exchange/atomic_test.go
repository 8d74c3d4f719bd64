package exchange_test

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/genesis"
	"github.com/cornice-node/cornice/ids"
	xtxs "github.com/cornice-node/cornice/vms/exchange/txs"
	"github.com/cornice-node/cornice/vms/internal/utxovmtest"
	"github.com/cornice-node/cornice/vms/internal/vectortest"
)

// startWithPeers starts the local X-Chain with the P- and C-Chains in its registry (not running):
// the peers of its atomic txs.
func startWithPeers(t *testing.T) *node {
	t.Helper()
	return startNodeWith(t, filepath.Join(t.TempDir(), "db"), clock.NewFake(vectorTime), func(r *chains.Registry, g *genesis.Genesis) {
		require.NoError(t, r.Register(chains.Chain{ID: ids.Empty, Name: "P-Chain"}, "P"))
		require.NoError(t, r.Register(chains.Chain{ID: g.CChainID, Name: "C-Chain"}, "C"))
	})
}

// atomicVector returns a vector of codec-vectors-2.json.
func atomicVector(t *testing.T, name string) map[string]json.RawMessage {
	t.Helper()
	return vectortest.RawVector(t, vectortest.Load2[vectortest.RawFile](t).Vectors, name)
}

// exportFromP puts into the X-Chain's shared memory the UTXO that the P-Chain's ExportTx vector
// exported, as the P-Chain's accepted block does.
func (n *node) exportFromP(t *testing.T) (utxoID ids.ID, utxoBytes []byte) {
	t.Helper()
	var exported []struct {
		UTXOID       string `json:"utxoID"`
		UTXOBytesHex string `json:"utxoBytesHex"`
	}
	require.NoError(t, json.Unmarshal(atomicVector(t, "p_export_tx_to_x")["exportedUTXOs"], &exported))
	utxoID = vectortest.CB58(t, exported[0].UTXOID)
	utxoBytes = vectortest.Unhex(t, exported[0].UTXOBytesHex)
	utxovmtest.Export(t, n.DB, ids.Empty, n.g.XChainID, utxoID, utxoBytes, parseAddr(t, ewoqX))
	return utxoID, utxoBytes
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

// TestImportFromP imports the vectors' P→X export: getUTXOs lists it with sourceChain, the
// ImportTx vector is accepted and reads back as the reference's JSON, the UTXO leaves shared
// memory in the block's batch and becomes ewoq's, and importing it again is refused.
func TestImportFromP(t *testing.T) {
	t.Parallel()
	n := startWithPeers(t)
	_, utxoBytes := n.exportFromP(t)
	require.Equal(t, []string{hexOf(t, utxoBytes)}, n.atomicUTXOs(ewoqX, "P"))
	require.Equal(t, n.atomicUTXOs(ewoqX, "P"), n.atomicUTXOs(ewoqX, ids.Empty.String()), "an ID names the chain too")
	require.Empty(t, n.atomicUTXOs(ewoqX, "C"))
	require.Equal(t, `{"jsonrpc":"2.0","error":{"code":-32000,"message":"problem parsing source chainID \"Q\": there is no ID with alias: Q","data":null},"id":1}`,
		n.Call("getUTXOs", `{"addresses":["`+ewoqX+`"],"sourceChain":"Q"}`))

	vec := atomicVector(t, "x_import_tx_from_p")
	before := n.balance(ewoqX, "AVAX")
	var reply struct {
		TxID ids.ID `json:"txID"`
	}
	n.Result("issueTx", `{"tx":"`+vectorString(t, vec, "signedBytesHexChecksum(issueTx hex encoding)")+`"}`, &reply)
	require.Equal(t, vectorString(t, vec, "txID"), reply.TxID.String())
	n.waitAccepted(reply.TxID)
	require.Equal(t, before+9_999_000_000, n.balance(ewoqX, "AVAX"))
	require.Empty(t, n.atomicUTXOs(ewoqX, "P"), "imported: gone from shared memory")

	var getTx struct {
		Tx json.RawMessage `json:"tx"`
	}
	require.NoError(t, json.Unmarshal(vec["avm.getTx(json)"], &getTx))
	require.Equal(t, `{"jsonrpc":"2.0","result":{"tx":`+vectortest.Compact(t, getTx.Tx)+`,"encoding":"json"},"id":1}`,
		n.Call("getTx", `{"txID":"`+reply.TxID.String()+`","encoding":"json"}`))

	// Importing it twice: shared memory no longer has it (the reference's miss).
	require.Equal(t, "not found", n.IssueError(vectortest.Unhex(t, vectorString(t, vec, "signedBytesHex"))))
}

// TestAtomicRefusals covers the ImportTx and ExportTx a node refuses, with the reference's texts,
// changing nothing.
func TestAtomicRefusals(t *testing.T) {
	t.Parallel()
	n := startWithPeers(t)
	ewoqKey := key(t, ewoqKeyHex)
	ewoq := addrOf(ewoqKey)
	avax := n.g.AVAXAssetID
	genesisUTXO := n.utxos(ewoqX)[0]
	start := n.balance(ewoqX, "AVAX")
	importOf := func(source ids.ID, ref xtxs.TransferableInput, amount uint64) *xtxs.Tx {
		return sign(t, &xtxs.ImportTx{
			BaseTx: *n.baseTx([]xtxs.TransferableOutput{xtxs.TransferTo(avax, amount-fee, ewoq)}),
			Import: xtxs.Import{SourceChain: source, ImportedIns: []xtxs.TransferableInput{ref}},
		}, ewoqKey)
	}
	// An import from a chain that exported nothing.
	ref := xtxs.SpendUTXO(genesisUTXO)
	ref.UTXOID.TxID = ids.ID{'n', 'o', 'n', 'e'}
	require.Equal(t, "not found", n.IssueTxError(importOf(ids.Empty, ref, ref.In.Amount)))
	// An import from itself, and from a chain the node does not know.
	require.Equal(t, "same chainID", n.IssueTxError(importOf(n.g.XChainID, ref, ref.In.Amount)))
	require.Equal(t, `failed to get subnet of "`+ids.ID{9}.String()+`": not found`, n.IssueTxError(importOf(ids.ID{9}, ref, ref.In.Amount)))

	// An export larger than the balance.
	amount := start + 1
	tooMuch := sign(t, &xtxs.ExportTx{
		BaseTx: *n.baseTx(nil, xtxs.SpendUTXO(genesisUTXO)),
		Export: xtxs.Export{DestinationChain: ids.Empty, ExportedOuts: []xtxs.TransferableOutput{xtxs.TransferTo(avax, amount, ewoq)}},
	}, ewoqKey)
	require.Equal(t, "insufficient funds: asset "+avax.String()+": inputs 300000000000000000 < outputs plus fee 300000000001000001",
		n.IssueTxError(tooMuch))
	require.Equal(t, start, n.balance(ewoqX, "AVAX"), "nothing changed")
	require.Equal(t, "0", n.Height())
}

func hexOf(t *testing.T, b []byte) string {
	t.Helper()
	s, err := ids.HexNC.Encode(b)
	require.NoError(t, err)
	return s
}
