package e2e_test

import (
	"context"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/jsonrpc"
	"github.com/cornice-node/cornice/localnet"
	"github.com/cornice-node/cornice/vms/proposervm"
	"github.com/cornice-node/cornice/wallet"
)

// Five validators with --proposer-windows (Snowman++): C-Chain transfers, an X- and a P-Chain send
// are accepted in the same blocks on all five, and every block of every node's P, X and C index
// is a proposervm block signed by one of the five, with a P-Chain height and an epoch; the
// proposervm API answers from the chain's last block. Each tx goes to every node, so this test
// proves the windows whatever transaction gossip does (TestNetworkTxGossip proves that). A node
// killed and restarted catches up on the wrapped blocks it missed.
func TestNetworkProposerWindows(t *testing.T) {
	if testing.Short() {
		t.Skip("starts five node processes")
	}
	nw, bin := startProposerNetwork(t)
	dir, nodes := nw.dir, nw.nodes

	for nonce := range uint64(3) {
		nw.requireCReceiptEverywhere(t, nw.sendCTransferToAll(t, nonce))
	}
	nw.requireSameIndexes(t, 3, "/ext/index/C/block")
	t.Logf("C transfers accepted")

	// An X- and a P-Chain send, each issued on every node.
	key := localKey(t)
	var xs []*wallet.X
	var ps []*wallet.P
	for _, n := range nodes {
		client, err := wallet.NewClient(n.URI(), nil)
		require.NoError(t, err)
		x, err := wallet.NewX(t.Context(), client, key, clock.Real{})
		require.NoError(t, err)
		p, err := wallet.NewP(t.Context(), client, key, clock.Real{})
		require.NoError(t, err)
		xs, ps = append(xs, x), append(ps, p)
	}
	xtx, err := xs[0].Send(t.Context(), xs[0].Address(), xs[0].Builder().AVAXAssetID, 1_000_000)
	require.NoError(t, err)
	for _, x := range xs {
		_, _ = x.Issue(t.Context(), xtx) // a node may have accepted it already
	}
	ptx, err := ps[0].Send(t.Context(), ps[0].Address(), 1_000_000)
	require.NoError(t, err)
	for _, p := range ps {
		_, _ = p.Issue(t.Context(), ptx)
	}
	for i := range nodes {
		require.NoError(t, xs[i].WaitAccepted(t.Context(), xtx.ID(), networkWait), "node %d", i)
		require.NoError(t, ps[i].WaitAccepted(t.Context(), ptx.ID(), networkWait), "node %d", i)
	}
	t.Logf("X and P sends accepted")
	nw.requireSameIndexes(t, 1, "/ext/index/X/block", "/ext/index/X/tx", "/ext/index/P/block")
	for _, chain := range []string{"P", "X", "C"} {
		nw.requireProposerBlocks(t, chain)
	}

	// A node that was down catches up on wrapped blocks from its peers (bootstrapping parses
	// and verifies them as proposervm blocks): with node 5 killed, the four go on, skipping its
	// slots; restarted, it holds the same index.
	require.NoError(t, localnet.Kill(dir, "node5"))
	four := &localNetwork{dir: dir, nodes: nodes[:4]}
	four.requireCReceiptEverywhere(t, four.sendCTransferToAll(t, 3))
	ctx, cancel := context.WithTimeout(t.Context(), networkWait)
	defer cancel()
	require.NoError(t, localnet.StartNode(ctx, bin, dir, "node5"))
	nw.requireSameIndexes(t, 4, "/ext/index/C/block")
	nw.requireProposerBlocks(t, "C")
	t.Logf("node 5 caught up")

	var height struct {
		Height jsonrpc.Uint64 `json:"height"`
	}
	require.NoError(t, nw.call(t, 0, "/ext/bc/C/proposervm", "proposervm.getProposedHeight", struct{}{}, &height))
	var epoch struct {
		Number       jsonrpc.Uint64 `json:"number"`
		StartTime    jsonrpc.Uint64 `json:"startTime"`
		PChainHeight jsonrpc.Uint64 `json:"pChainHeight"`
	}
	require.NoError(t, nw.call(t, 0, "/ext/bc/C/proposervm", "proposervm.getCurrentEpoch", struct{}{}, &epoch))
	require.NotZero(t, uint64(epoch.Number), "the chain's blocks opened an epoch")
	require.LessOrEqual(t, uint64(epoch.PChainHeight), uint64(height.Height))
}

// startProposerNetwork starts five validators with --proposer-windows, stopped when the test
// ends (on other ports if another process took one of those chosen), and returns them and the
// node binary.
func startProposerNetwork(t *testing.T) (*localNetwork, string) {
	t.Helper()
	bin, err := binary()
	require.NoError(t, err)
	nw := startPeerNetwork(t, 5, "--proposer-windows")
	t.Logf("network started")
	return nw, bin
}

// sendCTransferToAll signs a transfer of the local key's with nonce and sends it to every node.
func (nw *localNetwork) sendCTransferToAll(t testing.TB, nonce uint64) common.Hash {
	t.Helper()
	tx := signLocalTransfer(t, nonce, 43112)
	for _, n := range nw.nodes {
		client, err := ethclient.DialContext(t.Context(), n.URI()+"/ext/bc/C/rpc")
		require.NoError(t, err)
		// A node that already has it from a block says so; the others pool it.
		_ = client.SendTransaction(t.Context(), tx)
		client.Close()
	}
	return tx.Hash()
}

// requireProposerBlocks checks that every block container of chain's index on every node is a
// proposervm block (network-consensus-warp.md §2.8) signed by one of the network's validators,
// with its ID, a P-Chain height no higher than the P-Chain's, and an ACP-181 epoch.
func (nw *localNetwork) requireProposerBlocks(t testing.TB, chain string) {
	t.Helper()
	var id struct {
		BlockchainID ids.ID `json:"blockchainID"`
	}
	require.NoError(t, nw.call(t, 0, "/ext/info", "info.getBlockchainID", map[string]string{"alias": chain}, &id))
	var pHeight struct {
		Height jsonrpc.Uint64 `json:"height"`
	}
	require.NoError(t, nw.call(t, 0, "/ext/bc/P", "platform.getHeight", struct{}{}, &pHeight))
	validators := make(map[ids.NodeID]bool, len(nw.nodes))
	for _, n := range nw.nodes {
		nodeID, err := ids.NodeIDFromString(n.NodeID)
		require.NoError(t, err)
		validators[nodeID] = true
	}
	for i := range nw.nodes {
		containers := nw.index(t, i, "/ext/index/"+chain+"/block")
		require.NotEmpty(t, containers, "node %d, %s", i, chain)
		for _, c := range containers {
			b, err := ids.Hex.Decode(c.Bytes)
			require.NoError(t, err)
			blk, err := proposervm.Parse(b, id.BlockchainID)
			require.NoError(t, err, "node %d, %s container %s", i, chain, c.Index)
			require.Equal(t, c.ID, blk.ID().String())
			require.True(t, validators[blk.Proposer()], "node %d, %s container %s: proposer %s", i, chain, c.Index, blk.Proposer())
			require.LessOrEqual(t, blk.PChainHeight, uint64(pHeight.Height))
			require.True(t, blk.Granite)
			require.NotZero(t, blk.Epoch.Number)
		}
	}
}
