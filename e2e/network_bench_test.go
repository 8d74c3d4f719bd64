package e2e_test

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/localnet"
)

// throughputSenders is how many funded accounts the throughput benchmark's transfers come from:
// each node is sent the transfers of its share of them, so every sender's nonces reach one node,
// in order.
const throughputSenders = 100

// throughputBatch is how many eth_sendRawTransaction calls one JSON-RPC request carries.
const throughputBatch = 100

// BenchmarkNetworkCThroughput measures sustained C-Chain transfers accepted per second on a
// local network of node processes: one node alone (solo), five validators (Snowman), and five
// validators in proposer windows (--proposer-windows, Snowman++), one after the other. b.N
// pre-signed transfers from throughputSenders funded accounts are sent to every node at once
// (sender s to node s mod n), in JSON-RPC batches, and the clock runs from the first send until
// every node has accepted blocks holding all of them. The nodes run with --dev-methods, whose
// C-Chain gas target (1G gas a second, reached at the first block) takes any load: without it
// ACP-176 refills 2M gas a second, about 95 transfers, on any number of nodes
// (docs/benchmarks.md).
//
//	go test -run '^$' -bench BenchmarkNetworkCThroughput -benchtime 20000x ./e2e/
func BenchmarkNetworkCThroughput(b *testing.B) {
	for _, c := range []struct {
		name  string
		nodes int
		args  []string
	}{
		{"nodes=1", 1, nil},
		{"nodes=5", 5, nil},
		{"nodes=5/proposer-windows", 5, []string{"--proposer-windows"}},
	} {
		// The network outlives the sub-benchmark's runs (b.N = 1, then the asked-for N): it is
		// started by the first run of a sub-benchmark that -bench selects, and stopped here.
		var l *transferLoad
		b.Run(c.name, func(sb *testing.B) {
			if l == nil {
				l = newTransferLoad(sb, startNetworkArgs(b, sb, c.nodes, append([]string{"--dev-methods"}, c.args...)...))
			}
			l.run(sb)
		})
		if l != nil {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			require.NoError(b, localnet.Stop(ctx, l.nw.dir))
			cancel()
		}
	}
}

// startNetworkArgs starts a local network of n nodes through package localnet, with args given
// to every node's `cornice run`, in a directory of owner's that owner's cleanup stops.
func startNetworkArgs(owner, t testing.TB, n int, args ...string) *localNetwork {
	t.Helper()
	bin, err := binary()
	require.NoError(t, err)
	dir := owner.TempDir()
	base := freePorts(t, n)
	owner.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_ = localnet.Stop(ctx, dir) // whatever the test did, no node outlives it
	})
	ctx, cancel := context.WithTimeout(t.Context(), networkWait)
	defer cancel()
	nodes, err := localnet.Start(ctx, localnet.Config{Binary: bin, Dir: dir, Nodes: n, HTTPPort: base, StakingPort: base + 1, Args: args})
	require.NoError(t, err)
	return &localNetwork{dir: dir, nodes: nodes}
}

// transferLoad is the senders of a throughput run and their next nonces.
type transferLoad struct {
	nw     *localNetwork
	rpc    []string // each node's C-Chain RPC URL
	http   *http.Client
	keys   []*ecdsa.PrivateKey
	addrs  []common.Address
	nonces []uint64
	signer types.Signer
	chain  *big.Int
}

// newTransferLoad funds throughputSenders accounts from the local key through node 1 and waits
// until every node has accepted the funding.
func newTransferLoad(t testing.TB, nw *localNetwork) *transferLoad {
	t.Helper()
	l := &transferLoad{
		nw:     nw,
		http:   &http.Client{Timeout: time.Minute, Transport: &http.Transport{MaxIdleConnsPerHost: 4}},
		chain:  big.NewInt(43112),
		nonces: make([]uint64, throughputSenders),
	}
	l.signer = types.LatestSignerForChainID(l.chain)
	for _, n := range nw.nodes {
		l.rpc = append(l.rpc, n.URI()+"/ext/bc/C/rpc")
	}
	for i := range throughputSenders {
		k, err := crypto.ToECDSA(crypto.Keccak256([]byte("throughput sender " + strconv.Itoa(i))))
		require.NoError(t, err)
		l.keys = append(l.keys, k)
		l.addrs = append(l.addrs, crypto.PubkeyToAddress(k.PublicKey))
	}
	local, err := crypto.HexToECDSA(localKeyHex)
	require.NoError(t, err)
	amount := new(big.Int).Mul(big.NewInt(1_000), big.NewInt(1e18)) // 1,000 AVAX each
	var raws []string
	for i, a := range l.addrs {
		raws = append(raws, l.sign(t, local, uint64(i), a, amount))
	}
	start := l.blockNumbers(t)
	require.NoError(t, l.send(t.Context(), 0, raws))
	l.waitAccepted(t, start, len(raws))
	return l
}

