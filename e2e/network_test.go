package e2e_test

import (
	"context"
	"fmt"
	"math/big"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/jsonrpc"
	"github.com/cornice-node/cornice/localnet"
)

// networkWait bounds every wait of the multi-node tests.
const networkWait = 90 * time.Second

// localNetwork is a network started with `cornice network start` in a temporary directory, on
// free ports; the test stops it at cleanup.
type localNetwork struct {
	dir   string
	nodes []localnet.Node
}

// freePorts returns a base port p such that p … p+2n−1 are free on loopback now. They lie below
// the kernel's ephemeral range: a port in it may be taken by any outgoing connection (the nodes
// redialling a stopped peer, the test's clients) while its node is down, which would keep the
// node from starting again.
func freePorts(t testing.TB, n int) int {
	t.Helper()
	top := ephemeralLow() - 2*n
	require.Greater(t, top, 10000, "the ephemeral port range starts too low")
	for range 100 {
		base := 10000 + 2*rand.IntN((top-10000)/2)
		var ls []net.Listener
		for i := range 2 * n {
			l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(base+i))
			if err != nil {
				break
			}
			ls = append(ls, l)
		}
		for _, l := range ls {
			require.NoError(t, l.Close())
		}
		if len(ls) == 2*n {
			return base
		}
	}
	require.FailNow(t, "no free ports")
	return 0
}

// ephemeralLow returns the first port of the kernel's ephemeral range (Linux's default when it
// cannot be read).
func ephemeralLow() int {
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if f := strings.Fields(string(b)); err == nil && len(f) > 0 {
		if low, err := strconv.Atoi(f[0]); err == nil {
			return low
		}
	}
	return 32768
}

// startNetwork runs `cornice network start` for n nodes and checks what it prints.
func startNetwork(t testing.TB, n int) *localNetwork {
	t.Helper()
	nw, _ := startNetworkWith(t, n)
	return nw
}

// startNetworkWith runs `cornice network start` for n nodes with more flags and checks what it
// prints; it returns the network and the command's output.
//
// Ports free when chosen may be taken by another process before a node binds them (other tests
// run on the machine): a start that fails so is stopped and tried again on other ports, in a
// new directory.
func startNetworkWith(t testing.TB, n int, flags ...string) (*localNetwork, string) {
	t.Helper()
	var (
		dir, stdout, stderr string
		base, code          int
	)
	for range 3 {
		d := t.TempDir()
		dir, base = d, freePorts(t, n)
		t.Cleanup(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			_ = localnet.Stop(ctx, d) // whatever the test did, no node outlives it
			if t.Failed() {
				logTails(t, d, n)
			}
		})
		code, stdout, stderr = runCLI(t, append([]string{"network", "start", "--dir", dir, "--nodes", strconv.Itoa(n),
			"--http-port", strconv.Itoa(base), "--staking-port", strconv.Itoa(base + 1), "--wait", networkWait.String()}, flags...)...)
		if code == 0 || !strings.Contains(stderr, "address already in use") {
			break
		}
		t.Logf("a port was taken: trying others\n%s", stderr)
		ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
		require.NoError(t, localnet.Stop(ctx, dir))
		cancel()
	}
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	require.Contains(t, stdout, fmt.Sprintf("local network of %d nodes in %s is ready\n", n, dir))
	status, err := localnet.Status(dir)
	require.NoError(t, err)
	require.Len(t, status, n)
	nw := &localNetwork{dir: dir}
	for i, s := range status {
		require.True(t, s.Running)
		require.Equal(t, base+2*i, s.HTTPPort)
		require.Regexp(t, regexp.MustCompile(`(?m)^`+s.Name+`  `+s.NodeID+`  `+regexp.QuoteMeta(s.URI())+`  staking 127\.0\.0\.1:`+strconv.Itoa(s.StakingPort)+`  running \(pid \d+\)$`), stdout)
		nw.nodes = append(nw.nodes, s.Node)
	}
	return nw, stdout
}

