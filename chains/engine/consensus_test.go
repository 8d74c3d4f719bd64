package engine_test

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/chains/chainstest"
	"github.com/cornice-node/cornice/chains/engine"
	"github.com/cornice-node/cornice/chains/engine/bootstrap"
	"github.com/cornice-node/cornice/chains/engine/snowman"
	consensus "github.com/cornice-node/cornice/consensus/snowman"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/network/wire"
	"github.com/cornice-node/cornice/router"
	"github.com/cornice-node/cornice/storage"
)

var chainID = ids.ID{'c'}

// weights is a fixed validator set.
type weights map[ids.NodeID]uint64

func (w weights) Weights(ids.ID) (map[ids.NodeID]uint64, error) { return w, nil }

// routerNet connects the nodes' routers in process: a message is encoded, parsed again and
// handed to the receiver's router on a goroutine of its own.
type routerNet struct {
	t       *testing.T
	wg      sync.WaitGroup
	mu      sync.Mutex
	routers map[ids.NodeID]*router.Router
	// sent counts the messages sent to another node, by op.
	sent map[wire.Op]int
}

func newRouterNet(t *testing.T) *routerNet {
	n := &routerNet{t: t, routers: make(map[ids.NodeID]*router.Router), sent: make(map[wire.Op]int)}
	t.Cleanup(n.wg.Wait)
	return n
}

// from is one node's router.Network.
type from struct {
	n  *routerNet
	id ids.NodeID
}

func (f from) Send(to ids.NodeID, m *wire.Message) bool {
	f.n.mu.Lock()
	r, ok := f.n.routers[to]
	f.n.sent[m.Op]++
	f.n.mu.Unlock()
	if !ok {
		return false
	}
	parsed, err := wire.Parse(m.Marshal())
	require.NoError(f.n.t, err)
	f.n.wg.Go(func() { r.HandleInbound(f.id, parsed) })
	return true
}

// routed is the router.Chain of a Consensus made after its registration (which gives the
// Consensus its Sender).
type routed struct{ c *engine.Consensus }

func (r routed) TryDeliver(m router.Message) bool { return r.c.TryDeliver(m) }

func (r routed) Deliver(ctx context.Context, m router.Message) error { return r.c.Deliver(ctx, m) }

// consensusNode is a node whose chain runs engine.Consensus behind a router, with its blocks
// indexed.
type consensusNode struct {
	id      ids.NodeID
	env     *chainstest.Env
	c       *engine.Consensus
	indexed *recordingIndexer
}

// recordingIndexer records the blocks the accept path indexes, in order.
type recordingIndexer struct {
	mu     sync.Mutex
	blocks []ids.ID
}

func (x *recordingIndexer) Accept(_ context.Context, _ *storage.Batch, _ ids.ID, block chains.Container, _ []chains.Container) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.blocks = append(x.blocks, block.ID)
	return nil
}

func (x *recordingIndexer) get() []ids.ID {
	x.mu.Lock()
	defer x.mu.Unlock()
	return slices.Clone(x.blocks)
}

func newConsensusNode(t *testing.T, net *routerNet, id ids.NodeID, from string, vals weights, after <-chan struct{}) *consensusNode {
	dir := filepath.Join(t.TempDir(), "node")
	if from != "" {
		require.NoError(t, os.CopyFS(dir, os.DirFS(from)))
	}
	n := &consensusNode{id: id, indexed: &recordingIndexer{}}
	r, err := router.New(router.Config{NodeID: id}, router.Deps{Network: fromNode(net, id)})
	require.NoError(t, err)
	t.Cleanup(r.Close)
	rc := &routed{}
	snd, err := r.Register(chainID, rc)
	require.NoError(t, err)
	factory := chains.EngineFactoryFunc(func(_ context.Context, c chains.EngineContext) (chains.Engine, error) {
		e := engine.NewConsensus(c, engine.ConsensusConfig{
			Self:    id,
			Snowman: snowman.Config{Params: consensus.DefaultParameters()},
			After:   after,
		}, engine.ConsensusDeps{
			Sender:     snd,
			Beacons:    func() (map[ids.NodeID]uint64, error) { return vals, nil },
			Validators: vals,
			Rand:       rand.New(rand.NewPCG(uint64(id[0]), 1)),
		})
		n.c, rc.c = e, e
		return e, nil
	})
	n.env = chainstest.NewEnv(t, dir, n.indexed, factory)
	n.env.Create(chainID, func(s *chains.Spec) { s.Indexed = true })
	t.Cleanup(n.env.Close)
	net.mu.Lock()
	net.routers[id] = r
	net.mu.Unlock()
	return n
}

func fromNode(n *routerNet, id ids.NodeID) from { return from{n: n, id: id} }

func (n *consensusNode) accepted(t *testing.T) []ids.ID {
	_, h, ok := n.env.Manager.LastAccepted(chainID)
	require.True(t, ok)
	vm := n.env.VM(chainID)
	out := make([]ids.ID, h+1)
	for i := range out {
		id, err := vm.GetBlockIDAtHeight(t.Context(), uint64(i))
		require.NoError(t, err)
		out[i] = id
	}
	return out
}

func waitClosed(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(2 * time.Minute): // generous: the machine may be loaded
		t.Fatalf("timed out waiting for %s", what)
	}
}

