package e2e_test

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"fmt"
	"math/big"
	"math/rand/v2"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/localnet"
	"github.com/cornice-node/cornice/wallet"
)

// workloadDuration is how long TestNetworkConsistency sends transactions in CI;
// CORNICE_WORKLOAD_DURATION (a Go duration, e.g. 10m) makes it a longer soak.
const workloadDuration = 15 * time.Second

// workloadSenders is how many C-Chain keys send at once, each with its own nonces.
const workloadSenders = 3

// localNetworkID is the local network's ID.
const localNetworkID = 12345

// A consistency workload on five validators (issue #13 §4): for a bounded time, rounds of random
// transactions go to random running nodes — C-Chain transfers from three keys at once, and an
// X-Chain or P-Chain send from the local key — while one random node is killed (SIGKILL) and
// another stopped cleanly, each started again at once and catching up from its peers while the
// load goes on. Each round's transactions are accepted on every running node before the next.
// Afterwards every node has the same accepted containers in every index (P, X blocks and txs, C),
// the same C-Chain head, block hash and state root, and the same X and P UTXO sets and
// balances for every address the workload touched.
func TestNetworkConsistency(t *testing.T) {
	if testing.Short() {
		t.Skip("starts five node processes")
	}
	duration := workloadDuration
	if s := os.Getenv("CORNICE_WORKLOAD_DURATION"); s != "" {
		d, err := time.ParseDuration(s)
		require.NoError(t, err, "CORNICE_WORKLOAD_DURATION")
		duration = d
	}
	seed := rand.Uint64()
	t.Logf("seed %d, duration %s", seed, duration)
	rng := rand.New(rand.NewPCG(seed, 0))

	nw := startNetwork(t, 5)
	local, err := crypto.HexToECDSA(localKeyHex)
	require.NoError(t, err)
	senders := make([]*ecdsa.PrivateKey, workloadSenders)
	var funding common.Hash
	for k := range senders {
		senders[k], err = crypto.GenerateKey()
		require.NoError(t, err)
		funding = nw.sendSignedOn(t, 0, "C", signTransfer(t, local, crypto.PubkeyToAddress(senders[k].PublicKey), big.NewInt(1e18), uint64(k), 43112))
	}
	nw.requireCReceiptEverywhere(t, funding)
	localKey := localKey(t)

	bin, err := binary()
	require.NoError(t, err)
	// down is the node being restarted, -1 when none; back receives once it is ready again.
	down, back := -1, make(chan error, 1)
	restart := func(kill bool) {
		down = rng.IntN(len(nw.nodes))
		name := nw.nodes[down].Name
		if kill {
			require.NoError(t, localnet.Kill(nw.dir, name))
		} else {
			ctx, cancel := context.WithTimeout(t.Context(), networkWait)
			require.NoError(t, localnet.StopNode(ctx, nw.dir, name))
			cancel()
		}
		t.Logf("restarting %s (kill %v)", name, kill)
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), networkWait)
			defer cancel()
			back <- localnet.StartNode(ctx, bin, nw.dir, name)
		}()
	}
	// The last C transfers and the last X and P sends accepted by the running nodes. A node
	// that is back once bootstrapped may not have them yet (a block accepted while it
	// finished bootstrapping comes to it by consensus a moment later), and a wallet reads the
	// UTXOs of its own node: a send to it before it has the last one would spend a UTXO
	// already spent, and never be accepted.
	var lastC []common.Hash
	lastAVAX := map[bool]ids.ID{}
	awaitBack := func() {
		if down < 0 {
			return
		}
		require.NoError(t, <-back)
		returned := &localNetwork{dir: nw.dir, nodes: []localnet.Node{nw.nodes[down]}}
		for _, tx := range lastC {
			returned.requireCReceiptEverywhere(t, tx)
		}
		for onP, tx := range lastAVAX {
			returned.requireTxAccepted(t, onP, tx)
		}
		down = -1
	}

	nonces := make([]uint64, len(senders))
	start := time.Now()
	restarts := []bool{true, false} // a kill, then a clean stop
	rounds := 0
	for time.Since(start) < duration {
		if len(restarts) > 0 && time.Since(start) >= duration*time.Duration(3-len(restarts))/3 {
			awaitBack()
			restart(restarts[0])
			restarts = restarts[1:]
		}
		running := nw.without(down)
		// Draw every choice before the goroutines start: the rng is not theirs.
		var wg sync.WaitGroup
		errs := make([]error, len(senders)+1)
		var cTxs []common.Hash
		for k, key := range senders {
			node := running.nodes[rng.IntN(len(running.nodes))]
			to := crypto.PubkeyToAddress(senders[rng.IntN(len(senders))].PublicKey)
			tx := signTransfer(t, key, to, big.NewInt(int64(1+rng.IntN(1e6))), nonces[k], 43112)
			nonces[k]++
			cTxs = append(cTxs, tx.Hash())
			wg.Go(func() { errs[k] = sendAndWait(t.Context(), node, tx) })
		}
		node := running.nodes[rng.IntN(len(running.nodes))]
		onP := rounds%2 == 1
		to := wallet.NewKey(senders[rng.IntN(len(senders))])
		amount := uint64(1 + rng.IntN(1e6))
		var avaxTx ids.ID
		wg.Go(func() {
			avaxTx, errs[len(senders)] = sendAVAX(t.Context(), node, localKey, to, onP, amount)
		})
		wg.Wait()
		for _, err := range errs {
			require.NoError(t, err, "round %d", rounds)
		}
		for _, tx := range cTxs {
			running.requireCReceiptEverywhere(t, tx)
		}
		running.requireTxAccepted(t, onP, avaxTx)
		lastC, lastAVAX[onP] = cTxs, avaxTx
		rounds++
	}
	awaitBack()
	t.Logf("%d rounds of %d txs", rounds, len(senders)+1)

	nw.requireSameIndexes(t, 1, "/ext/index/P/block", "/ext/index/X/block", "/ext/index/X/tx", "/ext/index/C/block")
	nw.requireSameCHead(t)
	addrs := []string{localKey.ChainAddress("X", localNetworkID)}
	for _, k := range senders {
		addrs = append(addrs, wallet.NewKey(k).ChainAddress("X", localNetworkID))
	}
	for _, chain := range []struct{ path, service, alias string }{{"/ext/bc/X", "avm", "X"}, {"/ext/bc/P", "platform", "P"}} {
		for _, a := range addrs {
			a = chain.alias + a[1:]
			nw.requireSameAnswer(t, chain.path, chain.service+".getUTXOs", map[string]any{"addresses": []string{a}, "encoding": "hex"})
			args := map[string]any{"addresses": []string{a}}
			if chain.alias == "X" {
				args = map[string]any{"address": a, "assetID": "AVAX"}
			}
			nw.requireSameAnswer(t, chain.path, chain.service+".getBalance", args)
		}
	}
}