// logTails logs the end of each node's log, to tell why a multi-node test failed.
func logTails(t testing.TB, dir string, n int) {
	for i := range n {
		path := filepath.Join(dir, fmt.Sprintf("node%d", i+1), "log")
		b, err := os.ReadFile(path)
		if err != nil {
			t.Log(err)
			continue
		}
		lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
		t.Logf("the end of %s:\n%s", path, strings.Join(lines[max(0, len(lines)-40):], "\n"))
	}
}

// call calls a JSON-RPC method on node i.
func (nw *localNetwork) call(t testing.TB, i int, path, method string, params, result any) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	return jsonrpc.NewClient(nw.nodes[i].URI(), nil).Call(ctx, path, method, params, result)
}

// container is an index entry, timestamp aside.
type container struct {
	ID    string `json:"id"`
	Bytes string `json:"bytes"`
	Index string `json:"index"`
}

// index returns node i's index entries of path (e.g. /ext/index/X/block), in order.
func (nw *localNetwork) index(t testing.TB, i int, path string) []container {
	t.Helper()
	var last container
	if err := nw.call(t, i, path, "index.getLastAccepted", map[string]string{"encoding": "hex"}, &last); err != nil {
		return nil // an empty index
	}
	n, err := strconv.Atoi(last.Index)
	require.NoError(t, err)
	var out []container
	for at := 0; at <= n; at++ {
		var c container
		require.NoError(t, nw.call(t, i, path, "index.getContainerByIndex", map[string]any{"index": at, "encoding": "hex"}, &c))
		out = append(out, c)
	}
	return out
}

// requireSameIndexes waits until every node's index of each path holds the same containers as
// node 0's, and at least want of them.
func (nw *localNetwork) requireSameIndexes(t testing.TB, want int, paths ...string) {
	t.Helper()
	for _, path := range paths {
		require.Eventually(t, func() bool {
			first := nw.index(t, 0, path)
			if len(first) < want {
				return false
			}
			for i := 1; i < len(nw.nodes); i++ {
				if fmt.Sprint(nw.index(t, i, path)) != fmt.Sprint(first) {
					return false
				}
			}
			return true
		}, networkWait, 50*time.Millisecond, "the nodes' %s differ", path)
	}
}

// sendCTransfer sends a transfer of the local key's on node i's C-Chain with nonce and returns
// its hash.
func (nw *localNetwork) sendCTransfer(t testing.TB, i int, nonce uint64) common.Hash {
	t.Helper()
	return nw.sendTransfer(t, i, "C", 43112, nonce)
}

// sendTransfer sends a transfer of the local key's on node i's EVM chain (C or a blockchain ID)
// of EVM chain ID evmChainID with nonce, and returns its hash.
func (nw *localNetwork) sendTransfer(t testing.TB, i int, chain string, evmChainID int64, nonce uint64) common.Hash {
	t.Helper()
	return nw.sendSignedOn(t, i, chain, signLocalTransfer(t, nonce, evmChainID))
}

// signLocalTransfer returns the transfer of 1 gwei (10^9 wei) from the local key with nonce on EVM
// chain ID evmChainID that sendTransfer sends.
func signLocalTransfer(t testing.TB, nonce uint64, evmChainID int64) *types.Transaction {
	t.Helper()
	key, err := crypto.HexToECDSA(localKeyHex)
	require.NoError(t, err)
	to := common.HexToAddress("0x000000000000000000000000000000000000c0de")
	return signTransfer(t, key, to, big.NewInt(1_000_000_000), nonce, evmChainID)
}

// sendSignedOn sends tx to node i's EVM chain (C or a blockchain ID) and returns its hash.
func (nw *localNetwork) sendSignedOn(t testing.TB, i int, chain string, tx *types.Transaction) common.Hash {
	t.Helper()
	client, err := ethclient.DialContext(t.Context(), nw.nodes[i].URI()+"/ext/bc/"+chain+"/rpc")
	require.NoError(t, err)
	defer client.Close()
	require.NoError(t, client.SendTransaction(t.Context(), tx))
	return tx.Hash()
}

// requireCReceiptEverywhere waits until every node has tx's receipt, and checks that all put it
// in the same block at the same height.
func (nw *localNetwork) requireCReceiptEverywhere(t testing.TB, tx common.Hash) {
	t.Helper()
	nw.requireReceiptEverywhere(t, "C", tx)
}

