package bootstrap_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/chains/chainstest"
	"github.com/cornice-node/cornice/chains/engine/bootstrap"
	"github.com/cornice-node/cornice/chains/engine/enginetest"
	"github.com/cornice-node/cornice/chains/engine/getter"
	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
)

var chainID = ids.ID{'c'}

// buildChain accepts n blocks of one transaction each, whose value is valueSize bytes, on a new
// chain in a new database, with the solo engine, and returns the database's directory, closed.
func buildChain(t testing.TB, n, valueSize int) string {
	dir := filepath.Join(t.TempDir(), "source")
	env := chainstest.NewEnv(t, dir, nil, nil)
	vm := env.Create(chainID, nil)
	blocks := make([][]*chainstest.Tx, n)
	value := strings.Repeat("v", valueSize)
	for i := range blocks {
		blocks[i] = []*chainstest.Tx{chainstest.NewTx(fmt.Sprintf("key %d", i), value)}
	}
	require.NoError(t, vm.SubmitBlocks(blocks...))
	require.Eventually(t, func() bool {
		_, h, _ := env.Manager.LastAccepted(chainID)
		return h == uint64(n)
	}, 5*time.Minute, time.Millisecond)
	env.Close()
	return dir
}

// node is one node of a test: a database holding the chain, whose engine is idle, so that the
// test drives the chain through its VM and accept path.
type node struct {
	id      ids.NodeID
	env     *chainstest.Env
	engines *chainstest.Idle
	indexed *chainstest.Recorder[ids.ID]
}

// openNode opens a copy of the database in from (a new chain when from is "").
func openNode(t testing.TB, id ids.NodeID, from string) *node {
	dir := filepath.Join(t.TempDir(), "node")
	if from != "" {
		require.NoError(t, os.CopyFS(dir, os.DirFS(from)))
	}
	n := &node{id: id, engines: &chainstest.Idle{}, indexed: &chainstest.Recorder[ids.ID]{}}
	n.env = chainstest.NewEnv(t, dir, recordingIndexer{n.indexed}, n.engines)
	n.env.Create(chainID, nil)
	t.Cleanup(n.env.Close)
	return n
}

func (n *node) ctx() chains.EngineContext { return n.engines.Context(chainID) }

// getter serves the node's chain to the others.
func (n *node) getter(net *enginetest.Net) *getter.Getter {
	return getter.New(n.ctx().VM, n.ctx().Acceptor, net.Sender(n.id))
}

// accepted lists the IDs of the node's accepted blocks, by height.
func (n *node) accepted(t testing.TB) []ids.ID {
	_, h := n.ctx().Acceptor.LastAccepted()
	out := make([]ids.ID, h+1)
	for i := range out {
		id, err := n.ctx().VM.GetBlockIDAtHeight(context.Background(), uint64(i))
		require.NoError(t, err)
		out[i] = id
	}
	return out
}

// recordingIndexer records the blocks the accept path indexes, in order.
type recordingIndexer struct{ r *chainstest.Recorder[ids.ID] }

func (x recordingIndexer) Accept(_ context.Context, _ *storage.Batch, _ ids.ID, block chains.Container, _ []chains.Container) error {
	x.r.Add(block.ID)
	return nil
}

// testNet is a fake network of beacons serving a chain and one node bootstrapping it.
type testNet struct {
	t       testing.TB
	net     *enginetest.Net
	beacons []*node
	node    *node
	b       *bootstrap.Bootstrapper
	log     *bytes.Buffer
}

