package e2e_test

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/proposervm"
)

// Under proposer windows, a C-Chain transfer sent to one node reaches the others by transaction
// gossip (AppGossip, handler 0): each is accepted in the same block on all five, and at least one
// of several lands in a block another validator proposed, which only gossip can give it (without
// it a transaction waits for its own node's slot).
func TestNetworkTxGossip(t *testing.T) {
	if testing.Short() {
		t.Skip("starts five node processes")
	}
	nw, _ := startProposerNetwork(t)
	sender, err := ids.NodeIDFromString(nw.nodes[0].NodeID)
	require.NoError(t, err)
	var id struct {
		BlockchainID ids.ID `json:"blockchainID"`
	}
	require.NoError(t, nw.call(t, 0, "/ext/info", "info.getBlockchainID", map[string]string{"alias": "C"}, &id))

	proposers := map[ids.NodeID]int{}
	for nonce := range uint64(5) {
		tx := signLocalTransfer(t, nonce, 43112)
		nw.sendSignedOn(t, 0, "C", tx)
		nw.requireCReceiptEverywhere(t, tx.Hash())
		raw, err := tx.MarshalBinary()
		require.NoError(t, err)
		// The block that holds it, among node 1's indexed proposervm blocks.
		found := false
		for _, c := range nw.index(t, 0, "/ext/index/C/block") {
			b, err := ids.Hex.Decode(c.Bytes)
			require.NoError(t, err)
			blk, err := proposervm.Parse(b, id.BlockchainID)
			require.NoError(t, err)
			if bytes.Contains(blk.Inner, raw) {
				proposers[blk.Proposer()]++
				found = true
				break
			}
		}
		require.True(t, found, "no indexed block holds transfer %d", nonce)
	}
	t.Logf("proposers of the blocks: %v", proposers)
	others := 0
	for p, n := range proposers {
		if p != sender && p != ids.EmptyNodeID {
			others += n
		}
	}
	require.NotZero(t, others, "every transfer waited for its own node's slot: no gossip")
}
