package e2e_test

import (
	"bufio"
	"context"
	"fmt"
	"math/big"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/localnet"
	"github.com/cornice-node/cornice/node/nodetest"
)

// catchUpBlocks is how many C-Chain blocks TestNetworkCatchUp makes while a node is down:
// CORNICE_CATCHUP_BLOCKS, or 100 in CI (docs/benchmarks.md has the longer runs' command).
func catchUpBlocks(t testing.TB) uint64 {
	s := os.Getenv("CORNICE_CATCHUP_BLOCKS")
	if s == "" {
		return 100
	}
	n, err := strconv.ParseUint(s, 10, 64)
	require.NoError(t, err, "CORNICE_CATCHUP_BLOCKS")
	return n
}

// makeCBlocks sends transfers of the local key to node i, from nonce on, until its C-Chain is
// at least n blocks higher than when it started; it waits for the last transfer's receipt and
// returns the next nonce and node i's height then. At most a few transfers wait at a time: the
// node builds a block for each while fewer than OptimalProcessing blocks are processing, so the
// blocks are many and small.
// makeCBlocksWindow is how many of makeCBlocks's transfers may wait for acceptance at a time.
const makeCBlocksWindow = 10

func (nw *localNetwork) makeCBlocks(t testing.TB, i int, nonce, n uint64) (uint64, uint64) {
	t.Helper()
	client, err := ethclient.DialContext(t.Context(), nw.nodes[i].URI()+"/ext/bc/C/rpc")
	require.NoError(t, err)
	defer client.Close()
	key, err := crypto.HexToECDSA(localKeyHex)
	require.NoError(t, err)
	chainID := big.NewInt(43112)
	signer := types.LatestSignerForChainID(chainID)
	to := common.HexToAddress("0x000000000000000000000000000000000000c0de")
	from := crypto.PubkeyToAddress(key.PublicKey)
	start, err := client.BlockNumber(t.Context())
	require.NoError(t, err)
	var last common.Hash
	deadline := time.Now().Add(networkWait + time.Duration(n)*time.Second)
	for {
		h, err := client.BlockNumber(t.Context())
		require.NoError(t, err)
		if h >= start+n {
			break
		}
		require.True(t, time.Now().Before(deadline), "node %d made %d of %d blocks", i, h-start, n)
		// Wait while makeCBlocksWindow transfers are not accepted yet.
		for {
			accepted, err := client.NonceAt(t.Context(), from, nil)
			require.NoError(t, err)
			if nonce-accepted < makeCBlocksWindow {
				break
			}
			require.True(t, time.Now().Before(deadline), "transfers not accepted")
			time.Sleep(time.Millisecond)
		}
		tx, err := types.SignNewTx(key, signer, &types.DynamicFeeTx{
			ChainID: chainID, Nonce: nonce, GasTipCap: big.NewInt(1), GasFeeCap: big.NewInt(1_000_000_000_000),
			Gas: 21000, To: &to, Value: big.NewInt(1),
		})
		require.NoError(t, err)
		require.NoError(t, client.SendTransaction(t.Context(), tx))
		last = tx.Hash()
		nonce++
	}
	require.Eventually(t, func() bool {
		_, err := client.TransactionReceipt(t.Context(), last)
		return err == nil
	}, networkWait, time.Millisecond, "transfer %s not accepted", last)
	h, err := client.BlockNumber(t.Context())
	require.NoError(t, err)
	return nonce, h
}

// cHashes returns node i's C-Chain block hashes at heights 0 to top.
func (nw *localNetwork) cHashes(t testing.TB, i int, top uint64) []common.Hash {
	t.Helper()
	client, err := ethclient.DialContext(t.Context(), nw.nodes[i].URI()+"/ext/bc/C/rpc")
	require.NoError(t, err)
	defer client.Close()
	out := make([]common.Hash, top+1)
	for h := range out {
		hdr, err := client.HeaderByNumber(t.Context(), new(big.Int).SetUint64(uint64(h)))
		require.NoError(t, err, "node %d, height %d", i, h)
		out[h] = hdr.Hash()
	}
	return out
}

