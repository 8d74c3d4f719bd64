package node_test

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	refids "github.com/ava-labs/avalanchego/ids"
	refindexer "github.com/ava-labs/avalanchego/indexer"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/chains/chainstest"
	"github.com/cornice-node/cornice/config"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/index"
	"github.com/cornice-node/cornice/jsonrpc"
	"github.com/cornice-node/cornice/node"
	"github.com/cornice-node/cornice/storage"
)

// The tests in this file run a real node with test chains (chainstest's fake VM) named like the
// Primary Network's, plus an L1-like chain, and check the Index API over HTTP (node-api.md §5):
// every method on every index path with exact replies, the reference node's own Go client
// (avalanchego v1.14.2, indexer/client.go), restarts, and the --index-enabled /
// --index-allow-incomplete rules of §5.7.

// The IDs of the test X and C chains; the test P-Chain has the P-Chain's ID, the zero ID, which the
// node aliases P and platform from the start.
var (
	testXID = ids.ID(sha256.Sum256([]byte("cornice test chain X")))
	testCID = ids.ID(sha256.Sum256([]byte("cornice test chain C")))
)

// testNet is the set of chains of a test node: X, P and C run by fake VMs under the Primary Network's
// aliases, and an L1-like chain with a random ID, its own subnet and no alias.
type testNet struct {
	l1ID, l1Subnet ids.ID
}

func newTestNet() testNet {
	var tn testNet
	// crypto/rand.Read never fails.
	_, _ = rand.Read(tn.l1ID[:])
	_, _ = rand.Read(tn.l1Subnet[:])
	return tn
}

// chains returns the chains to pass to node.New; withL1 false leaves the L1 out.
func (tn testNet) chains(withL1 bool) []node.Chain {
	spec := func(id, subnet ids.ID, vm, name string, prefix storage.Prefix, aliases ...string) chains.Spec {
		return chains.Spec{
			Chain:      chains.Chain{ID: id, SubnetID: subnet, VMID: ids.FromName(vm), Name: name},
			Aliases:    aliases,
			APIAliases: aliases,
			Prefix:     prefix,
			Factory:    chainstest.Factory{},
			Genesis:    []byte(name + " genesis"),
		}
	}
	out := []node.Chain{
		{
			Spec:       spec(testXID, ids.Empty, "avm", "X-Chain", storage.PrefixExchange, "X", "avm"),
			IndexKinds: []index.Kind{index.Block, index.Tx, index.Vtx},
		},
		{Spec: spec(ids.Empty, ids.Empty, "platformvm", "P-Chain", storage.PrefixPlatform, "P", "platform")},
		{Spec: spec(testCID, ids.Empty, "evm", "C-Chain", storage.PrefixEVM, "C", "evm")},
	}
	if withL1 {
		out = append(out, node.Chain{Spec: spec(tn.l1ID, tn.l1Subnet, "subnetevm", "test L1", storage.PrefixEVM)})
	}
	return out
}

// indexTarget is one index path and the kv service of the chain that feeds it.
type indexTarget struct {
	path string
	rpc  string
	kind index.Kind
}

// targets lists every index path of a testNet node (node-api.md §2.3; the L1's block index is
// ours, at its blockchain ID, reference/README.md "Precedence" 3).
func (tn testNet) targets() []indexTarget {
	l1 := tn.l1ID.String()
	return []indexTarget{
		{"/ext/index/X/block", "/ext/bc/X/rpc", index.Block},
		{"/ext/index/X/tx", "/ext/bc/X/rpc", index.Tx},
		{"/ext/index/X/vtx", "/ext/bc/X/rpc", index.Vtx},
		{"/ext/index/P/block", "/ext/bc/P/rpc", index.Block},
		{"/ext/index/C/block", "/ext/bc/C/rpc", index.Block},
		{"/ext/index/" + l1 + "/block", "/ext/bc/" + l1 + "/rpc", index.Block},
	}
}

