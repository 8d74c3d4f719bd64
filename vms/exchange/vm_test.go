package exchange_test

import (
	"bytes"
	"crypto/ecdsa"
	"encoding/binary"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/genesis"
	"github.com/cornice-node/cornice/genesis/genesistest"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
	"github.com/cornice-node/cornice/vms/address"
	"github.com/cornice-node/cornice/vms/chainapi"
	"github.com/cornice-node/cornice/vms/exchange"
	xapi "github.com/cornice-node/cornice/vms/exchange/api"
	xtxs "github.com/cornice-node/cornice/vms/exchange/txs"
	"github.com/cornice-node/cornice/vms/internal/utxovmtest"
	"github.com/cornice-node/cornice/vms/internal/vectortest"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// Keys of the local network (platform-exchange.md §2.5).
const (
	ewoqKeyHex = "56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027"
	vmrqKeyHex = "7a14fdf6bb1d53e28384f70209280dd8848bdc96b5f9eb7fdde9fcddc7ef1a0d"
	ewoqX      = "X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u"
	vmrqX      = "X-local1g65uqn6t77p656w64023nh8nd9updzmxyymev2"
	fee        = 1_000_000
)

// Local X-Chain parameters: Cortina at 2020-12-05T05:00:00Z (§6.1); the vectors' block time
// (§8.3) is the fake clock's start.
var (
	cortinaTime = time.Unix(1607144400, 0)
	vectorTime  = genesistest.VectorTime
)

// node is a chain manager running the local X-Chain over a database in a directory, its API
// served by an httptest server.
type node struct {
	*vectortest.Chain
	t *testing.T
	g *genesis.Genesis
}

func startNode(t *testing.T, dir string, clk clock.Clock) *node {
	t.Helper()
	return startNodeWith(t, dir, clk, func(*chains.Registry, *genesis.Genesis) {})
}

// startNodeWith is startNode with register adding other chains to the registry first.
func startNodeWith(t *testing.T, dir string, clk clock.Clock, register func(*chains.Registry, *genesis.Genesis)) *node {
	t.Helper()
	g := genesistest.Local(t)
	c := vectortest.StartChain(t, dir, clk, genesis.LocalNetworkID, "avm", func(r *chains.Registry) chains.Spec {
		register(r, g)
		return chains.Spec{
			Chain:   chains.Chain{ID: g.XChainID, VMID: genesis.AVMID, Name: genesis.XChainName},
			Aliases: []string{"X", "avm"},
			Prefix:  storage.PrefixExchange,
			Factory: exchange.Factory{CortinaTime: cortinaTime, TxFee: fee, CreateAssetTxFee: fee},
			Genesis: g.XGenesis,
			Indexed: true,
		}
	})
	return &node{Chain: c, t: t, g: g}
}

// issue issues tx and waits until it is accepted.
func (n *node) issue(tx *xtxs.Tx) {
	n.t.Helper()
	require.Equal(n.t, tx.ID(), n.IssueBytes(tx.Bytes()))
	n.waitAccepted(tx.ID())
}

func (n *node) waitAccepted(txID ids.ID) {
	n.t.Helper()
	n.WaitStatus(txID, "Accepted")
}

func (n *node) balance(addr, asset string) uint64 {
	n.t.Helper()
	var b struct {
		Balance uint64 `json:"balance,string"`
	}
	n.Result("getBalance", vectortest.MustJSON(n.t, map[string]string{"address": addr, "assetID": asset}), &b)
	return b.Balance
}

// utxos returns the UTXOs addr owns, parsed.
func (n *node) utxos(addr string) []*xtxs.UTXO {
	n.t.Helper()
	return vectortest.ParseAll(n.t, n.UTXOBytes(addr), xtxs.ParseUTXO)
}

// liveResponse returns the live node's response to an X-Chain call with these params, compacted:
// the bytes our node must send (reference/platform-exchange.md §8.1).
func liveResponse(t *testing.T, method, params string) string {
	t.Helper()
	return vectortest.Load[vectortest.RawFile](t).LiveNodeSamples.Response(t, "/ext/bc/X", method, params)
}

func vectorString(t *testing.T, vec map[string]json.RawMessage, key string) string {
	t.Helper()
	return vectortest.RawString(t, vec, key)
}

func key(t testing.TB, h string) *ecdsa.PrivateKey { return utxovmtest.Key(t, h) }

func addrOf(k *ecdsa.PrivateKey) ids.ShortID { return utxovmtest.Addr(k) }

func parseAddr(t *testing.T, s string) ids.ShortID {
	t.Helper()
	_, _, a, err := address.Parse(s)
	require.NoError(t, err)
	return a
}

// sign signs unsigned with one key per input (§3.2).
func sign(t testing.TB, unsigned xtxs.UnsignedTx, keys ...*ecdsa.PrivateKey) *xtxs.Tx {
	t.Helper()
	return utxovmtest.Sign(t, unsigned, xtxs.UnsignedBytes, xtxs.NewTx, keys...)
}

// sortOuts sorts outputs as §3.3 requires: asset, then the output's encoding (one-address
// TransferOutputs: amount first).
func sortOuts(outs []xtxs.TransferableOutput) []xtxs.TransferableOutput {
	enc := func(o xtxs.TransferableOutput) []byte {
		b := append([]byte(nil), o.AssetID[:]...)
		b = binary.BigEndian.AppendUint64(b, o.Out.Amount)
		b = binary.BigEndian.AppendUint64(b, o.Out.Locktime)
		b = binary.BigEndian.AppendUint32(b, o.Out.Threshold)
		for _, a := range o.Out.Addrs {
			b = append(b, a[:]...)
		}
		return b
	}
	slices.SortFunc(outs, func(a, b xtxs.TransferableOutput) int { return bytes.Compare(enc(a), enc(b)) })
	return outs
}

// baseTx makes a BaseTx of the local X-Chain.
func (n *node) baseTx(outs []xtxs.TransferableOutput, ins ...xtxs.TransferableInput) *xtxs.BaseTx {
	slices.SortFunc(ins, func(a, b xtxs.TransferableInput) int {
		if c := a.TxID.Compare(b.TxID); c != 0 {
			return c
		}
		return int(a.OutputIndex) - int(b.OutputIndex)
	})
	return &xtxs.BaseTx{
		NetworkID: genesis.LocalNetworkID, BlockchainID: n.g.XChainID,
		Outs: sortOuts(outs), Ins: ins, Memo: []byte{},
	}
}

// TestGenesis checks the chain a new node starts with against the reference's local X-Chain:
// the genesis block, the AVAX asset and its UTXOs, byte for byte with the live node's replies.
func TestGenesis(t *testing.T) {
	t.Parallel()
	n := startNode(t, t.TempDir(), clock.NewFake(vectorTime))
	g := n.g

	last := n.LastAccepted(g.XChainID)
	require.Equal(t, "2R2UY2pZMQr8nR9ywCdqn97Lp5a6hceqtLXkag6vH7KQSVvmst", last.String())
	require.Equal(t, g.XGenesisBlock(cortinaTime, ids.Empty).ID(), last)

	for _, tc := range []struct{ method, params string }{
		{"getBlockByHeight", `{"height":"0","encoding":"json"}`},
		{"getBlockByHeight", `{"height":"7","encoding":"json"}`},
		{"getBlock", `{"blockID":"2R2UY2pZMQr8nR9ywCdqn97Lp5a6hceqtLXkag6vH7KQSVvmst"}`},
		{"getBlock", `{"blockID":"2t3t1NUoMdzfLTBGkey55cScx2WkBLRx2mPBixD3HokrKrCkJD","encoding":"json"}`},
		{"getTx", `{"txID":"2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe","encoding":"json"}`},
		{"getTx", `{"txID":"2t3t1NUoMdzfLTBGkey55cScx2WkBLRx2mPBixD3HokrKrCkJD","encoding":"json"}`},
		{"getTxStatus", `{"txID":"2t3t1NUoMdzfLTBGkey55cScx2WkBLRx2mPBixD3HokrKrCkJD"}`},
		{"getAssetDescription", `{"assetID":"AVAX"}`},
		{"getTxFee", `{}`},
	} {
		t.Run(tc.method+tc.params, func(t *testing.T) {
			require.Equal(t, liveResponse(t, "avm."+tc.method, tc.params), n.Call(tc.method, tc.params))
		})
	}
	require.Equal(t, "0", n.Height())

	// The ewoq allocation is UTXO Gqdc55Wu… (§6.4).
	var page chainapi.GetUTXOsReply
	n.Result("getUTXOs", `{"addresses":["`+ewoqX+`"]}`, &page)
	require.Len(t, page.UTXOs, 1)
	require.Equal(t, chainapi.Index{Address: ewoqX, UTXO: "Gqdc55Wu2egMkQABwJb74h6UydveDxHCMo1uEEUKeEVvPeoUc"}, page.EndIndex)
	ux := n.utxos(ewoqX)[0]
	require.Equal(t, g.AVAXAssetID, ux.TxID)
	require.Equal(t, uint32(1), ux.OutputIndex)
	require.Equal(t, uint64(ewoqGenesis), n.balance(ewoqX, "AVAX"))
	require.Equal(t, uint64(0), n.balance(vmrqX, "AVAX"))
}

// TestVectors issues the reference's X-Chain vectors (§8.4): the BaseTx and then the
// CreateAssetTx that spends its change. At the vectors' block time, the first block is the
// vector block byte for byte, and every reply matches the live node's.
func TestVectors(t *testing.T) {
	t.Parallel()
	n := startNode(t, t.TempDir(), clock.NewFake(vectorTime))
	baseVec := vectortest.Named(t, "x_base_tx_transfer_avax")
	assetVec := vectortest.Named(t, "x_create_asset_tx")
	blockVec := vectortest.Named(t, "x_standard_block_with_base_tx")

	baseHex := vectorString(t, baseVec, "signedBytesHexChecksum(issueTx hex encoding)")
	params := `{"tx":"` + baseHex + `","encoding":"hex"}`
	require.Equal(t, `{"jsonrpc":"2.0","result":{"txID":"2YniMnxK9iJGHgzTvEtQWWmrHeP9yE3VYUitCa3ACdtgPc6yB6"},"id":1}`,
		n.Call("issueTx", params))
	baseID, err := ids.FromString("2YniMnxK9iJGHgzTvEtQWWmrHeP9yE3VYUitCa3ACdtgPc6yB6")
	require.NoError(t, err)
	n.waitAccepted(baseID)

	// The block is the vector's.
	require.Equal(t, "1", n.Height())
	var blk chainapi.GetBlockReply
	n.Result("getBlockByHeight", `{"height":"1","encoding":"hexnc"}`, &blk)
	require.Equal(t, `"`+vectorString(t, blockVec, "bytesHex")+`"`, string(blk.Block))
	var wantBlock struct {
		Block json.RawMessage `json:"block"`
	}
	require.NoError(t, json.Unmarshal(blockVec["avm.getBlock(json)"], &wantBlock))
	require.Equal(t, `{"jsonrpc":"2.0","result":{"block":`+vectortest.Compact(t, wantBlock.Block)+`,"encoding":"json"},"id":1}`,
		n.Call("getBlock", `{"blockID":"LN2R5132hCdNy55B1K8J9MFNZz8BuTZsGiQi9sLXzDJn4fhJj","encoding":"json"}`))

	// The tx reads back as the vectors and the live node give it.
	var getTx struct {
		Tx json.RawMessage `json:"tx"`
	}
	require.NoError(t, json.Unmarshal(baseVec["avm.getTx(json)"], &getTx))
	require.Equal(t, `{"jsonrpc":"2.0","result":{"tx":`+vectortest.Compact(t, getTx.Tx)+`,"encoding":"json"},"id":1}`,
		n.Call("getTx", `{"txID":"2YniMnxK9iJGHgzTvEtQWWmrHeP9yE3VYUitCa3ACdtgPc6yB6","encoding":"json"}`))
	var hexTx chainapi.GetTxReply
	n.Result("getTx", `{"txID":"2YniMnxK9iJGHgzTvEtQWWmrHeP9yE3VYUitCa3ACdtgPc6yB6"}`, &hexTx)
	var wantHex struct {
		Tx string `json:"tx"`
	}
	require.NoError(t, json.Unmarshal(baseVec["avm.getTx(hex)"], &wantHex))
	require.Equal(t, `"`+wantHex.Tx+`"`, string(hexTx.Tx))

	for _, tc := range []struct{ method, params string }{
		{"getTxStatus", `{"txID":"2YniMnxK9iJGHgzTvEtQWWmrHeP9yE3VYUitCa3ACdtgPc6yB6"}`},
		{"getUTXOs", `{"addresses":["` + ewoqX + `"],"encoding":"hex"}`},
		{"getBalance", `{"address":"` + ewoqX + `","assetID":"AVAX"}`},
		{"getAllBalances", `{"address":"` + ewoqX + `"}`},
		{"getAssetDescription", `{"assetID":"2YniMnxK9iJGHgzTvEtQWWmrHeP9yE3VYUitCa3ACdtgPc6yB6"}`},
		// Issuing it again: its input is spent (§6.5).
		{"issueTx", params},
	} {
		t.Run(tc.method, func(t *testing.T) {
			require.Equal(t, liveResponse(t, "avm."+tc.method, tc.params), n.Call(tc.method, tc.params))
		})
	}
	require.Equal(t, uint64(1_000_000_000), n.balance(vmrqX, "AVAX"))

	// The CreateAssetTx spends the change.
	assetHex := vectorString(t, assetVec, "signedBytesHexChecksum(issueTx hex encoding)")
	var reply chainapi.TxIDReply
	n.Result("issueTx", `{"tx":"`+assetHex+`"}`, &reply)
	require.Equal(t, "G3iThEcUwcd6XErwMxj5NfWnSLKS4irmmUnacGCve39fKnKH3", reply.TxID.String())
	n.waitAccepted(reply.TxID)
	require.NoError(t, json.Unmarshal(assetVec["avm.getTx(json)"], &getTx))
	require.Equal(t, `{"jsonrpc":"2.0","result":{"tx":`+vectortest.Compact(t, getTx.Tx)+`,"encoding":"json"},"id":1}`,
		n.Call("getTx", `{"txID":"G3iThEcUwcd6XErwMxj5NfWnSLKS4irmmUnacGCve39fKnKH3","encoding":"json"}`))
	require.Equal(t, `{"jsonrpc":"2.0","result":{"assetID":"G3iThEcUwcd6XErwMxj5NfWnSLKS4irmmUnacGCve39fKnKH3","name":"Test Token","symbol":"TEST","denomination":"2"},"id":1}`,
		n.Call("getAssetDescription", `{"assetID":"G3iThEcUwcd6XErwMxj5NfWnSLKS4irmmUnacGCve39fKnKH3"}`))
	require.Equal(t, uint64(1_000_000), n.balance(ewoqX, "G3iThEcUwcd6XErwMxj5NfWnSLKS4irmmUnacGCve39fKnKH3"))
	require.Equal(t, uint64(299_999_998_998_000_000), n.balance(ewoqX, "AVAX"))
	require.Equal(t, `{"jsonrpc":"2.0","result":{"balances":[{"asset":"AVAX","balance":"299999998998000000"},{"asset":"G3iThEcUwcd6XErwMxj5NfWnSLKS4irmmUnacGCve39fKnKH3","balance":"1000000"}]},"id":1}`,
		n.Call("getAllBalances", `{"address":"`+ewoqX+`"}`))

	// The tx index got both txs, in order, with their bytes (chains.TxLister).
	txs := n.Index.Txs()
	require.Len(t, n.Index.Blocks(), 2)
	require.Len(t, txs, 2)
	require.Equal(t, baseID, txs[0].ID)
	require.Equal(t, reply.TxID, txs[1].ID)
	tx, err := xtxs.ParseTx(txs[1].Bytes)
	require.NoError(t, err)
	require.Equal(t, reply.TxID, tx.ID())
}

// TestTransfers sends AVAX from ewoq to vmRQ and back, creates an asset and moves it, with txs
// built and signed here; then a restart keeps every balance, tx and block.
func TestTransfers(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	n := startNode(t, dir, clock.Real{})
	ewoqKey, vmrqKey := key(t, ewoqKeyHex), key(t, vmrqKeyHex)
	ewoq, vmrq := addrOf(ewoqKey), addrOf(vmrqKey)
	require.Equal(t, parseAddr(t, ewoqX), ewoq)
	require.Equal(t, parseAddr(t, vmrqX), vmrq)
	avax := n.g.AVAXAssetID

	// ewoq → vmRQ: 5 AVAX.
	ux := n.utxos(ewoqX)[0]
	n.issue(sign(t, n.baseTx([]xtxs.TransferableOutput{
		xtxs.TransferTo(avax, 5_000_000_000, vmrq), xtxs.TransferTo(avax, ewoqGenesis-5_000_000_000-fee, ewoq),
	}, xtxs.SpendUTXO(ux)), ewoqKey))
	require.Equal(t, uint64(5_000_000_000), n.balance(vmrqX, "AVAX"))
	require.Equal(t, uint64(ewoqGenesis-5_000_000_000-fee), n.balance(ewoqX, "AVAX"))

	// vmRQ → ewoq: 2 AVAX.
	ux = n.utxos(vmrqX)[0]
	n.issue(sign(t, n.baseTx([]xtxs.TransferableOutput{
		xtxs.TransferTo(avax, 2_000_000_000, ewoq), xtxs.TransferTo(avax, 3_000_000_000-fee, vmrq),
	}, xtxs.SpendUTXO(ux)), vmrqKey))
	require.Equal(t, uint64(3_000_000_000-fee), n.balance(vmrqX, "AVAX"))
	require.Equal(t, uint64(ewoqGenesis-3_000_000_000-fee), n.balance(ewoqX, "AVAX"))

	// ewoq creates an asset from both of its UTXOs and moves part of it to vmRQ.
	utxos := n.utxos(ewoqX)
	require.Len(t, utxos, 2)
	ins := []xtxs.TransferableInput{xtxs.SpendUTXO(utxos[0]), xtxs.SpendUTXO(utxos[1])}
	create := &xtxs.CreateAssetTx{
		BaseTx: *n.baseTx([]xtxs.TransferableOutput{xtxs.TransferTo(avax, ewoqGenesis-3_000_000_000-2*fee, ewoq)}, ins...),
		Name:   "Cornice Coin", Symbol: "CRN", Denomination: 3,
		States: []xtxs.InitialState{{FxIndex: 0, Outs: []xtxs.Output{
			&secp256k1fx.TransferOutput{Amount: 1000, OutputOwners: secp256k1fx.OutputOwners{Threshold: 1, Addrs: []ids.ShortID{ewoq}}},
		}}},
	}
	assetTx := sign(t, create, ewoqKey, ewoqKey)
	n.issue(assetTx)
	asset := assetTx.ID()
	require.Equal(t, uint64(1000), n.balance(ewoqX, asset.String()))
	var desc xapi.GetAssetDescriptionReply
	n.Result("getAssetDescription", `{"assetID":"`+asset.String()+`"}`, &desc)
	require.Equal(t, xapi.GetAssetDescriptionReply{AssetID: asset, Name: "Cornice Coin", Symbol: "CRN", Denomination: 3}, desc)

	// ewoq owns the new asset's one UTXO and the AVAX change.
	owned := n.utxos(ewoqX)
	require.Len(t, owned, 2)
	i := slices.IndexFunc(owned, func(ux *xtxs.UTXO) bool { return ux.AssetID == asset })
	require.NotEqual(t, -1, i)
	coin, change := owned[i], owned[1-i]
	move := sign(t, n.baseTx([]xtxs.TransferableOutput{
		xtxs.TransferTo(asset, 400, vmrq), xtxs.TransferTo(asset, 600, ewoq), xtxs.TransferTo(avax, ewoqGenesis-3_000_000_000-3*fee, ewoq),
	}, xtxs.SpendUTXO(coin), xtxs.SpendUTXO(change)), ewoqKey, ewoqKey)
	n.issue(move)
	require.Equal(t, uint64(400), n.balance(vmrqX, asset.String()))
	require.Equal(t, uint64(600), n.balance(ewoqX, asset.String()))
	require.Equal(t, uint64(ewoqGenesis-3_000_000_000-3*fee), n.balance(ewoqX, "AVAX"))
	require.Equal(t, "4", n.Height())

	// A restart keeps balances, txs and blocks.
	var blockBefore chainapi.GetBlockReply
	n.Result("getBlockByHeight", `{"height":"4","encoding":"json"}`, &blockBefore)
	n.Stop()
	n = startNode(t, dir, clock.Real{})
	require.Equal(t, "4", n.Height())
	require.Equal(t, uint64(400), n.balance(vmrqX, asset.String()))
	require.Equal(t, uint64(ewoqGenesis-3_000_000_000-3*fee), n.balance(ewoqX, "AVAX"))
	var blockAfter chainapi.GetBlockReply
	n.Result("getBlockByHeight", `{"height":"4","encoding":"json"}`, &blockAfter)
	require.JSONEq(t, string(blockBefore.Block), string(blockAfter.Block))
	var st chainapi.GetTxStatusReply
	n.Result("getTxStatus", `{"txID":"`+move.ID().String()+`"}`, &st)
	require.Equal(t, "Accepted", st.Status)

	// The chain goes on after the restart.
	ux = n.utxos(vmrqX)[0]
	if ux.AssetID != avax {
		ux = n.utxos(vmrqX)[1]
	}
	n.issue(sign(t, n.baseTx([]xtxs.TransferableOutput{xtxs.TransferTo(avax, 1_000_000_000, ewoq)}, xtxs.SpendUTXO(ux)), vmrqKey))
	require.Equal(t, "5", n.Height())
}

// TestRejections issues invalid txs: each is refused with a clear error and changes nothing.
func TestRejections(t *testing.T) {
	t.Parallel()
	n := startNode(t, t.TempDir(), clock.Real{})
	ewoqKey, vmrqKey := key(t, ewoqKeyHex), key(t, vmrqKeyHex)
	ewoq, vmrq := addrOf(ewoqKey), addrOf(vmrqKey)
	avax := n.g.AVAXAssetID
	genesisUTXO := n.utxos(ewoqX)[0]

	// One valid transfer, so that there is a spent UTXO and a second asset-less owner.
	n.issue(sign(t, n.baseTx([]xtxs.TransferableOutput{
		xtxs.TransferTo(avax, 10_000_000_000, vmrq), xtxs.TransferTo(avax, ewoqGenesis-10_000_000_000-fee, ewoq),
	}, xtxs.SpendUTXO(genesisUTXO)), ewoqKey))
	change := n.utxos(ewoqX)[0]
	changeAmt := uint64(ewoqGenesis - 10_000_000_000 - fee)
	vmrqUTXO := n.utxos(vmrqX)[0]

	wrongAsset := xtxs.SpendUTXO(change)
	wrongAsset.AssetID = ids.ID{7}
	wrongAmount := xtxs.SpendUTXO(change)
	wrongAmount.In.Amount--

	// Inputs are sorted by UTXO: the keys follow that order.
	paid := n.baseTx([]xtxs.TransferableOutput{xtxs.TransferTo(ids.ID{7}, changeAmt, vmrq)}, wrongAsset, xtxs.SpendUTXO(vmrqUTXO))
	wrongAssetPaid, wrongAssetIndex := sign(t, paid, ewoqKey, vmrqKey), "0"
	if paid.Ins[0].UTXOID != wrongAsset.UTXOID {
		wrongAssetPaid, wrongAssetIndex = sign(t, paid, vmrqKey, ewoqKey), "1"
	}

	tests := []struct {
		name string
		tx   *xtxs.Tx
		want string
	}{
		{
			name: "bad signature",
			tx:   sign(t, n.baseTx([]xtxs.TransferableOutput{xtxs.TransferTo(avax, changeAmt-fee, vmrq)}, xtxs.SpendUTXO(change)), vmrqKey),
			want: "failed to verify transfer: input 0: wrong signature",
		},
		{
			name: "spent UTXO",
			tx:   sign(t, n.baseTx([]xtxs.TransferableOutput{xtxs.TransferTo(avax, ewoqGenesis-fee, vmrq)}, xtxs.SpendUTXO(genesisUTXO)), ewoqKey),
			want: "failed to verify transfer: failed to get utxo Gqdc55Wu2egMkQABwJb74h6UydveDxHCMo1uEEUKeEVvPeoUc: not found",
		},
		{
			name: "insufficient funds",
			tx:   sign(t, n.baseTx([]xtxs.TransferableOutput{xtxs.TransferTo(avax, changeAmt, vmrq)}, xtxs.SpendUTXO(change)), ewoqKey),
			want: "insufficient funds: asset " + avax.String() + ": inputs 299999989999000000 < outputs plus fee 299999990000000000",
		},
		{
			name: "missing fee",
			tx:   sign(t, n.baseTx([]xtxs.TransferableOutput{xtxs.TransferTo(avax, 10_000_000_000, ewoq)}, xtxs.SpendUTXO(vmrqUTXO)), vmrqKey),
			want: "insufficient funds: asset " + avax.String() + ": inputs 10000000000 < outputs plus fee 10001000000",
		},
		{
			name: "wrong asset",
			tx:   sign(t, n.baseTx([]xtxs.TransferableOutput{xtxs.TransferTo(ids.ID{7}, changeAmt, vmrq)}, wrongAsset), ewoqKey),
			want: "insufficient funds: asset " + avax.String() + ": inputs 0 < outputs plus fee 1000000",
		},
		{
			name: "wrong asset with fee paid",
			tx:   wrongAssetPaid,
			want: "failed to verify transfer: input " + wrongAssetIndex + ": asset IDs in the input don't match the utxo",
		},
		{
			name: "amount differs from the UTXO's",
			tx:   sign(t, n.baseTx([]xtxs.TransferableOutput{xtxs.TransferTo(avax, changeAmt-2*fee, vmrq)}, wrongAmount), ewoqKey),
			want: "failed to verify transfer: input 0: utxo amount and input amount are not equivalent",
		},
		{
			name: "no credential",
			tx:   sign(t, n.baseTx([]xtxs.TransferableOutput{xtxs.TransferTo(avax, changeAmt-fee, vmrq)}, xtxs.SpendUTXO(change))),
			want: "wrong number of credentials",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, n.IssueTxError(tt.tx))
			var st chainapi.GetTxStatusReply
			n.Result("getTxStatus", `{"txID":"`+tt.tx.ID().String()+`"}`, &st)
			require.Equal(t, "Unknown", st.Status)
		})
	}

	// A double spend across blocks, and a tx issued again, fail on the spent UTXO (§6.5).
	first := sign(t, n.baseTx([]xtxs.TransferableOutput{xtxs.TransferTo(avax, changeAmt-fee, vmrq)}, xtxs.SpendUTXO(change)), ewoqKey)
	second := sign(t, n.baseTx([]xtxs.TransferableOutput{xtxs.TransferTo(avax, changeAmt-fee, ewoq)}, xtxs.SpendUTXO(change)), ewoqKey)
	n.issue(first)
	spent := "failed to verify transfer: failed to get utxo " + change.InputID().String() + ": not found"
	require.Equal(t, spent, n.IssueTxError(second))
	require.Equal(t, spent, n.IssueTxError(first))

	// Nothing else changed.
	require.Equal(t, "2", n.Height())
	require.Equal(t, uint64(0), n.balance(ewoqX, "AVAX"))
	require.Equal(t, uint64(10_000_000_000+changeAmt-fee), n.balance(vmrqX, "AVAX"))
}