// requireReceiptEverywhere waits until every node has tx's receipt on EVM chain (C or a
// blockchain ID), and checks that all put it in the same block at the same height.
func (nw *localNetwork) requireReceiptEverywhere(t testing.TB, chain string, tx common.Hash) {
	t.Helper()
	var first *types.Receipt
	for i, n := range nw.nodes {
		client, err := ethclient.DialContext(t.Context(), n.URI()+"/ext/bc/"+chain+"/rpc")
		require.NoError(t, err)
		var r *types.Receipt
		require.Eventually(t, func() bool {
			r, err = client.TransactionReceipt(t.Context(), tx)
			return err == nil
		}, networkWait, 20*time.Millisecond, "node %d has no receipt of %s", i, tx)
		client.Close()
		require.Equal(t, types.ReceiptStatusSuccessful, r.Status)
		if first == nil {
			first = r
			continue
		}
		require.Equal(t, first.BlockHash, r.BlockHash, "node %d", i)
		require.Equal(t, first.BlockNumber, r.BlockNumber, "node %d", i)
	}
}

// Five validators started with one command agree on every chain: a C-Chain transfer sent to
// node 1 is accepted in the same block at the same height on all five, and so are X- and
// P-Chain sends and an X→C transfer (export, then import, sent to other nodes); every node's
// index holds the same containers. `cornice network stop` keeps the data and `start` resumes.
func TestNetworkFiveValidators(t *testing.T) {
	if testing.Short() {
		t.Skip("starts five node processes")
	}
	nw := startNetwork(t, 5)

	nw.requireCReceiptEverywhere(t, nw.sendCTransfer(t, 0, 0))

	// The wallet commands wait for acceptance on the node they talk to, not on the others: a
	// wallet reads the accepted UTXOs of its own node, so the next command, sent to another node,
	// waits until every node has accepted the last one. Otherwise node 4 may still list the
	// UTXO that node 2's X send spent, and refuse the export built on it as a double spend.
	for _, step := range []struct {
		args  []string
		want  int
		paths []string
	}{
		{[]string{"x", "send", "--node-uri", nw.nodes[1].URI(), "--to", "X-local1g65uqn6t77p656w64023nh8nd9updzmxyymev2", "--amount", "1000000"},
			1, []string{"/ext/index/X/block"}},
		{[]string{"p", "send", "--node-uri", nw.nodes[2].URI(), "--to", "P-local1g65uqn6t77p656w64023nh8nd9updzmxyymev2", "--amount", "1000000"},
			1, []string{"/ext/index/P/block"}},
		{[]string{"transfer", "--node-uri", nw.nodes[3].URI(), "--from", "X", "--to", "C", "--amount", "1AVAX"},
			2, []string{"/ext/index/X/block", "/ext/index/X/tx", "/ext/index/C/block"}},
	} {
		code, stdout, stderr := runCLI(t, step.args...)
		require.Equal(t, 0, code, "%v\nstdout:\n%s\nstderr:\n%s", step.args, stdout, stderr)
		nw.requireSameIndexes(t, step.want, step.paths...)
	}

	code, stdout, stderr := runCLI(t, "network", "stop", "--dir", nw.dir)
	require.Equal(t, 0, code, stderr)
	require.Equal(t, "local network in "+nw.dir+" stopped\n", stdout)
	status, err := localnet.Status(nw.dir)
	require.NoError(t, err)
	for _, s := range status {
		require.False(t, s.Running, s.Name)
	}
	code, stdout, stderr = runCLI(t, "network", "status", "--dir", nw.dir)
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "node5  "+status[4].NodeID+"  "+status[4].URI())
	require.Contains(t, stdout, "stopped\n")

	// Start resumes: the same chains, and the next transfer goes on from them.
	code, _, stderr = runCLI(t, "network", "start", "--dir", nw.dir, "--wait", networkWait.String())
	require.Equal(t, 0, code, stderr)
	nw.requireCReceiptEverywhere(t, nw.sendCTransfer(t, 4, 1))
	nw.requireSameIndexes(t, 3, "/ext/index/C/block")
}