// nodeConfig is a custom-network (1337) config on loopback port 0 over dataDir, with the local staker2's
// identity (no key generation: starts stay fast).
// The network is not local, so the node builds no Primary Network genesis and the test chains can
// take the P, X and C aliases.
func nodeConfig(dataDir string) config.Config {
	cfg := config.Default()
	cfg.NetworkID = 1337
	if err := cfg.ResolveUpgrades(); err != nil {
		panic(err) // the default schedule of a custom network always resolves
	}
	cfg.DataDir = dataDir
	cfg.HTTPHost = "127.0.0.1"
	cfg.HTTPPort = 0
	cfg.StakingPort = 0
	stakers, err := filepath.Abs(filepath.Join("..", "testdata", "local-stakers"))
	if err != nil {
		panic(err) // only if the working directory is gone
	}
	cfg.StakingTLSKeyFile = filepath.Join(stakers, "staker2.key")
	cfg.StakingTLSCertFile = filepath.Join(stakers, "staker2.crt")
	cfg.StakingSignerKeyFile = filepath.Join(stakers, "signer2.key")
	return cfg
}

// callRPC posts one call and decodes its result into out (if not nil). A transport error or a
// JSON-RPC error is returned, not fatal: pollers and the crash test's load use it too.
func callRPC(url, method, params string, out any) error {
	return jsonrpc.NewClient(url, nil).Call(context.Background(), "", method, json.RawMessage(params), out)
}

// call posts one call and returns the exact reply body, without its final newline.
func call(t *testing.T, url, method, params string) string {
	t.Helper()
	resp, body := post(t, url, `{"jsonrpc":"2.0","id":1,"method":"`+method+`","params":`+params+`}`)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%s %s: %s", url, method, body)
	return strings.TrimSuffix(body, "\n")
}

// okReply and errReply are the exact bodies of a result and of a -32000 error, for id 1.
func okReply(result string) string { return `{"jsonrpc":"2.0","result":` + result + `,"id":1}` }

func errReply(msg string) string {
	m, err := json.Marshal(msg)
	if err != nil {
		panic(err)
	}
	return `{"jsonrpc":"2.0","error":{"code":-32000,"message":` + string(m) + `,"data":null},"id":1}`
}

// waitUntil polls cond until it is true, failing the test after a bound.
func waitUntil(t *testing.T, what string, cond func() (bool, error)) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	var last error
	for time.Now().Before(deadline) {
		ok, err := cond()
		if ok {
			return
		}
		last = err
		time.Sleep(5 * time.Millisecond)
	}
	require.FailNow(t, "timed out waiting for "+what, "last error: %v", last)
}

// putAll submits kv.put for each key (value = key + "=v") at url, in order, and waits until the
// chain accepted them all; it returns their transaction IDs.
func putAll(t *testing.T, url string, keys ...string) []ids.ID {
	t.Helper()
	var txIDs []ids.ID
	for _, k := range keys {
		var reply chainstest.PutReply
		require.NoError(t, callRPC(url, "kv.put", fmt.Sprintf(`{"key":%q,"value":%q}`, k, k+"=v"), &reply))
		require.Equal(t, chainstest.NewTx(k, k+"=v").ID(), reply.TxID)
		txIDs = append(txIDs, reply.TxID)
	}
	last := keys[len(keys)-1]
	// Blocks take the pending transactions in arrival order, so the last one accepted means all are.
	waitUntil(t, "acceptance of "+last+" at "+url, func() (bool, error) {
		var got chainstest.GetReply
		err := callRPC(url, "kv.get", fmt.Sprintf(`{"key":%q}`, last), &got)
		return err == nil && got.Found, err
	})
	return txIDs
}

// wantContainer is what an index entry must hold.
type wantContainer struct {
	id    ids.ID
	bytes []byte
}

// chainBlocks reads every accepted block of the chain whose kv service is at url, heights 1 to
// the last accepted one; it also returns their transactions in acceptance order and the last
// accepted block.
func chainBlocks(url string) (blocks, txs []wantContainer, last ids.ID, err error) {
	blks, last, err := fetchBlocks(url, 1)
	if err != nil {
		return nil, nil, ids.ID{}, err
	}
	blocks, txs = containers(blks)
	return blocks, txs, last, nil
}

// containers returns the containers of blocks and of their transactions, in order.
func containers(blocks []*chainstest.Block) (blks, txs []wantContainer) {
	for _, b := range blocks {
		blks = append(blks, wantContainer{id: b.ID(), bytes: b.Bytes()})
		for _, tx := range b.Transactions() {
			txs = append(txs, wantContainer{id: tx.ID(), bytes: tx.Bytes()})
		}
	}
	return blks, txs
}