// TestAPIErrors pins the texts of the calls' argument errors.
func TestAPIErrors(t *testing.T) {
	t.Parallel()
	n := startNode(t, t.TempDir(), clock.Real{})
	tests := []struct{ method, params, want string }{
		{"getTx", `{}`, "nil transaction ID"},
		{"getTxStatus", `{}`, "nil transaction ID"},
		{"issueTx", `{"tx":"00"}`, "problem decoding transaction: missing 0x prefix to hex encoding"},
		{"issueTx", `{"tx":"0x00","encoding":"hexnc"}`, "codec: unexpected end of input: need 2 bytes at offset 0, have 1"},
		{"getUTXOs", `{"addresses":[]}`, "no addresses provided"},
		{"getUTXOs", `{"addresses":["P-custom18jma8ppw3nhx5r4ap8clazz0dps7rv5u9xde7p"]}`,
			`couldn't parse address "P-custom18jma8ppw3nhx5r4ap8clazz0dps7rv5u9xde7p": expected chainID to be "X" but was "P"`},
		{"getUTXOs", `{"addresses":["X-custom18jma8ppw3nhx5r4ap8clazz0dps7rv5u9xde7p"]}`,
			`couldn't parse address "X-custom18jma8ppw3nhx5r4ap8clazz0dps7rv5u9xde7p": expected hrp "local" but got "custom"`},
		{"getUTXOs", `{"addresses":["` + ewoqX + `"],"sourceChain":"Q"}`, `problem parsing source chainID "Q": there is no ID with alias: Q`},
		{"getUTXOs", `{"addresses":["` + ewoqX + `"],"encoding":"json"}`, "couldn't encode utxo as json: unsupported encoding in method"},
		{"getAssetDescription", `{"assetID":"NOPE"}`, `unknown asset ID or alias: "NOPE"`},
		{"getAssetDescription", `{"assetID":"2t3t1NUoMdzfLTBGkey55cScx2WkBLRx2mPBixD3HokrKrCkJD"}`, "not found"},
	}
	for _, tt := range tests {
		t.Run(tt.method+tt.params, func(t *testing.T) {
			require.Equal(t, tt.want, n.CallError(tt.method, tt.params))
		})
	}
	// getUTXOs with an address that owns nothing: an empty page.
	require.Equal(t, `{"jsonrpc":"2.0","result":{"numFetched":"0","utxos":[],"endIndex":{"address":"`+vmrqX+`","utxo":"11111111111111111111111111111111LpoYY"},"encoding":"hex"},"id":1}`,
		n.Call("getUTXOs", `{"addresses":["`+vmrqX+`"]}`))
}

// TestBareShortIDAddresses checks that an address given as a bare CB58 short ID, the form the
// reference's own avm.Client sends, is read as the X-Chain address it names, as the reference's
// avax.ParseServiceAddress reads it (§2.4).
func TestBareShortIDAddresses(t *testing.T) {
	t.Parallel()
	n := startNode(t, t.TempDir(), clock.Real{})
	bare := parseAddr(t, ewoqX).String()
	require.Equal(t, "6Y3kysjF9jnHnYkdS9yGAuoHyae2eNmeV", bare)
	utxovmtest.TestBareAddresses(t, n.Call, ewoqX, bare,
		utxovmtest.AddressForms{Method: "getBalance", Bech32: `{"address":"` + ewoqX + `","assetID":"AVAX"}`, Bare: `{"address":"` + bare + `","assetID":"AVAX"}`},
		utxovmtest.AddressForms{Method: "getAllBalances", Bech32: `{"address":"` + ewoqX + `"}`, Bare: `{"address":"` + bare + `"}`},
	)
}
