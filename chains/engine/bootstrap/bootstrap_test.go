package bootstrap_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

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

func buildChain(t testing.TB, n, valueSize int) string {
	return chainstest.BuildChain(t, chainID, n, valueSize)
}

// node is one node of a test: a database holding the chain, whose engine is idle, so that the
// test drives the chain through its VM and accept path.
type node struct {
	id      ids.NodeID
	env     *chainstest.Env
	engines *chainstest.Idle
	indexed *chainstest.Recorder[ids.ID]
}

// openNode opens a copy of the database in from (a new chain when from is ""); setup, if not
// nil, adjusts the chain's VM.
func openNode(t testing.TB, id ids.NodeID, from string, setup func(*chainstest.VM)) *node {
	dir := filepath.Join(t.TempDir(), "node")
	if from != "" {
		require.NoError(t, os.CopyFS(dir, os.DirFS(from)))
	}
	n := &node{id: id, engines: &chainstest.Idle{}, indexed: &chainstest.Recorder[ids.ID]{}}
	n.env = chainstest.NewEnv(t, dir, recordingIndexer{n.indexed}, n.engines)
	n.env.Setup = setup
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
	return newTestNetWith(t, seed, nil, dirs...)
}

// newTestNetWith is newTestNet with the bootstrapping node's VM adjusted by setup.
func newTestNetWith(t testing.TB, seed uint64, setup func(*chainstest.VM), dirs ...string) *testNet {
	tn := &testNet{t: t, net: enginetest.New(t, seed), log: &bytes.Buffer{}}
	weights := map[ids.NodeID]uint64{}
	for i, dir := range dirs {
		b := openNode(t, ids.NodeID{byte(i + 1)}, dir, nil)
		tn.beacons = append(tn.beacons, b)
		tn.net.Set(b.id, b.getter(tn.net))
		weights[b.id] = 1
	}
	tn.node = openNode(t, ids.NodeID{0xee}, "", setup)
	c := tn.node.ctx()
	tn.b = bootstrap.New(bootstrap.Config{Self: tn.node.id, Beacons: weights}, bootstrap.Deps{
		VM: c.VM, Acceptor: c.Acceptor, Sender: tn.net.Sender(tn.node.id), Clock: clock.Real{},
		Log: slog.New(slog.NewTextHandler(tn.log, &slog.HandlerOptions{Level: slog.LevelDebug})),
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
	for _, n := range []int{10, 2000} {
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

	lone := openNode(t, ids.NodeID{9}, "", nil)
	b := bootstrap.New(bootstrap.Config{Self: lone.id}, bootstrap.Deps{VM: lone.ctx().VM, Acceptor: lone.ctx().Acceptor,
		Sender: tn.net.Sender(lone.id), Clock: clock.Real{}, Log: slog.New(slog.DiscardHandler)})
	require.False(t, b.Done())
	require.NoError(t, b.Start(t.Context()))
	require.True(t, b.Done(), "no beacons: bootstrapped at once")
	require.Zero(t, tn.net.Len(), "nothing asked")
}

// A beacon that is down: with one of four never connected, bootstrapping starts with the other
// three (at least 3/4 of the weight); with one connected but not answering, its requests fail
// and the three others are a majority. With two of four down it does not start until one
// connects.
func TestBeaconOffline(t *testing.T) {
	t.Parallel()
	dir := buildChain(t, 30, 8)
	for _, connect := range []bool{false, true} {
		tn := newTestNet(t, 3, dir, dir, dir, dir)
		tn.net.Down[tn.beacons[1].id] = true
		if connect {
			require.NoError(t, tn.b.Connected(t.Context(), tn.beacons[1].id))
		}
		tn.start()
		require.True(t, tn.net.Run(t.Context(), 100_000))
		tn.requireCaughtUp(tn.beacons[0])
	}

	tn := newTestNet(t, 4, dir, dir, dir, dir)
	tn.net.Down[tn.beacons[1].id], tn.net.Down[tn.beacons[2].id] = true, true
	tn.start()
	require.Zero(t, tn.net.Len(), "half the weight connected: not started")
	tn.net.Down[tn.beacons[2].id] = false
	require.NoError(t, tn.b.Connected(t.Context(), tn.beacons[2].id))
	require.True(t, tn.net.Run(t.Context(), 100_000))
	tn.requireCaughtUp(tn.beacons[0])
}

// A lying beacon names a block nobody accepted as its frontier, claims to have accepted it, and
// answers GetAncestors with junk, with blocks that do not chain, or with blocks of another
// chain: the node still catches up, with the honest majority's blocks only.
func TestLyingBeacon(t *testing.T) {
	t.Parallel()
	dir := buildChain(t, 300, 8)
	other := openNode(t, ids.NodeID{0xf0}, buildChain(t, 5, 8), nil)
	fake := ids.ID{0xfa}
	for seed := uint64(1); seed <= 2; seed++ {
		tn := newTestNet(t, seed, dir, dir, dir, dir)
		liar := tn.beacons[3].id
		lies := 0
		tn.net.Tamper = func(from, _ ids.NodeID, op string, payload any) any {
			if from != liar {
				return payload
			}
			lies++
			switch op {
			case "accepted_frontier":
				return fake
			case "accepted":
				return append(payload.([]ids.ID), fake)
			}
			blocks := payload.([][]byte)
			switch lies % 4 {
			case 0:
				return [][]byte{[]byte("junk")}
			case 1:
				if len(blocks) > 2 {
					return append([][]byte{blocks[0]}, blocks[2:]...) // a gap after the first block
				}
				return [][]byte{}
			case 2:
				return [][]byte{other.ctx().VM.(*chainstest.VM).LastAcceptedBlock().Bytes()}
			default:
				return nil // no answer: the request times out
			}
		}
		tn.start()
		require.True(t, tn.net.Run(t.Context(), 100_000))
		tn.requireCaughtUp(tn.beacons[0])
		require.Positive(t, lies)
	}
}

// Beacons that disagree, half on one chain and half on another: no frontier block holds a
// majority, so nothing is fetched or accepted; the bootstrapper stalls, and asks again when
// retried.
func TestFrontierWithoutMajority(t *testing.T) {
	t.Parallel()
	a, b := buildChain(t, 5, 8), buildChain(t, 5, 9)
	tn := newTestNet(t, 5, a, a, b, b)
	tn.start()
	for range 3 {
		require.True(t, tn.net.Run(t.Context(), 5_000))
		require.True(t, tn.b.Stalled())
		require.False(t, tn.b.Done())
		require.NoError(t, tn.b.Retry(t.Context()))
		require.False(t, tn.b.Stalled())
		require.Equal(t, 4, tn.net.Len(), "GetAcceptedFrontier to the four beacons")
	}
	require.Zero(t, tn.b.Progress().Fetched)
	require.Len(t, tn.node.accepted(t), 1, "genesis only")
}

// With every beacon gone while blocks are to be fetched, the fetches wait for one to connect.
func TestFetchWaitsForABeacon(t *testing.T) {
	t.Parallel()
	dir := buildChain(t, 30, 8)
	tn := newTestNet(t, 8, dir, dir)
	tn.start()
	for _, b := range tn.beacons {
		require.NoError(t, tn.b.Disconnected(t.Context(), b.id))
	}
	require.True(t, tn.net.Run(t.Context(), 1000), "the polls are answered, then nothing is sent")
	require.False(t, tn.b.Done())
	require.Zero(t, tn.b.Progress().Fetched)
	require.NoError(t, tn.b.Connected(t.Context(), tn.beacons[1].id))
	require.True(t, tn.net.Run(t.Context(), 1000))
	tn.requireCaughtUp(tn.beacons[0])
}

// Every Ancestors answer is within the caps (2,000 blocks, 4/5 of 2 MiB); an answer beyond
// 2,000 blocks is read up to 2,000.
func TestSizeCaps(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name        string
		blocks      int
		size        int
		answerLarge bool
	}{
		{"large blocks", 50, 100_000, false},
		{"an answer beyond the cap", 2050, 8, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := buildChain(t, tt.blocks, tt.size)
			tn := newTestNet(t, 6, dir)
			source := tn.beacons[0]
			answers := 0
			tn.net.Tamper = func(_, _ ids.NodeID, op string, payload any) any {
				if op != "ancestors" {
					return payload
				}
				blocks := payload.([][]byte)
				answers++
				require.LessOrEqual(t, len(blocks), getter.MaxAncestorsContainers)
				size := 0
				for _, b := range blocks {
					size += len(b) + getter.AncestorsOverhead
				}
				require.LessOrEqual(t, size, getter.MaxAncestorsBytes)
				if !tt.answerLarge || len(blocks) < getter.MaxAncestorsContainers {
					return payload
				}
				// Serve more than the cap: the whole chain below the block asked for.
				vm := source.ctx().VM
				blk, err := vm.ParseBlock(t.Context(), blocks[0])
				require.NoError(t, err)
				all := [][]byte{}
				for h := blk.Height(); ; h-- {
					id, err := vm.GetBlockIDAtHeight(t.Context(), h)
					require.NoError(t, err)
					b, err := vm.GetBlock(t.Context(), id)
					require.NoError(t, err)
					all = append(all, b.Bytes())
					if h == 0 {
						break
					}
				}
				return all
			}
			tn.start()
			require.True(t, tn.net.Run(t.Context(), 100_000))
			tn.requireCaughtUp(source)
			require.Greater(t, answers, 1, "several answers")
			require.Equal(t, tt.blocks, tn.b.Progress().Fetched, "each block fetched once")
			require.Equal(t, tt.answerLarge, strings.Contains(tn.log.String(), "beyond the cap"))
		})
	}
}

// A block that does not verify is never accepted: the node accepts the blocks below it, drops
// the rest and stalls; retried, it fetches them again and stops at the same block.
func TestUnverifiedBlock(t *testing.T) {
	t.Parallel()
	dir := buildChain(t, 10, 8)
	errBad := errors.New("bad block")
	tn := newTestNetWith(t, 7, func(vm *chainstest.VM) {
		vm.VerifyF = func(_ context.Context, b *chainstest.Block) error {
			if b.Height() == 5 {
				return errBad
			}
			return nil
		}
	}, dir, dir, dir)
	tn.start()
	for range 2 {
		require.True(t, tn.net.Run(t.Context(), 5_000))
		require.True(t, tn.b.Stalled())
		require.False(t, tn.b.Done())
		require.Equal(t, tn.beacons[0].accepted(t)[:5], tn.node.accepted(t))
		require.NoError(t, tn.b.Retry(t.Context()))
	}
	require.Contains(t, tn.log.String(), "fails verification")
}

// syncRecorder is the chain's accept path, recording how each block was accepted and when the
// accepted blocks were synced.
type syncRecorder struct {
	*chains.Acceptor
	ops []string
}

func (r *syncRecorder) Accept(ctx context.Context, blk chains.Block) error {
	r.ops = append(r.ops, "accept")
	return r.Acceptor.Accept(ctx, blk)
}

func (r *syncRecorder) AcceptUnsynced(ctx context.Context, blk chains.Block) error {
	r.ops = append(r.ops, "unsynced")
	return r.Acceptor.AcceptUnsynced(ctx, blk)
}

func (r *syncRecorder) Sync() error {
	r.ops = append(r.ops, "sync")
	return r.Acceptor.Sync()
}

// The bootstrapper accepts the blocks it executes without waiting for each to reach the disk,
// and syncs them all before it is done; a node that lost the unsynced ones in a crash is behind
// again, and catches up from the last block it kept (TestNothingToFetch; storage's
// TestCommitUnsyncedCrash shows a crash keeps whole blocks, in order).
func TestExecutedBlocksSyncedOnce(t *testing.T) {
	t.Parallel()
	dir := buildChain(t, 50, 8)
	tn := newTestNet(t, 3, dir, dir)
	rec := &syncRecorder{Acceptor: tn.node.ctx().Acceptor}
	tn.b = bootstrap.New(bootstrap.Config{Self: tn.node.id, Beacons: map[ids.NodeID]uint64{tn.beacons[0].id: 1, tn.beacons[1].id: 1}},
		bootstrap.Deps{VM: tn.node.ctx().VM, Acceptor: rec, Sender: tn.net.Sender(tn.node.id),
			Clock: clock.Real{}, Log: slog.New(slog.DiscardHandler)})
	tn.net.Set(tn.node.id, tn.b)
	tn.start()
	require.True(t, tn.net.Run(t.Context(), 100_000))
	tn.requireCaughtUp(tn.beacons[0])
	want := append(slices.Repeat([]string{"unsynced"}, 50), "sync")
	require.Equal(t, want, rec.ops)
}