// fetchBlocks reads the accepted blocks of the chain whose kv service is at url from height from
// to the last accepted one, in JSON-RPC batches of up to 1000 kv.block calls, and returns them
// with the last accepted block's ID.
func fetchBlocks(url string, from uint64) ([]*chainstest.Block, ids.ID, error) {
	var la chainstest.LastAcceptedReply
	if err := callRPC(url, "kv.lastAccepted", "{}", &la); err != nil {
		return nil, ids.ID{}, err
	}
	var parser *chainstest.VM // decodes without a VM
	height := uint64(la.Height)
	var blocks []*chainstest.Block
	for ; from <= height; from += 1000 {
		to := min(from+999, height)
		var body strings.Builder
		body.WriteString("[")
		for h := from; h <= to; h++ {
			if h > from {
				body.WriteString(",")
			}
			fmt.Fprintf(&body, `{"jsonrpc":"2.0","id":%d,"method":"kv.block","params":{"height":%d}}`, h, h)
		}
		body.WriteString("]")
		_, raw, err := jsonrpc.NewClient(url, nil).Post(context.Background(), "", []byte(body.String()))
		if err != nil {
			return nil, ids.ID{}, err
		}
		var replies []struct {
			ID     uint64                 `json:"id"`
			Result *chainstest.BlockReply `json:"result"`
			Error  *jsonrpc.Error         `json:"error"`
		}
		if err := json.Unmarshal(raw, &replies); err != nil {
			return nil, ids.ID{}, fmt.Errorf("kv.block batch: %w", err)
		}
		if len(replies) != int(to-from+1) {
			return nil, ids.ID{}, fmt.Errorf("kv.block batch: %d replies for %d calls", len(replies), to-from+1)
		}
		for i, r := range replies {
			h := from + uint64(i)
			if r.ID != h || r.Result == nil {
				return nil, ids.ID{}, fmt.Errorf("kv.block at height %d: %+v", h, r.Error)
			}
			b, err := ids.HexNC.Decode(r.Result.Bytes)
			if err != nil {
				return nil, ids.ID{}, fmt.Errorf("kv.block at height %d: %w", h, err)
			}
			blk, err := parser.Decode(b)
			if err != nil {
				return nil, ids.ID{}, fmt.Errorf("kv.block at height %d: %w", h, err)
			}
			if blk.ID() != r.Result.ID || blk.Height() != h {
				return nil, ids.ID{}, fmt.Errorf("kv.block at height %d: block %s of height %d", h, blk.ID(), blk.Height())
			}
			blocks = append(blocks, blk)
		}
	}
	return blocks, la.ID, nil
}

// want returns what the index of target must hold on the node at url.
func (target indexTarget) want(t *testing.T, url string) []wantContainer {
	t.Helper()
	blocks, txs, _, err := chainBlocks(url + target.rpc)
	require.NoError(t, err)
	switch target.kind {
	case index.Block:
		return blocks
	case index.Tx:
		return txs
	default:
		return nil // vtx: there are no vertices
	}
}

// gotContainer is a container as an index reply carries it.
type gotContainer struct {
	ID        ids.ID `json:"id"`
	Bytes     string `json:"bytes"`
	Timestamp string `json:"timestamp"`
	Encoding  string `json:"encoding"`
	Index     string `json:"index"`
}

// readIndex reads the whole index at url with getContainerRange, a page of 1024 at a time.
func readIndex(url string) ([]gotContainer, error) {
	var all []gotContainer
	for {
		var page struct {
			Containers []gotContainer `json:"containers"`
		}
		err := callRPC(url, "index.getContainerRange", fmt.Sprintf(`{"startIndex":%d,"numToFetch":1024}`, len(all)), &page)
		switch {
		case err != nil && len(all) == 0 && strings.HasSuffix(err.Error(), "no containers have been accepted"):
			return nil, nil
		case err != nil && strings.Contains(err.Error(), fmt.Sprintf("start index (%d) > last accepted index", len(all))):
			return all, nil
		case err != nil:
			return nil, err
		case len(page.Containers) == 0:
			return nil, fmt.Errorf("getContainerRange from %d: no containers and no error", len(all))
		}
		all = append(all, page.Containers...)
		if len(page.Containers) < 1024 {
			return all, nil
		}
	}
}