// newTestNet starts beacons, each with a copy of the chain in the database dirs[i], and a new
// node whose bootstrapper has every beacon, of weight 1, as its beacon.
func newTestNet(t testing.TB, seed uint64, dirs ...string) *testNet {
	tn := &testNet{t: t, net: enginetest.New(t, seed), log: &bytes.Buffer{}}
	weights := map[ids.NodeID]uint64{}
	for i, dir := range dirs {
		b := openNode(t, ids.NodeID{byte(i + 1)}, dir)
		tn.beacons = append(tn.beacons, b)
		tn.net.Set(b.id, b.getter(tn.net))
		weights[b.id] = 1
	}
	tn.node = openNode(t, ids.NodeID{0xee}, "")
	c := tn.node.ctx()
	tn.b = bootstrap.New(bootstrap.Config{Self: tn.node.id, Beacons: weights}, bootstrap.Deps{
		VM: c.VM, Acceptor: c.Acceptor, Sender: tn.net.Sender(tn.node.id), Clock: clock.Real{},
		Log: slog.New(slog.NewTextHandler(tn.log, nil)),
	})
	tn.net.Set(tn.node.id, tn.b)
	return tn
}

// start connects every beacon that is not down and starts the bootstrapper.
func (tn *testNet) start() {
	ctx := tn.t.Context()
	for _, b := range tn.beacons {
		if !tn.net.Down[b.id] {
			require.NoError(tn.t, tn.b.Connected(ctx, b.id))
		}
	}
	require.NoError(tn.t, tn.b.Start(ctx))
}

// requireCaughtUp checks that the node is done and has accepted exactly the beacons' chain, and
// that its accept path indexed each block once, in height order.
func (tn *testNet) requireCaughtUp(source *node) {
	require.True(tn.t, tn.b.Done(), "bootstrapped")
	want := source.accepted(tn.t)
	require.Equal(tn.t, want, tn.node.accepted(tn.t))
	require.Equal(tn.t, want[1:], tn.node.indexed.Get(), "indexed in height order")
	require.Equal(tn.t, len(want)-1, tn.b.Progress().Executed)
}

func TestCatchUp(t *testing.T) {
	t.Parallel()
	for _, n := range []int{10, 5000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			t.Parallel()
			dir := buildChain(t, n, 8)
			tn := newTestNet(t, 1, dir, dir, dir)
			tn.start()
			require.True(t, tn.net.Run(t.Context(), 1_000_000))
			tn.requireCaughtUp(tn.beacons[0])
			require.Contains(t, tn.log.String(), "bootstrapping finished")
		})
	}
}

// A node that is already caught up, or that has no beacons, is done at once; a node whose
// chain is behind catches up from where it is.
func TestNothingToFetch(t *testing.T) {
	t.Parallel()
	dir := buildChain(t, 3, 8)
	tn := newTestNet(t, 2, dir)
	tn.start()
	require.True(t, tn.net.Run(t.Context(), 1000))
	tn.requireCaughtUp(tn.beacons[0])

	// The same node, bootstrapping again: one round, nothing new.
	again := bootstrap.New(bootstrap.Config{Self: tn.node.id, Beacons: map[ids.NodeID]uint64{tn.beacons[0].id: 1}},
		bootstrap.Deps{VM: tn.node.ctx().VM, Acceptor: tn.node.ctx().Acceptor, Sender: tn.net.Sender(tn.node.id),
			Clock: clock.Real{}, Log: slog.New(slog.DiscardHandler)})
	tn.net.Set(tn.node.id, again)
	require.NoError(t, again.Connected(t.Context(), tn.beacons[0].id))
	require.NoError(t, again.Start(t.Context()))
	require.True(t, tn.net.Run(t.Context(), 1000))
	require.True(t, again.Done())
	require.Zero(t, again.Progress().Fetched)

	lone := openNode(t, ids.NodeID{9}, "")
	b := bootstrap.New(bootstrap.Config{Self: lone.id}, bootstrap.Deps{VM: lone.ctx().VM, Acceptor: lone.ctx().Acceptor,
		Sender: tn.net.Sender(lone.id), Clock: clock.Real{}, Log: slog.New(slog.DiscardHandler)})
	require.False(t, b.Done())
	require.NoError(t, b.Start(t.Context()))
	require.True(t, b.Done(), "no beacons: bootstrapped at once")
	require.Zero(t, tn.net.Len(), "nothing asked")
}