// without returns the network's nodes but node i (none when i < 0).
func (nw *localNetwork) without(i int) *localNetwork {
	out := &localNetwork{dir: nw.dir}
	for j, n := range nw.nodes {
		if j != i {
			out.nodes = append(out.nodes, n)
		}
	}
	return out
}

// signTransfer signs a transfer of value from key to to with nonce on the EVM chain of ID
// evmChainID.
func signTransfer(t testing.TB, key *ecdsa.PrivateKey, to common.Address, value *big.Int, nonce uint64, evmChainID int64) *types.Transaction {
	t.Helper()
	chainID := big.NewInt(evmChainID)
	tx, err := types.SignNewTx(key, types.LatestSignerForChainID(chainID), &types.DynamicFeeTx{
		ChainID: chainID, Nonce: nonce, GasTipCap: big.NewInt(1), GasFeeCap: big.NewInt(1_000_000_000_000),
		Gas: 21000, To: &to, Value: value,
	})
	require.NoError(t, err)
	return tx
}

// sendAndWait sends tx to node's C-Chain and waits until node has its successful receipt.
func sendAndWait(ctx context.Context, node localnet.Node, tx *types.Transaction) error {
	ctx, cancel := context.WithTimeout(ctx, networkWait)
	defer cancel()
	client, err := ethclient.DialContext(ctx, node.URI()+"/ext/bc/C/rpc")
	if err != nil {
		return err
	}
	defer client.Close()
	if err := client.SendTransaction(ctx, tx); err != nil {
		return fmt.Errorf("send %s to %s: %w", tx.Hash(), node.Name, err)
	}
	for {
		r, err := client.TransactionReceipt(ctx, tx.Hash())
		if err == nil {
			if r.Status != types.ReceiptStatusSuccessful {
				return fmt.Errorf("%s failed on %s", tx.Hash(), node.Name)
			}
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s not accepted on %s: %w", tx.Hash(), node.Name, ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// sendAVAX sends amount nAVAX from key to to's address on node's P-Chain (onP) or X-Chain and
// waits until node has accepted it; it returns the tx's ID.
func sendAVAX(ctx context.Context, node localnet.Node, key, to *wallet.Key, onP bool, amount uint64) (ids.ID, error) {
	client, err := wallet.NewClient(node.URI(), nil)
	if err != nil {
		return ids.Empty, err
	}
	if onP {
		p, err := wallet.NewP(ctx, client, key, clock.Real{})
		if err != nil {
			return ids.Empty, err
		}
		tx, err := p.Send(ctx, to.ChainAddress("P", localNetworkID), amount)
		if err != nil {
			return ids.Empty, err
		}
		return p.IssueAndWait(ctx, tx, networkWait)
	}
	x, err := wallet.NewX(ctx, client, key, clock.Real{})
	if err != nil {
		return ids.Empty, err
	}
	tx, err := x.Send(ctx, to.ChainAddress("X", localNetworkID), x.Builder().AVAXAssetID, amount)
	if err != nil {
		return ids.Empty, err
	}
	id, err := x.Issue(ctx, tx)
	if err != nil {
		return ids.Empty, err
	}
	return id, x.WaitAccepted(ctx, id, networkWait)
}

// requireTxAccepted waits until every node of nw has accepted tx on the P-Chain (onP) or the
// X-Chain.
func (nw *localNetwork) requireTxAccepted(t testing.TB, onP bool, tx ids.ID) {
	t.Helper()
	// The P-Chain's status of an accepted tx is the reference's "Committed".
	path, method, want := "/ext/bc/X", "avm.getTxStatus", "Accepted"
	if onP {
		path, method, want = "/ext/bc/P", "platform.getTxStatus", "Committed"
	}
	for i := range nw.nodes {
		require.Eventually(t, func() bool {
			var res struct {
				Status string `json:"status"`
			}
			return nw.call(t, i, path, method, map[string]any{"txID": tx}, &res) == nil && res.Status == want
		}, networkWait, 20*time.Millisecond, "%s has not accepted %s", nw.nodes[i].Name, tx)
	}
}

// requireSameCHead waits until every node's C-Chain head is node 1's, then checks that they have
// the same block hash and state root there.
func (nw *localNetwork) requireSameCHead(t testing.TB) {
	t.Helper()
	heads := make([]*types.Header, len(nw.nodes))
	require.Eventually(t, func() bool {
		for i, n := range nw.nodes {
			client, err := ethclient.DialContext(t.Context(), n.URI()+"/ext/bc/C/rpc")
			if err != nil {
				return false
			}
			heads[i], err = client.HeaderByNumber(t.Context(), nil)
			client.Close()
			if err != nil || heads[i].Number.Cmp(heads[0].Number) != 0 {
				return false
			}
		}
		return true
	}, networkWait, 50*time.Millisecond, "the nodes' C-Chain heights differ")
	for i, h := range heads {
		require.Equal(t, heads[0].Hash(), h.Hash(), nw.nodes[i].Name)
		require.Equal(t, heads[0].Root, h.Root, nw.nodes[i].Name)
	}
}

// requireSameAnswer checks that every node answers method with args on path as node 1 does.
func (nw *localNetwork) requireSameAnswer(t testing.TB, path, method string, args any) {
	t.Helper()
	var answers []string
	for i := range nw.nodes {
		var res json.RawMessage
		require.NoError(t, nw.call(t, i, path, method, args, &res), "%s %s", nw.nodes[i].Name, method)
		answers = append(answers, string(res))
	}
	require.Len(t, slices.Compact(answers), 1, "%s %v: %v", method, args, answers)
}