// indexAll returns node i's index entries of path, timestamps aside, read 1,024 at a time.
func (nw *localNetwork) indexAll(t testing.TB, i int, path string) []container {
	t.Helper()
	var out []container
	for {
		var page struct {
			Containers []container `json:"containers"`
		}
		err := nw.call(t, i, path, "index.getContainerRange",
			map[string]any{"startIndex": len(out), "numToFetch": 1024, "encoding": "hex"}, &page)
		if err != nil || len(page.Containers) == 0 {
			return out // past the last entry, or an empty index
		}
		out = append(out, page.Containers...)
	}
}

// waitCHeight waits until node i's C-Chain is at height h.
func (nw *localNetwork) waitCHeight(t testing.TB, i int, h uint64) {
	t.Helper()
	client, err := ethclient.DialContext(t.Context(), nw.nodes[i].URI()+"/ext/bc/C/rpc")
	require.NoError(t, err)
	defer client.Close()
	require.Eventually(t, func() bool {
		got, err := client.BlockNumber(t.Context())
		return err == nil && got == h
	}, networkWait, 10*time.Millisecond, "node %d does not reach C-Chain height %d", i, h)
}

// bootstrapExecuted returns, from node i's metrics, how many blocks each chain (by alias)
// executed while bootstrapping since the node started (bs_executed).
func (nw *localNetwork) bootstrapExecuted(t testing.TB, i int) map[string]uint64 {
	t.Helper()
	byID := map[string]string{}
	for _, alias := range []string{"P", "X", "C"} {
		var res struct {
			BlockchainID string `json:"blockchainID"`
		}
		require.NoError(t, nw.call(t, i, "/ext/info", "info.getBlockchainID", map[string]string{"alias": alias}, &res))
		byID[res.BlockchainID] = alias
	}
	resp, err := http.Get(nw.nodes[i].URI() + "/ext/metrics")
	require.NoError(t, err)
	defer resp.Body.Close()
	out := map[string]uint64{}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		rest, ok := strings.CutPrefix(line, `bs_executed{chain="`)
		if !ok {
			continue
		}
		id, value, ok := strings.Cut(rest, `"} `)
		require.True(t, ok, line)
		v, err := strconv.ParseFloat(value, 64)
		require.NoError(t, err, line)
		if alias, ok := byID[id]; ok {
			out[alias] = uint64(v)
		}
	}
	require.NoError(t, sc.Err())
	return out
}

// A validator stopped while the others accept many C-Chain blocks (100 in CI;
// CORNICE_CATCHUP_BLOCKS sets more) catches up by bootstrapping when it returns: its metrics
// show every missed block executed by the bootstrapper, its log says bootstrapping finished,
// and it has the same block at every height and the same index as the others. The network runs
// plain Snowman (--proposer-windows=false): in proposer windows every height whose first slot
// is the stopped node's waits 5 s for the next slot, as the reference's does, which makes 100
// blocks take minutes; catching up on wrapped blocks is TestNetworkProposerWindows's.
func TestNetworkCatchUp(t *testing.T) {
	if testing.Short() {
		t.Skip("starts five node processes")
	}
	nw := startNetworkArgs(t, t, 5, "--proposer-windows=false")
	require.NoError(t, localnet.Kill(nw.dir, "node5"))
	n := catchUpBlocks(t)
	began := time.Now()
	_, top := nw.makeCBlocks(t, 0, 0, n)
	t.Logf("made %d C-Chain blocks while node5 was down, in %v", top, time.Since(began).Round(time.Millisecond))
	for i := 1; i < 4; i++ {
		nw.waitCHeight(t, i, top)
	}

	bin, err := binary()
	require.NoError(t, err)
	// The node's log file goes on from its first run, which bootstrapped too: only what the
	// restart writes counts.
	logPath := filepath.Join(nw.dir, "node5", "log")
	before, err := os.ReadFile(logPath)
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(t.Context(), networkWait)
	defer cancel()
	began = time.Now()
	require.NoError(t, localnet.StartNode(ctx, bin, nw.dir, "node5"))
	t.Logf("node5 started and bootstrapped in %v", time.Since(began).Round(time.Millisecond))
	// Ready means bootstrapped: nothing was built meanwhile, so the bootstrapper executed every
	// block node5 lacked.
	executed := nw.bootstrapExecuted(t, 4)
	require.Equal(t, top, executed["C"], "C-Chain blocks executed by node5's bootstrapper")
	log, err := os.ReadFile(logPath)
	require.NoError(t, err)
	require.Contains(t, string(log[len(before):]), "bootstrapping finished")
	nw.waitCHeight(t, 4, top)
	require.Equal(t, nw.cHashes(t, 0, top), nw.cHashes(t, 4, top))
	// Both are at top, and a block's index entry is committed with it: the indexes are final.
	want := nw.indexAll(t, 0, "/ext/index/C/block")
	require.Len(t, want, int(top))
	require.Equal(t, want, nw.indexAll(t, 4, "/ext/index/C/block"))
}

