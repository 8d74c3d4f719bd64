package e2e_test

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	xtxs "github.com/cornice-node/cornice/vms/exchange/txs"
	ptxs "github.com/cornice-node/cornice/vms/platform/txs"
	"github.com/cornice-node/cornice/vms/proposervm"
	"github.com/cornice-node/cornice/wallet"
)

// Under proposer windows, a tx sent to one node reaches the others by transaction gossip
// (AppGossip, handler 0): each C-Chain transfer, X- and P-Chain send is accepted on all five,
// and on each chain at least one of several lands in a block another validator proposed, which
// only gossip can give it (without it a tx waits for its own node's slot).
func TestNetworkTxGossip(t *testing.T) {
	if testing.Short() {
		t.Skip("starts five node processes")
	}
	nw, _ := startProposerNetwork(t)
	sender, err := ids.NodeIDFromString(nw.nodes[0].NodeID)
	require.NoError(t, err)
	byOthers := func(chain string, proposers []ids.NodeID) {
		t.Helper()
		t.Logf("%s: proposers of the blocks: %v", chain, proposers)
		for _, p := range proposers {
			if p != sender && p != ids.EmptyNodeID {
				return
			}
		}
		t.Fatalf("%s: every tx waited for its own node's slot: no gossip", chain)
	}

	var proposers []ids.NodeID
	for nonce := range uint64(5) {
		tx := signLocalTransfer(t, nonce, 43112)
		nw.sendSignedOn(t, 0, "C", tx)
		nw.requireCReceiptEverywhere(t, tx.Hash())
		raw, err := tx.MarshalBinary()
		require.NoError(t, err)
		proposers = append(proposers, nw.proposerOf(t, "C", raw))
	}
	byOthers("C", proposers)

	key := localKey(t)
	var xs []*wallet.X
	var ps []*wallet.P
	for _, n := range nw.nodes {
		client, err := wallet.NewClient(n.URI(), nil)
		require.NoError(t, err)
		x, err := wallet.NewX(t.Context(), client, key, clock.Real{})
		require.NoError(t, err)
		p, err := wallet.NewP(t.Context(), client, key, clock.Real{})
		require.NoError(t, err)
		xs, ps = append(xs, x), append(ps, p)
	}
	byOthers("X", gossipedSends(t, nw, "X", xs, func(x *wallet.X) (*xtxs.Tx, error) {
		return x.Send(t.Context(), x.Address(), x.Builder().AVAXAssetID, 1_000_000)
	}))
	byOthers("P", gossipedSends(t, nw, "P", ps, func(p *wallet.P) (*ptxs.Tx, error) {
		return p.Send(t.Context(), p.Address(), 1_000_000)
	}))
}

// chainWallet is what wallet.X and wallet.P share for gossipedSends, over their tx type T.
type chainWallet[T any] interface {
	Issue(ctx context.Context, tx T) (ids.ID, error)
	WaitAccepted(ctx context.Context, txID ids.ID, timeout time.Duration) error
}

// gossipedSends issues three txs that build makes with node 1's wallet ws[0] (to node 1 only),
// waits until every node's wallet sees each accepted, and returns the proposers of their blocks.
func gossipedSends[T interface {
	ID() ids.ID
	Bytes() []byte
}, W chainWallet[T]](t *testing.T, nw *localNetwork, chain string, ws []W, build func(W) (T, error)) []ids.NodeID {
	t.Helper()
	var proposers []ids.NodeID
	for range 3 {
		tx, err := build(ws[0])
		require.NoError(t, err)
		_, err = ws[0].Issue(t.Context(), tx)
		require.NoError(t, err)
		for i, w := range ws {
			require.NoError(t, w.WaitAccepted(t.Context(), tx.ID(), networkWait), "node %d", i)
		}
		proposers = append(proposers, nw.proposerOf(t, chain, tx.Bytes()[2:]))
	}
	return proposers
}

// proposerOf returns the proposer of the block of chain (C, X or P) on node 1 whose inner block
// holds tx's bytes (an X or P tx without its codec version: a block's txs have none), waiting for node 1 to index it.
func (nw *localNetwork) proposerOf(t testing.TB, chain string, tx []byte) ids.NodeID {
	t.Helper()
	var id struct {
		BlockchainID ids.ID `json:"blockchainID"`
	}
	require.NoError(t, nw.call(t, 0, "/ext/info", "info.getBlockchainID", map[string]string{"alias": chain}, &id))
	var proposer ids.NodeID
	require.Eventually(t, func() bool {
		for _, c := range nw.index(t, 0, "/ext/index/"+chain+"/block") {
			b, err := ids.Hex.Decode(c.Bytes)
			require.NoError(t, err)
			blk, err := proposervm.Parse(b, id.BlockchainID)
			require.NoError(t, err)
			if bytes.Contains(blk.Inner, tx) {
				proposer = blk.Proposer()
				return true
			}
		}
		return false
	}, networkWait, 50*time.Millisecond, "no block of %s's index holds the tx", chain)
	return proposer
}