// Four validators of equal weight, each chain behind its router,: three hold a chain of 20 blocks, the fourth none and waits
// for its After (the P-Chain, in the node). The three bootstrap at once (nothing new) and run
// consensus; the fourth stays bootstrapping, its health check failing, until After closes, then
// fetches the 20 blocks from the others, executes and indexes them in height order, enters
// normal operation and takes part in consensus: a block built by one validator is accepted (and
// indexed) by all four.
func TestConsensusBootstrapsThenDecides(t *testing.T) {
	dir := chainstest.BuildChain(t, chainID, 20, 8)
	net := newRouterNet(t)
	vals := weights{{1}: 1, {2}: 1, {3}: 1, {4}: 1}
	hold := make(chan struct{})
	nodes := []*consensusNode{
		newConsensusNode(t, net, ids.NodeID{1}, dir, vals, nil),
		newConsensusNode(t, net, ids.NodeID{2}, dir, vals, nil),
		newConsensusNode(t, net, ids.NodeID{3}, dir, vals, nil),
		newConsensusNode(t, net, ids.NodeID{4}, "", vals, hold),
	}
	for _, n := range nodes {
		for _, peer := range nodes {
			if peer != n {
				require.NoError(t, n.c.Connected(t.Context(), peer.id))
			}
		}
	}
	for _, n := range nodes[:3] {
		waitClosed(t, n.c.Bootstrapped(), "a validator with the chain to bootstrap")
	}
	late := nodes[3]
	state, _ := late.env.Registry.State(chainID)
	require.Equal(t, chains.Bootstrapping, state, "held back by After")
	_, err := late.env.Manager.Health(t.Context(), chainID)
	require.ErrorIs(t, err, chains.ErrBootstrapping)

	close(hold)
	waitClosed(t, late.c.Bootstrapped(), "the late node to bootstrap")
	want := nodes[0].accepted(t)
	require.Len(t, want, 21)
	require.Equal(t, want, late.accepted(t))
	require.Equal(t, want[1:], late.indexed.get(), "every block executed while bootstrapping is indexed, in height order")
	state, _ = late.env.Registry.State(chainID)
	require.Equal(t, chains.NormalOperation, state)
	_, err = late.env.Manager.Health(t.Context(), chainID)
	require.NoError(t, err)
	_, bootstrapping := late.c.Progress()
	require.False(t, bootstrapping)

	require.NoError(t, nodes[1].env.VM(chainID).Submit(chainstest.NewTx("after", "bootstrap")))
	require.Eventually(t, func() bool {
		for _, n := range nodes {
			if _, h, _ := n.env.Manager.LastAccepted(chainID); h != 21 {
				return false
			}
		}
		return true
	}, 2*time.Minute, 10*time.Millisecond, "every validator accepts the new block")
	for _, n := range nodes {
		require.Equal(t, nodes[1].accepted(t), n.accepted(t))
	}
	require.Equal(t, nodes[1].accepted(t)[1:], late.indexed.get())
}

// While it bootstraps, a Consensus tells its progress.
func TestConsensusProgress(t *testing.T) {
	net := newRouterNet(t)
	// Its beacon never connects: it waits with its progress at zero.
	n := newConsensusNode(t, net, ids.NodeID{1}, "", weights{{2}: 1}, nil)
	require.Eventually(t, func() bool { _, ok := n.c.Progress(); return ok }, time.Minute, time.Millisecond)
	p, ok := n.c.Progress()
	require.True(t, ok)
	require.Equal(t, bootstrap.Progress{}, p)
	details, err := n.env.Manager.Health(t.Context(), chainID)
	require.ErrorIs(t, err, chains.ErrBootstrapping)
	require.Equal(t, bootstrap.Progress{}, details.(chains.Status).Bootstrapping)
}

func (n *routerNet) count(op wire.Op) int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.sent[op]
}

// Two beacons on different chains: no majority, so the bootstrapper stalls and asks again
// after BootstrapRetry, round after round, while the chain stays bootstrapping.
func TestConsensusRetriesAfterStall(t *testing.T) {
	a, b := chainstest.BuildChain(t, chainID, 3, 8), chainstest.BuildChain(t, chainID, 3, 9)
	net := newRouterNet(t)
	beaconA := newConsensusNode(t, net, ids.NodeID{1}, a, weights{{1}: 1}, nil)
	beaconB := newConsensusNode(t, net, ids.NodeID{2}, b, weights{{2}: 1}, nil)
	waitClosed(t, beaconA.c.Bootstrapped(), "a lone beacon")
	waitClosed(t, beaconB.c.Bootstrapped(), "a lone beacon")
	n := newConsensusNode(t, net, ids.NodeID{3}, "", weights{{1}: 1, {2}: 1}, nil)
	require.NoError(t, n.c.Connected(t.Context(), beaconA.id))
	require.NoError(t, n.c.Connected(t.Context(), beaconB.id))
	require.Eventually(t, func() bool { return net.count(wire.OpGetAcceptedFrontier) >= 6 }, 2*time.Minute,
		10*time.Millisecond, "three rounds")
	state, _ := n.env.Registry.State(chainID)
	require.Equal(t, chains.Bootstrapping, state)
	_, h, _ := n.env.Manager.LastAccepted(chainID)
	require.Zero(t, h)
}