// sign returns the raw transfer of value from key with nonce to to, in hex.
func (l *transferLoad) sign(t testing.TB, key *ecdsa.PrivateKey, nonce uint64, to common.Address, value *big.Int) string {
	t.Helper()
	tx, err := types.SignNewTx(key, l.signer, &types.DynamicFeeTx{
		ChainID: l.chain, Nonce: nonce, GasTipCap: big.NewInt(1), GasFeeCap: big.NewInt(1_000_000_000_000),
		Gas: 21000, To: &to, Value: value,
	})
	require.NoError(t, err)
	raw, err := tx.MarshalBinary()
	require.NoError(t, err)
	return hexutil.Encode(raw)
}

// rpcCall is one JSON-RPC call of a batch, and rpcReply one answer.
type rpcCall struct {
	JSONRPC string `json:"jsonrpc"`
	ID      int    `json:"id"`
	Method  string `json:"method"`
	Params  []any  `json:"params"`
}

type rpcReply struct {
	ID     int             `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Message string `json:"message"`
	} `json:"error"`
}

// batch posts calls to node i's C-Chain as one batch and returns the results in order.
func (l *transferLoad) batch(ctx context.Context, i int, calls []rpcCall) ([]json.RawMessage, error) {
	body, err := json.Marshal(calls)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, l.rpc[i], bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := l.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	var replies []rpcReply
	if err := json.Unmarshal(raw, &replies); err != nil {
		return nil, fmt.Errorf("node %d: %w: %.200s", i, err, raw)
	}
	out := make([]json.RawMessage, len(calls))
	for _, r := range replies {
		if r.Error != nil {
			return nil, fmt.Errorf("node %d, call %d: %s", i, r.ID, r.Error.Message)
		}
		out[r.ID] = r.Result
	}
	return out, nil
}

// send sends raws to node i with eth_sendRawTransaction, throughputBatch calls a request.
func (l *transferLoad) send(ctx context.Context, i int, raws []string) error {
	for len(raws) > 0 {
		n := min(len(raws), throughputBatch)
		calls := make([]rpcCall, n)
		for j, raw := range raws[:n] {
			calls[j] = rpcCall{JSONRPC: "2.0", ID: j, Method: "eth_sendRawTransaction", Params: []any{raw}}
		}
		if _, err := l.batch(ctx, i, calls); err != nil {
			return err
		}
		raws = raws[n:]
	}
	return nil
}

// blockNumbers returns every node's C-Chain height.
func (l *transferLoad) blockNumbers(t testing.TB) []uint64 {
	t.Helper()
	out := make([]uint64, len(l.rpc))
	for i := range l.rpc {
		r, err := l.batch(t.Context(), i, []rpcCall{{JSONRPC: "2.0", Method: "eth_blockNumber", Params: []any{}}})
		require.NoError(t, err)
		var h hexutil.Uint64
		require.NoError(t, json.Unmarshal(r[0], &h))
		out[i] = uint64(h)
	}
	return out
}

// waitAccepted waits until every node's blocks above from[i] hold want transactions, and returns
// how many blocks that took on node 1.
func (l *transferLoad) waitAccepted(t testing.TB, from []uint64, want int) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	var (
		wg     sync.WaitGroup
		errs   = make([]error, len(l.rpc))
		blocks = make([]int, len(l.rpc))
	)
	for i := range l.rpc {
		wg.Go(func() { blocks[i], errs[i] = l.watch(ctx, i, from[i], want) })
	}
	wg.Wait()
	for i, err := range errs {
		require.NoError(t, err, "node %d", i+1)
	}
	return blocks[0]
}

// watch polls node i until its blocks above from hold want transactions; it returns how many
// blocks they are.
func (l *transferLoad) watch(ctx context.Context, i int, from uint64, want int) (int, error) {
	seen, count := from, 0
	for ctx.Err() == nil {
		r, err := l.batch(ctx, i, []rpcCall{{JSONRPC: "2.0", Method: "eth_blockNumber", Params: []any{}}})
		if err != nil {
			return 0, err
		}
		var head hexutil.Uint64
		if err := json.Unmarshal(r[0], &head); err != nil {
			return 0, err
		}
		if uint64(head) > seen {
			var calls []rpcCall
			for h := seen + 1; h <= uint64(head); h++ {
				calls = append(calls, rpcCall{JSONRPC: "2.0", ID: len(calls), Method: "eth_getBlockTransactionCountByNumber", Params: []any{hexutil.Uint64(h)}})
			}
			rs, err := l.batch(ctx, i, calls)
			if err != nil {
				return 0, err
			}
			for _, r := range rs {
				var n hexutil.Uint64
				if err := json.Unmarshal(r, &n); err != nil {
					return 0, err
				}
				count += int(n)
			}
			seen = uint64(head)
		}
		if count >= want {
			return int(seen - from), nil
		}
		time.Sleep(5 * time.Millisecond)
	}
	return 0, fmt.Errorf("%d of %d transactions accepted: %w", count, want, ctx.Err())
}

// run sends b.N transfers, each sender's to node (sender mod nodes), and times them until
// every node has accepted them all.
func (l *transferLoad) run(b *testing.B) {
	nodes := len(l.rpc)
	perNode := make([][]string, nodes)
	for i := range b.N {
		s := i % throughputSenders
		perNode[s%nodes] = append(perNode[s%nodes], l.sign(b, l.keys[s], l.nonces[s], common.Address{0xc0, 0xde}, big.NewInt(1)))
		l.nonces[s]++
	}
	from := l.blockNumbers(b)
	cpu := l.nodesCPU(b)
	b.ResetTimer()
	start := time.Now()
	var (
		wg   sync.WaitGroup
		errs = make([]error, nodes)
	)
	for i := range nodes {
		wg.Go(func() { errs[i] = l.send(b.Context(), i, perNode[i]) })
	}
	wg.Wait()
	sent := time.Since(start)
	for i, err := range errs {
		require.NoError(b, err, "send to node %d", i+1)
	}
	blocks := l.waitAccepted(b, from, b.N)
	elapsed := time.Since(start)
	cpu = l.nodesCPU(b) - cpu
	b.StopTimer()

	// Every sender's nonce moved by its transfers on every node.
	for i := range l.rpc {
		calls := make([]rpcCall, len(l.addrs))
		for s, a := range l.addrs {
			calls[s] = rpcCall{JSONRPC: "2.0", ID: s, Method: "eth_getTransactionCount", Params: []any{a, "latest"}}
		}
		rs, err := l.batch(b.Context(), i, calls)
		require.NoError(b, err)
		for s, r := range rs {
			var n hexutil.Uint64
			require.NoError(b, json.Unmarshal(r, &n))
			require.Equal(b, l.nonces[s], uint64(n), "node %d, sender %d", i+1, s)
		}
	}
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "accepted/s")
	b.ReportMetric(float64(b.N)/sent.Seconds(), "sent/s")
	b.ReportMetric(float64(blocks), "blocks")
	b.ReportMetric(float64(b.N)/float64(max(blocks, 1)), "txs/block")
	b.ReportMetric(cpu.Seconds()*1000/float64(b.N), "node-cpu-ms/transfer")
}

// nodesCPU returns the CPU time (user and system) the network's node processes have used so far:
// per transfer, the figure that waiting for a core on a shared machine does not inflate.
func (l *transferLoad) nodesCPU(t testing.TB) time.Duration {
	t.Helper()
	status, err := localnet.Status(l.nw.dir)
	require.NoError(t, err)
	var total time.Duration
	for _, s := range status {
		require.True(t, s.Running, s.Name)
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", s.PID))
		require.NoError(t, err)
		// The fields after the command's closing parenthesis; utime and stime are the 12th and
		// 13th, in clock ticks of 1/100 s (USER_HZ on Linux).
		fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
		for _, f := range fields[11:13] {
			ticks, err := strconv.ParseInt(f, 10, 64)
			require.NoError(t, err)
			total += time.Duration(ticks) * 10 * time.Millisecond
		}
	}
	return total
}