// hexWithChecksum is the "hex" encoding: 0x, then the bytes and the last 4 bytes of their SHA-256
// (node-api.md §6).
func hexWithChecksum(b []byte) string {
	sum := sha256.Sum256(b)
	return "0x" + hex.EncodeToString(b) + hex.EncodeToString(sum[28:])
}

// containerJSON is the exact container object of an index reply (node-api.md §5.5: keys in this
// order, the index as a string).
func containerJSON(c wantContainer, i int, ts, enc string) string {
	b := hexWithChecksum(c.bytes)
	if enc == "hexnc" {
		b = "0x" + hex.EncodeToString(c.bytes)
	}
	return fmt.Sprintf(`{"id":"%s","bytes":"%s","timestamp":"%s","encoding":"%s","index":"%d"}`, c.id, b, ts, enc, i)
}

// tsFormat is RFC 3339 in UTC with up to nine fraction digits, trailing zeros dropped
// (node-api.md §5.6, time.RFC3339Nano).
var tsFormat = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{0,8}[1-9])?Z$`)

// checkTimestamp checks an acceptance time's format, and that it lies in [notBefore, now].
func checkTimestamp(t *testing.T, ts string, notBefore time.Time) time.Time {
	t.Helper()
	require.Regexp(t, tsFormat, ts)
	at, err := time.Parse(time.RFC3339Nano, ts)
	require.NoError(t, err)
	require.Equal(t, ts, at.UTC().Format(time.RFC3339Nano), "canonical form")
	require.False(t, at.Before(notBefore), "%s is before the node started (%s)", ts, notBefore)
	require.False(t, at.After(time.Now()), "%s is in the future", ts)
	return at
}

// checkIndex calls every Index method on the index at url, which must hold exactly want, and
// compares every reply byte for byte. Acceptance times are checked for format and order, then
// required to be the same in every reply; they are returned.
func checkIndex(t *testing.T, url string, want []wantContainer, notBefore time.Time) []string {
	t.Helper()
	n := len(want)
	unknown := ids.ID(sha256.Sum256([]byte("never accepted")))

	// getContainerRange gives the timestamps; everything else must agree with it.
	ts := make([]string, n)
	if n > 0 {
		var page struct {
			Containers []gotContainer `json:"containers"`
		}
		require.NoError(t, callRPC(url, "index.getContainerRange", fmt.Sprintf(`{"startIndex":0,"numToFetch":%d}`, n), &page))
		require.Equal(t, n, len(page.Containers))
		var prev time.Time
		for i, c := range page.Containers {
			ts[i] = c.Timestamp
			at := checkTimestamp(t, c.Timestamp, notBefore)
			require.False(t, at.Before(prev), "index %d accepted before index %d", i, i-1)
			prev = at
		}
		var all []string
		for i, c := range want {
			all = append(all, containerJSON(c, i, ts[i], "hex"))
		}
		require.Equal(t, okReply(`{"containers":[`+strings.Join(all, ",")+`]}`),
			call(t, url, "index.getContainerRange", fmt.Sprintf(`{"startIndex":0,"numToFetch":%d,"encoding":"hex"}`, n)))
		require.Equal(t, okReply(`{"containers":[`+containerJSON(want[n-1], n-1, ts[n-1], "hex")+`]}`),
			call(t, url, "index.getContainerRange", fmt.Sprintf(`{"startIndex":"%d","numToFetch":"5"}`, n-1)),
			"a range past the end returns what there is")
		require.Equal(t, errReply(fmt.Sprintf("start index (%d) > last accepted index (%d)", n, n-1)),
			call(t, url, "index.getContainerRange", fmt.Sprintf(`{"startIndex":%d,"numToFetch":1}`, n)))
		require.Equal(t, okReply(containerJSON(want[n-1], n-1, ts[n-1], "hex")), call(t, url, "index.getLastAccepted", `{}`))
		require.Equal(t, okReply(containerJSON(want[n-1], n-1, ts[n-1], "hexnc")), call(t, url, "index.getLastAccepted", `{"encoding":"hexnc"}`))
		require.Equal(t, errReply("unsupported encoding in method"), call(t, url, "index.getLastAccepted", `{"encoding":"json"}`))
	} else {
		require.Equal(t, errReply("no containers have been accepted"), call(t, url, "index.getContainerRange", `{"startIndex":0,"numToFetch":1}`))
		require.Equal(t, errReply("no containers have been accepted"), call(t, url, "index.getLastAccepted", `{}`))
		require.Equal(t, errReply("no containers have been accepted"), call(t, url, "index.getLastAccepted", `{"encoding":"json"}`))
	}
	require.Equal(t, okReply(`{"containers":[]}`), call(t, url, "index.getContainerRange", `{"startIndex":0,"numToFetch":0}`))
	require.Equal(t, errReply("numToFetch must be in [0,1024] but is 1025"),
		call(t, url, "index.getContainerRange", `{"startIndex":0,"numToFetch":1025}`))

	for i, c := range want {
		hexc := okReply(containerJSON(c, i, ts[i], "hex"))
		require.Equal(t, hexc, call(t, url, "index.getContainerByIndex", fmt.Sprintf(`{"index":%d}`, i)))
		require.Equal(t, hexc, call(t, url, "index.getContainerByID", fmt.Sprintf(`{"id":"%s","encoding":null}`, c.id)))
		require.Equal(t, okReply(containerJSON(c, i, ts[i], "hexnc")),
			call(t, url, "index.getContainerByIndex", fmt.Sprintf(`{"index":"%d","encoding":"HexNC"}`, i)))
		require.Equal(t, okReply(containerJSON(c, i, ts[i], "hexc")),
			call(t, url, "index.getContainerByID", fmt.Sprintf(`{"id":"%s","encoding":"hexc"}`, c.id)))
		require.Equal(t, okReply(fmt.Sprintf(`{"index":"%d"}`, i)), call(t, url, "index.getIndex", fmt.Sprintf(`{"id":"%s"}`, c.id)))
		require.Equal(t, okReply(`{"isAccepted":true}`), call(t, url, "index.isAccepted", fmt.Sprintf(`{"id":"%s"}`, c.id)))
	}
	require.Equal(t, errReply(fmt.Sprintf("no container at index %d", n)), call(t, url, "index.getContainerByIndex", fmt.Sprintf(`{"index":%d}`, n)))
	require.Equal(t, errReply("not found"), call(t, url, "index.getContainerByID", fmt.Sprintf(`{"id":"%s"}`, unknown)))
	require.Equal(t, errReply("not found"), call(t, url, "index.getIndex", fmt.Sprintf(`{"id":"%s"}`, unknown)))
	require.Equal(t, okReply(`{"isAccepted":false}`), call(t, url, "index.isAccepted", fmt.Sprintf(`{"id":"%s"}`, unknown)))
	return ts
}

// checkRefClient reads the index at url with the reference node's own client, which must decode
// exactly want, with the acceptance times ts (it keeps unix seconds).
func checkRefClient(t *testing.T, url string, want []wantContainer, ts []string) {
	t.Helper()
	ctx := t.Context()
	c := refindexer.NewClient(url)
	unknown := refids.ID(sha256.Sum256([]byte("never accepted")))
	seconds := func(i int) int64 {
		at, err := time.Parse(time.RFC3339Nano, ts[i])
		require.NoError(t, err)
		return at.Unix()
	}
	wantRef := func(i int) refindexer.Container {
		return refindexer.Container{ID: refids.ID(want[i].id), Bytes: want[i].bytes, Timestamp: seconds(i)}
	}

	got, err := c.GetContainerRange(ctx, 0, 0)
	require.NoError(t, err)
	require.Empty(t, got)
	ok, err := c.IsAccepted(ctx, unknown)
	require.NoError(t, err)
	require.False(t, ok)
	_, err = c.GetIndex(ctx, unknown)
	require.ErrorContains(t, err, "not found")
	_, _, err = c.GetContainerByID(ctx, unknown)
	require.ErrorContains(t, err, "not found")
	_, err = c.GetContainerByIndex(ctx, uint64(len(want)))
	require.ErrorContains(t, err, fmt.Sprintf("no container at index %d", len(want)))
	if len(want) == 0 {
		_, _, err := c.GetLastAccepted(ctx)
		require.ErrorContains(t, err, "no containers have been accepted")
		_, err = c.GetContainerRange(ctx, 0, 1)
		require.ErrorContains(t, err, "no containers have been accepted")
		return
	}

	got, err = c.GetContainerRange(ctx, 0, len(want))
	require.NoError(t, err)
	require.Len(t, got, len(want))
	for i := range want {
		require.Equal(t, wantRef(i), got[i], "range, index %d", i)
	}
	got, err = c.GetContainerRange(ctx, uint64(len(want)-1), 10)
	require.NoError(t, err)
	require.Equal(t, []refindexer.Container{wantRef(len(want) - 1)}, got)
	_, err = c.GetContainerRange(ctx, uint64(len(want)), 1)
	require.ErrorContains(t, err, "start index")

	last, lastIndex, err := c.GetLastAccepted(ctx)
	require.NoError(t, err)
	require.Equal(t, wantRef(len(want)-1), last)
	require.Equal(t, uint64(len(want)-1), lastIndex)
	for i, w := range want {
		byIndex, err := c.GetContainerByIndex(ctx, uint64(i))
		require.NoError(t, err)
		require.Equal(t, wantRef(i), byIndex)
		byID, at, err := c.GetContainerByID(ctx, refids.ID(w.id))
		require.NoError(t, err)
		require.Equal(t, wantRef(i), byID)
		require.Equal(t, uint64(i), at)
		at, err = c.GetIndex(ctx, refids.ID(w.id))
		require.NoError(t, err)
		require.Equal(t, uint64(i), at)
		ok, err := c.IsAccepted(ctx, refids.ID(w.id))
		require.NoError(t, err)
		require.True(t, ok)
	}
}

// checkAllIndexes checks every index of the node at url against its chains' VMs, with raw calls
// and with the reference client; it returns each index's acceptance times by path.
func checkAllIndexes(t *testing.T, phase, url string, tn testNet, notBefore time.Time) map[string][]string {
	t.Helper()
	out := make(map[string][]string)
	for _, target := range tn.targets() {
		t.Run(phase+" "+strings.TrimPrefix(target.path, "/ext/index/"), func(t *testing.T) {
			want := target.want(t, url)
			if target.kind != index.Vtx {
				require.NotEmpty(t, want)
			}
			ts := checkIndex(t, url+target.path, want, notBefore)
			checkRefClient(t, url+target.path, want, ts)
			out[target.path] = ts
		})
	}
	return out
}

// keys returns n keys named prefix-0, prefix-1, …
func keys(prefix string, from, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = prefix + "-" + strconv.Itoa(from+i)
	}
	return out
}

func TestIndexEndToEnd(t *testing.T) {
	t.Parallel()
	tn := newTestNet()
	cfg := nodeConfig(t.TempDir())
	begin := time.Now()
	n := start(t, cfg, tn.chains(true)...)
	l1 := "/ext/bc/" + tn.l1ID.String() + "/rpc"

	// X gets rounds of 1 to 5 transactions, each through another of its routes; the other chains
	// a few blocks each.
	var xTxs []ids.ID
	for i, route := range []string{"/ext/bc/X/rpc", "/ext/X/rpc", "/ext/bc/avm/rpc", "/ext/avm/rpc", "/ext/bc/" + testXID.String() + "/rpc"} {
		xTxs = append(xTxs, putAll(t, n.url+route, keys(fmt.Sprintf("x%d", i), 0, i+1)...)...)
	}
	for i := range 3 {
		putAll(t, n.url+"/ext/P/rpc", keys(fmt.Sprintf("p%d", i), 0, 2)...)
		putAll(t, n.url+"/ext/bc/C/rpc", keys(fmt.Sprintf("c%d", i), 0, 1)...)
		putAll(t, n.url+l1, keys(fmt.Sprintf("l%d", i), 0, 3)...)
	}

	// The tx index holds every transaction in acceptance order, the block index every block.
	blocks, txs, last, err := chainBlocks(n.url + "/ext/bc/X/rpc")
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(blocks), 5)
	var txIDs []ids.ID
	for _, tx := range txs {
		txIDs = append(txIDs, tx.id)
	}
	require.Equal(t, xTxs, txIDs)
	require.Equal(t, blocks[len(blocks)-1].id, last)
	ts := checkAllIndexes(t, "before restart", n.url, tn, begin)
	// The transactions of a block carry the block's acceptance time.
	txAt := 0
	for i, b := range blocks {
		blk, err := (*chainstest.VM)(nil).Decode(b.bytes)
		require.NoError(t, err)
		for range blk.Transactions() {
			require.Equal(t, ts["/ext/index/X/block"][i], ts["/ext/index/X/tx"][txAt])
			txAt++
		}
	}

	// Only the paths of node-api.md §2.3 exist: no chain-ID path for a Primary Network chain, no
	// VM alias, no tx index outside X.
	for _, path := range []string{
		"/ext/index/avm/block", "/ext/index/" + testXID.String() + "/block", "/ext/index/P/tx",
		"/ext/index/C/vtx", "/ext/index/" + tn.l1ID.String() + "/tx", "/ext/index/platform/block",
	} {
		resp, _ := post(t, n.url+path, `{"jsonrpc":"2.0","id":1,"method":"index.getLastAccepted"}`)
		require.Equal(t, http.StatusNotFound, resp.StatusCode, path)
	}

	// A restart on the same data dir loses nothing and repeats nothing: every reply is the same.
	before := make(map[string][]gotContainer)
	for _, target := range tn.targets() {
		before[target.path], err = readIndex(n.url + target.path)
		require.NoError(t, err)
	}
	require.NoError(t, n.stop())
	n = start(t, cfg, tn.chains(true)...)
	for _, target := range tn.targets() {
		got, err := readIndex(n.url + target.path)
		require.NoError(t, err)
		require.Equal(t, before[target.path], got, target.path)
	}

	// New blocks continue the dense indexes.
	afterRestart := time.Now()
	xTxs = append(xTxs, putAll(t, n.url+"/ext/X/rpc", keys("x-after", 0, 3)...)...)
	putAll(t, n.url+"/ext/C/rpc", "c-after")
	putAll(t, n.url+l1, "l-after")
	_, txs, _, err = chainBlocks(n.url + "/ext/bc/X/rpc")
	require.NoError(t, err)
	txIDs = txIDs[:0]
	for _, tx := range txs {
		txIDs = append(txIDs, tx.id)
	}
	require.Equal(t, xTxs, txIDs)
	ts2 := checkAllIndexes(t, "after restart", n.url, tn, begin)
	for _, target := range tn.targets() {
		old := ts[target.path]
		require.GreaterOrEqual(t, len(ts2[target.path]), len(old), target.path)
		require.Equal(t, old, ts2[target.path][:len(old)], "%s: acceptance times are kept", target.path)
		for _, at := range ts2[target.path][len(old):] {
			require.False(t, checkTimestamp(t, at, begin).Before(afterRestart), target.path)
		}
	}
	require.Len(t, ts2["/ext/index/P/block"], len(ts["/ext/index/P/block"]), "P got nothing new")
	require.Greater(t, len(ts2["/ext/index/C/block"]), len(ts["/ext/index/C/block"]))
}

// dumpDB returns every key and value of the database of a stopped node at dataDir.
func dumpDB(t *testing.T, dataDir string) map[string]string {
	t.Helper()
	db, err := storage.Open(filepath.Join(dataDir, "db"), slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	defer func() { require.NoError(t, db.Close()) }()
	it, err := db.NewIterator(nil, nil)
	require.NoError(t, err)
	out := make(map[string]string)
	for it.Next() {
		out[string(it.Key())] = string(it.Value())
	}
	require.NoError(t, it.Err())
	require.NoError(t, it.Close())
	return out
}

// TestIndexRestartRules runs the rules of node-api.md §5.7 over restarts through node.New: a
// refused start fails with the reference's text and writes nothing; a start that goes ahead marks
// the chains, and with indexing on, indexes the blocks accepted from then on.
func TestIndexRestartRules(t *testing.T) {
	t.Parallel()
	type run struct {
		enabled, allow bool
		wantErr        error
	}
	var (
		on         = run{enabled: true}
		onAllow    = run{enabled: true, allow: true}
		off        = run{}
		offAllow   = run{allow: true}
		wouldBreak = run{wantErr: index.ErrWouldBecomeIncomplete}
		incomplete = run{enabled: true, wantErr: index.ErrIncomplete}
	)
	tests := []struct {
		name string
		runs []run
	}{
		{"fresh database, indexing on", []run{on, on, on}},
		{"fresh database, indexing on, incomplete allowed", []run{onAllow, on}},
		{"indexing turned off", []run{on, wouldBreak, offAllow, incomplete, onAllow, incomplete}},
		{"indexing turned on", []run{off, incomplete, onAllow, incomplete, wouldBreak, onAllow}},
		{"never indexed", []run{off, off, offAllow, off}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tn := newTestNet()
			dir := t.TempDir()
			var indexed []ids.ID // the blocks the X index must hold, in order
			for i, r := range tt.runs {
				cfg := nodeConfig(dir)
				cfg.IndexEnabled, cfg.IndexAllowIncomplete = r.enabled, r.allow
				if r.wantErr != nil {
					before := dumpDB(t, dir)
					_, err := node.New(cfg, slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelWarn})), nil, tn.chains(i%2 == 1)...)
					require.ErrorIs(t, err, r.wantErr, "run %d", i)
					require.ErrorContains(t, err, r.wantErr.Error())
					require.Equal(t, before, dumpDB(t, dir), "run %d: a refused start writes nothing", i)
					continue
				}
				// The L1 comes and goes: a chain new to an indexed database is not incomplete.
				n := start(t, cfg, tn.chains(i%2 == 1)...)
				putAll(t, n.url+"/ext/X/rpc", fmt.Sprintf("run-%d", i))
				resp, _ := post(t, n.url+"/ext/index/X/block", `{"jsonrpc":"2.0","id":1,"method":"index.getLastAccepted"}`)
				if !r.enabled {
					require.Equal(t, http.StatusNotFound, resp.StatusCode, "run %d: no index routes with indexing off", i)
					require.NoError(t, n.stop())
					continue
				}
				var last chainstest.LastAcceptedReply
				require.NoError(t, callRPC(n.url+"/ext/X/rpc", "kv.lastAccepted", "{}", &last))
				indexed = append(indexed, last.ID)
				got, err := readIndex(n.url + "/ext/index/X/block")
				require.NoError(t, err)
				var gotIDs []ids.ID
				for _, c := range got {
					gotIDs = append(gotIDs, c.ID)
				}
				require.Equal(t, indexed, gotIDs, "run %d: the blocks accepted with indexing on, only", i)
				require.NoError(t, n.stop())
			}
		})
	}
}

// An L1 chain with an alias has one block index, served at /ext/index/<alias>/block and at
// /ext/index/<blockchainID>/block (reference/README.md, "Precedence" 3).
func TestIndexL1Alias(t *testing.T) {
	t.Parallel()
	tn := newTestNet()
	var id, subnet ids.ID
	_, _ = rand.Read(id[:])
	_, _ = rand.Read(subnet[:])
	dex := node.Chain{Spec: chains.Spec{
		Chain:   chains.Chain{ID: id, SubnetID: subnet, VMID: ids.FromName("subnetevm"), Name: "dex"},
		Aliases: []string{"dex"},
		Prefix:  storage.PrefixEVM,
		Factory: chainstest.Factory{},
		Genesis: []byte("dex genesis"),
	}}
	begin := time.Now()
	n := start(t, nodeConfig(t.TempDir()), append(tn.chains(false), dex)...)
	putAll(t, n.url+"/ext/bc/dex/rpc", keys("d", 0, 2)...)
	putAll(t, n.url+"/ext/bc/"+id.String()+"/rpc", keys("d", 2, 3)...)
	blocks, _, _, err := chainBlocks(n.url + "/ext/bc/dex/rpc")
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(blocks), 2, "one block per putAll at least")

	byAlias := checkIndex(t, n.url+"/ext/index/dex/block", blocks, begin)
	checkRefClient(t, n.url+"/ext/index/dex/block", blocks, byAlias)
	byID := checkIndex(t, n.url+"/ext/index/"+id.String()+"/block", blocks, begin)
	checkRefClient(t, n.url+"/ext/index/"+id.String()+"/block", blocks, byID)
	require.Equal(t, byAlias, byID)
	for _, path := range []string{"/ext/index/dex/tx", "/ext/index/dex/vtx", "/ext/index/" + id.String() + "/tx"} {
		resp, _ := post(t, n.url+path, `{"jsonrpc":"2.0","id":1,"method":"index.getLastAccepted"}`)
		require.Equal(t, http.StatusNotFound, resp.StatusCode, path)
	}
}