// requireNoCReceipt checks, after every transfer sent before it had time to settle, that no
// running node accepted tx: with fewer than αc of K votes reachable no poll can succeed, however
// long one waits; the check looks a few times over a second.
func (nw *localNetwork) requireNoCReceipt(t testing.TB, tx common.Hash, nodes ...int) {
	t.Helper()
	for range 10 {
		for _, i := range nodes {
			client, err := ethclient.DialContext(t.Context(), nw.nodes[i].URI()+"/ext/bc/C/rpc")
			require.NoError(t, err)
			_, err = client.TransactionReceipt(t.Context(), tx)
			client.Close()
			require.Error(t, err, "node %d accepted %s without a quorum", i, tx)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Five validators of equal weight survive a faulty minority and stall without a quorum
// (network-consensus-warp.md §6.4, with the default K = 20 and αc = 15): with one of five killed
// a transfer is still accepted by the four; with two killed (12 of 20 votes at best) nothing is,
// and once one returns the pending transfer is accepted by all that run, the returned node
// catching up from its peers; the last one comes back and catches up too.
func TestNetworkFaults(t *testing.T) {
	if testing.Short() {
		t.Skip("starts five node processes")
	}
	nw := startNetwork(t, 5)
	up := func(down ...int) *localNetwork {
		var nodes []localnet.Node
		for i, n := range nw.nodes {
			if !slices.Contains(down, i) {
				nodes = append(nodes, n)
			}
		}
		return &localNetwork{dir: nw.dir, nodes: nodes}
	}

	require.NoError(t, localnet.Kill(nw.dir, "node5"))
	up(4).requireCReceiptEverywhere(t, nw.sendCTransfer(t, 0, 0))

	require.NoError(t, localnet.Kill(nw.dir, "node4"))
	stalled := nw.sendCTransfer(t, 1, 1)
	nw.requireNoCReceipt(t, stalled, 0, 1, 2)

	bin, err := binary()
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(t.Context(), networkWait)
	defer cancel()
	require.NoError(t, localnet.StartNode(ctx, bin, nw.dir, "node4"))
	up(4).requireCReceiptEverywhere(t, stalled)

	code, _, stderr := runCLI(t, "network", "start", "--dir", nw.dir, "--wait", networkWait.String())
	require.Equal(t, 0, code, stderr)
	nw.requireCReceiptEverywhere(t, stalled)
	nw.requireSameIndexes(t, 2, "/ext/index/C/block")
}

// BenchmarkNetworkCTransfer measures a C-Chain transfer on a network started with `cornice
// network start`: from signing and sending it to node 1 until every node has its receipt; five
// validators (Snowman) beside one node alone (solo), in one run.
func BenchmarkNetworkCTransfer(b *testing.B) {
	for _, n := range []int{1, 5} {
		b.Run(fmt.Sprintf("nodes=%d", n), func(b *testing.B) { benchmarkCTransfer(b, n) })
	}
}

func benchmarkCTransfer(b *testing.B, n int) {
	nw := startNetwork(b, n)
	clients := make([]*ethclient.Client, len(nw.nodes))
	for i, n := range nw.nodes {
		c, err := ethclient.DialContext(b.Context(), n.URI()+"/ext/bc/C/rpc")
		require.NoError(b, err)
		defer c.Close()
		clients[i] = c
	}
	var latencies []time.Duration
	for i := 0; b.Loop(); i++ {
		start := time.Now()
		tx := nw.sendCTransfer(b, 0, uint64(i))
		for _, c := range clients {
			for {
				if _, err := c.TransactionReceipt(b.Context(), tx); err == nil {
					break
				}
				if time.Since(start) > networkWait {
					b.Fatalf("transfer %d not accepted everywhere", i)
				}
				time.Sleep(100 * time.Microsecond)
			}
		}
		latencies = append(latencies, time.Since(start))
	}
	slices.Sort(latencies)
	b.ReportMetric(float64(latencies[len(latencies)/2].Microseconds())/1000, "p50-ms")
}
