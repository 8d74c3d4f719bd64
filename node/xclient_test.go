//lint:file-ignore SA1019 the deprecated client methods are called on purpose: the reference's clients still offer them.

package node_test

import (
	"bytes"
	"encoding/binary"
	"slices"
	"testing"

	xtxs "github.com/cornice-node/cornice/vms/exchange/txs"

	refids "github.com/ava-labs/avalanchego/ids"
	refchoices "github.com/ava-labs/avalanchego/snow/choices"
	refavm "github.com/ava-labs/avalanchego/vms/avm"
	refxblock "github.com/ava-labs/avalanchego/vms/avm/block"
	refxfxs "github.com/ava-labs/avalanchego/vms/avm/fxs"
	refavax "github.com/ava-labs/avalanchego/vms/components/avax"
	refnftfx "github.com/ava-labs/avalanchego/vms/nftfx"
	refpropertyfx "github.com/ava-labs/avalanchego/vms/propertyfx"
	refsecp256k1fx "github.com/ava-labs/avalanchego/vms/secp256k1fx"
	secp "github.com/decred/dcrd/dcrec/secp256k1/v4"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/genesis"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// xFee is the local X-Chain's static fee for every tx kind (platform-exchange.md §6.3).
const xFee = 1_000_000

// xClient is the reference's X-Chain client on a node, with the helpers of these tests.
type xClient struct {
	*refavm.Client
	t *testing.T
	g *genesis.Genesis
	// parser is the reference's X-Chain block and tx parser, with the X-Chain's three fxs in
	// their order (secp256k1fx, nftfx, propertyfx).
	parser refxblock.Parser
}

// utxos returns the UTXOs addr owns on the X-Chain, read with the client and parsed by cornice.
func (c xClient) utxos(addr ids.ShortID) []*xtxs.UTXO {
	c.t.Helper()
	return refUTXOs(c.t, c, addr, xtxs.ParseUTXO)
}

// issue issues tx with the client's IssueTx and waits until GetTxStatus says it is accepted.
func (c xClient) issue(tx *xtxs.Tx) ids.ID {
	c.t.Helper()
	refIssue(c.t, c, tx.ID(), tx.Bytes(), func(id refids.ID) bool {
		st, err := c.GetTxStatus(c.t.Context(), id)
		return err == nil && st == refchoices.Accepted
	})
	id := refids.ID(tx.ID())
	got, err := c.GetTx(c.t.Context(), id)
	require.NoError(c.t, err)
	require.Equal(c.t, tx.Bytes(), got)
	ref, err := c.parser.ParseTx(got)
	require.NoError(c.t, err)
	require.Equal(c.t, id, ref.ID())
	return tx.ID()
}

// block returns the block at height h, read with GetBlockByHeight and parsed by cornice; the
// reference's parser reads the same block from the bytes, and GetBlock by its ID answers them.
func (c xClient) block(h uint64) *xtxs.StandardBlock {
	c.t.Helper()
	blk, ref := refBlock(c.t, c, h, xtxs.ParseBlock, c.parser.ParseBlock,
		func(b *xtxs.StandardBlock) blockView { return viewOf(b.ID(), b.Height(), b.Txs()) },
		func(r refxblock.Block) blockView { return viewOf(r.ID(), r.Height(), r.Txs()) })
	require.Equal(c.t, blk.Time(), uint64(ref.Timestamp().Unix()))
	return blk
}

// signX signs unsigned with one credential per key (§3.2).
func signX(t *testing.T, unsigned xtxs.UnsignedTx, keys ...*secp.PrivateKey) *xtxs.Tx {
	t.Helper()
	return signTx(t, unsigned, xtxs.UnsignedBytes, xtxs.NewTx, keys...)
}

// xBaseTx makes a BaseTx of the local X-Chain, inputs and outputs sorted as §3.3 requires
// (one-address TransferOutputs: asset, then amount).
func (c xClient) xBaseTx(outs []xtxs.TransferableOutput, ins ...xtxs.TransferableInput) xtxs.BaseTx {
	slices.SortFunc(ins, func(a, b xtxs.TransferableInput) int {
		if d := a.TxID.Compare(b.TxID); d != 0 {
			return d
		}
		return int(a.OutputIndex) - int(b.OutputIndex)
	})
	key := func(o xtxs.TransferableOutput) []byte {
		return binary.BigEndian.AppendUint64(append([]byte(nil), o.AssetID[:]...), o.Out.Amount)
	}
	slices.SortFunc(outs, func(a, b xtxs.TransferableOutput) int { return bytes.Compare(key(a), key(b)) })
	return xtxs.BaseTx{NetworkID: genesis.LocalNetworkID, BlockchainID: c.g.XChainID, Outs: outs, Ins: ins, Memo: []byte{}}
}

// TestExchangeClient drives the X-Chain with avalanchego v1.14.2's avm.Client: the genesis state,
// then a transfer, a new asset and a transfer of it, each tx issued with the client.
func TestExchangeClient(t *testing.T) {
	t.Parallel()
	n, g := startPX(t)
	parser, err := refxblock.NewParser([]refxfxs.Fx{&refsecp256k1fx.Fx{}, &refnftfx.Fx{}, &refpropertyfx.Fx{}})
	require.NoError(t, err)
	c := xClient{Client: refavm.NewClient(n.url, "X"), t: t, g: g, parser: parser}
	ctx := t.Context()
	key, ewoq := ewoqKey(t)
	other := ids.ShortID{0x0c, 0x0e}
	avax := g.AVAXAssetID
	refEwoq, refOther := refids.ShortID(ewoq), refids.ShortID(other)

	// The genesis state: the linearized chain's genesis block, and ewoq's AVAX (§6.4).
	height, err := c.GetHeight(ctx)
	require.NoError(t, err)
	require.Zero(t, height)
	require.Equal(t, "2R2UY2pZMQr8nR9ywCdqn97Lp5a6hceqtLXkag6vH7KQSVvmst", c.block(0).ID().String())
	txFee, createAssetFee, err := c.GetTxFee(ctx)
	require.NoError(t, err)
	require.EqualValues(t, xFee, txFee)
	require.EqualValues(t, xFee, createAssetFee)

	for _, name := range []string{"AVAX", avax.String()} {
		desc, err := c.GetAssetDescription(ctx, name)
		require.NoError(t, err, name)
		require.Equal(t, &refavm.GetAssetDescriptionReply{
			FormattedAssetID: refavm.FormattedAssetID{AssetID: refids.ID(avax)},
			Name:             "Avalanche",
			Symbol:           "AVAX",
			Denomination:     9,
		}, desc, name)
	}
	st, err := c.GetTxStatus(ctx, refids.ID(avax))
	require.NoError(t, err)
	require.Equal(t, refchoices.Accepted, st, "the AVAX asset's tx")
	avaxTx, err := c.GetTx(ctx, refids.ID(avax))
	require.NoError(t, err)
	require.Equal(t, g.AVAX.Bytes(), avaxTx)
	st, err = c.GetTxStatus(ctx, refids.ID{1})
	require.NoError(t, err)
	require.Equal(t, refchoices.Unknown, st)

	const start = 300_000_000_000_000_000
	utxos := c.utxos(ewoq)
	require.Len(t, utxos, 1)
	require.Equal(t, avax, utxos[0].AssetID)
	require.EqualValues(t, start, utxos[0].Out.(*secp256k1fx.TransferOutput).Amount)
	bal, err := c.GetBalance(ctx, refEwoq, "AVAX", false)
	require.NoError(t, err)
	require.Equal(t, &refavm.GetBalanceReply{Balance: start, UTXOIDs: []refavax.UTXOID{
		{TxID: refids.ID(utxos[0].TxID), OutputIndex: utxos[0].OutputIndex},
	}}, normalizeUTXOIDs(bal))
	all, err := c.GetAllBalances(ctx, refEwoq, false)
	require.NoError(t, err)
	// Assets are named by their primary alias, AVAX's being "AVAX" (§6.5).
	require.Equal(t, []refavm.Balance{{AssetID: "AVAX", Balance: start}}, all)
	all, err = c.GetAllBalances(ctx, refOther, false)
	require.NoError(t, err)
	require.Empty(t, all)

	// ewoq sends 5 AVAX to another address.
	send := c.issue(signX(t, ptr(c.xBaseTx([]xtxs.TransferableOutput{
		xtxs.TransferTo(avax, 5_000_000_000, other), xtxs.TransferTo(avax, start-5_000_000_000-xFee, ewoq),
	}, xtxs.SpendUTXO(utxos[0]))), key))
	blk := c.block(1)
	require.Len(t, blk.Txs(), 1)
	require.Equal(t, send, blk.Txs()[0].ID())
	bal, err = c.GetBalance(ctx, refOther, avax.String(), false)
	require.NoError(t, err)
	require.Equal(t, &refavm.GetBalanceReply{Balance: 5_000_000_000, UTXOIDs: []refavax.UTXOID{
		{TxID: refids.ID(send), OutputIndex: 0},
	}}, normalizeUTXOIDs(bal), "the smaller output sorts first")

	// ewoq creates an asset and gives part of it away.
	utxos = c.utxos(ewoq)
	require.Len(t, utxos, 1)
	create := &xtxs.CreateAssetTx{
		BaseTx: c.xBaseTx([]xtxs.TransferableOutput{xtxs.TransferTo(avax, start-5_000_000_000-2*xFee, ewoq)}, xtxs.SpendUTXO(utxos[0])),
		Name:   "Cornice Coin", Symbol: "CRN", Denomination: 3,
		States: []xtxs.InitialState{{FxIndex: 0, Outs: []xtxs.Output{
			&secp256k1fx.TransferOutput{Amount: 1000, OutputOwners: secp256k1fx.OutputOwners{Threshold: 1, Addrs: []ids.ShortID{ewoq}}},
		}}},
	}
	asset := c.issue(signX(t, create, key))
	desc, err := c.GetAssetDescription(ctx, asset.String())
	require.NoError(t, err)
	require.Equal(t, &refavm.GetAssetDescriptionReply{
		FormattedAssetID: refavm.FormattedAssetID{AssetID: refids.ID(asset)},
		Name:             "Cornice Coin", Symbol: "CRN", Denomination: 3,
	}, desc)

	var coin, change *xtxs.UTXO
	for _, ux := range c.utxos(ewoq) {
		if ux.AssetID == asset {
			coin = ux
		} else {
			change = ux
		}
	}
	require.NotNil(t, coin)
	require.NotNil(t, change)
	c.issue(signX(t, ptr(c.xBaseTx([]xtxs.TransferableOutput{
		xtxs.TransferTo(asset, 400, other), xtxs.TransferTo(asset, 600, ewoq), xtxs.TransferTo(avax, start-5_000_000_000-3*xFee, ewoq),
	}, xtxs.SpendUTXO(coin), xtxs.SpendUTXO(change))), key, key))

	height, err = c.GetHeight(ctx)
	require.NoError(t, err)
	require.EqualValues(t, 3, height)
	require.Equal(t, c.block(2).ID(), c.block(3).Parent())

	// AVAX first, then the other assets in asset ID order.
	all, err = c.GetAllBalances(ctx, refEwoq, false)
	require.NoError(t, err)
	require.Equal(t, []refavm.Balance{
		{AssetID: "AVAX", Balance: start - 5_000_000_000 - 3*xFee},
		{AssetID: asset.String(), Balance: 600},
	}, all)
	all, err = c.GetAllBalances(ctx, refOther, true)
	require.NoError(t, err)
	require.Equal(t, []refavm.Balance{
		{AssetID: "AVAX", Balance: 5_000_000_000},
		{AssetID: asset.String(), Balance: 400},
	}, all)
	bal, err = c.GetBalance(ctx, refOther, asset.String(), true)
	require.NoError(t, err)
	require.EqualValues(t, 400, bal.Balance)
	require.Len(t, bal.UTXOIDs, 1)

	// Paging through ewoq's two UTXOs one at a time.
	page, endAddr, endUTXO, err := c.GetUTXOs(ctx, []refids.ShortID{refEwoq}, 1, refids.ShortEmpty, refids.Empty)
	require.NoError(t, err)
	require.Len(t, page, 1)
	require.Equal(t, refEwoq, endAddr)
	page2, _, endUTXO2, err := c.GetUTXOs(ctx, []refids.ShortID{refEwoq}, 1, endAddr, endUTXO)
	require.NoError(t, err)
	require.Len(t, page2, 1)
	require.NotEqual(t, endUTXO, endUTXO2)
	require.ElementsMatch(t, [][]byte{page[0], page2[0]}, utxoBytes(t, c.utxos(ewoq)))
}

// normalizeUTXOIDs clears what the client's UTXOID carries beyond the tx ID and output index
// (its cached ID and symbol flag), so that replies compare by value.
func normalizeUTXOIDs(r *refavm.GetBalanceReply) *refavm.GetBalanceReply {
	for i, u := range r.UTXOIDs {
		r.UTXOIDs[i] = refavax.UTXOID{TxID: u.TxID, OutputIndex: u.OutputIndex}
	}
	return r
}

func utxoBytes(t *testing.T, us []*xtxs.UTXO) [][]byte {
	t.Helper()
	out := make([][]byte, len(us))
	for i, u := range us {
		b, err := u.Bytes()
		require.NoError(t, err)
		out[i] = b
	}
	return out
}

func ptr[T any](v T) *T { return &v }