// A node that is not a validator joins a running network with the five as its bootstrap
// peers: it bootstraps the P-, X- and C-Chains from them, executing the blocks they accepted,
// and its indexes then hold the same containers as theirs.
func TestNetworkNewNodeJoins(t *testing.T) {
	if testing.Short() {
		t.Skip("starts six node processes")
	}
	nw := startNetwork(t, 5)
	_, cTop := nw.makeCBlocks(t, 0, 0, 5)
	for _, args := range [][]string{
		{"x", "send", "--node-uri", nw.nodes[1].URI(), "--to", "X-local1g65uqn6t77p656w64023nh8nd9updzmxyymev2", "--amount", "1000000"},
		{"p", "send", "--node-uri", nw.nodes[2].URI(), "--to", "P-local1g65uqn6t77p656w64023nh8nd9updzmxyymev2", "--amount", "1000000"},
	} {
		code, stdout, stderr := runCLI(t, args...)
		require.Equal(t, 0, code, "%v\nstdout:\n%s\nstderr:\n%s", args, stdout, stderr)
	}

	status, err := localnet.Status(nw.dir)
	require.NoError(t, err)
	var ips, nodeIDs []string
	for _, s := range status {
		ips = append(ips, fmt.Sprintf("127.0.0.1:%d", s.StakingPort))
		nodeIDs = append(nodeIDs, s.NodeID)
	}
	base := freePorts(t, 1)
	sixth := localnet.Node{Name: "node6", HTTPPort: base, StakingPort: base + 1}
	ctx, cancel := context.WithCancel(context.Background())
	var out nodetest.Buffer
	exited := startCLI(t, ctx, &out, &out, "run", "--network-id=local", "--data-dir="+t.TempDir(),
		"--http-port="+strconv.Itoa(sixth.HTTPPort), "--staking-port="+strconv.Itoa(sixth.StakingPort),
		"--bootstrap-ips="+strings.Join(ips, ","), "--bootstrap-ids="+strings.Join(nodeIDs, ","))
	t.Cleanup(func() {
		cancel()
		<-exited
	})
	all := &localNetwork{dir: nw.dir, nodes: append(nw.nodes, sixth)}
	for _, chain := range []string{"P", "X", "C"} {
		require.Eventually(t, func() bool {
			var res struct {
				IsBootstrapped bool `json:"isBootstrapped"`
			}
			err := all.call(t, 5, "/ext/info", "info.isBootstrapped", map[string]string{"chain": chain}, &res)
			return err == nil && res.IsBootstrapped
		}, networkWait, 20*time.Millisecond, "the sixth node does not bootstrap the %s-Chain:\n%s", chain, out.String())
	}
	executed := all.bootstrapExecuted(t, 5)
	require.Equal(t, cTop, executed["C"], "C-Chain blocks executed by the bootstrapper")
	require.Positive(t, executed["X"], "X-Chain blocks executed by the bootstrapper")
	require.Positive(t, executed["P"], "P-Chain blocks executed by the bootstrapper")
	require.Contains(t, out.String(), "bootstrapping finished")

	all.requireSameIndexes(t, 1, "/ext/index/P/block", "/ext/index/X/block", "/ext/index/X/tx")
	all.requireSameIndexes(t, int(cTop), "/ext/index/C/block")
}
