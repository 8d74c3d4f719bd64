package snowman

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/chains/engine/enginetest"
	consensus "github.com/cornice-node/cornice/consensus/snowman"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
)

// testBlock is a block of testVM: its bytes are its parent, height and a nonce, its ID their
// SHA-256.
type testBlock struct {
	vm      *testVM
	id      ids.ID
	parent  ids.ID
	height  uint64
	bytes   []byte
	invalid bool
}

func (b *testBlock) ID() ids.ID           { return b.id }
func (b *testBlock) Parent() ids.ID       { return b.parent }
func (b *testBlock) Height() uint64       { return b.height }
func (b *testBlock) Timestamp() time.Time { return time.Unix(int64(b.height), 0) }
func (b *testBlock) TxCount() int         { return 1 }
func (b *testBlock) Bytes() []byte        { return b.bytes }
func (b *testBlock) Verify(context.Context) error {
	b.vm.verifyCalls++
	if b.invalid {
		return errors.New("invalid block")
	}
	b.vm.verified[b.id] = b
	return nil
}
func (b *testBlock) Accept(context.Context, *storage.Batch) error { return nil }
func (b *testBlock) Reject(context.Context) error {
	delete(b.vm.verified, b.id)
	b.vm.rejected = append(b.vm.rejected, b.id)
	return nil
}

// testVM holds blocks in memory: the accepted chain, the verified ones, and a count of blocks
// it has work for.
type testVM struct {
	accepted   []*testBlock // by height
	verified   map[ids.ID]*testBlock
	rejected   []ids.ID
	preference ids.ID
	work       int
	nonce      uint64
	ready      chan struct{}
	// invalid are the blocks that fail verification; verifyCalls counts the verifications.
	invalid     map[ids.ID]bool
	verifyCalls int
	// getBlocks counts the GetBlock calls: what reading a block back costs a real VM.
	getBlocks int
}

func encodeBlock(parent ids.ID, height, nonce uint64) []byte {
	b := append([]byte(nil), parent[:]...)
	b = binary.BigEndian.AppendUint64(b, height)
	return binary.BigEndian.AppendUint64(b, nonce)
}

func newTestVM() *testVM {
	g := &testBlock{bytes: encodeBlock(ids.ID{}, 0, 0)}
	g.id = sha256.Sum256(g.bytes)
	vm := &testVM{accepted: []*testBlock{g}, verified: make(map[ids.ID]*testBlock), ready: make(chan struct{}, 1)}
	g.vm = vm
	vm.preference = g.id
	return vm
}

func (vm *testVM) genesis() *testBlock { return vm.accepted[0] }

func (vm *testVM) LastAccepted(context.Context) (ids.ID, error) {
	return vm.accepted[len(vm.accepted)-1].id, nil
}

func (vm *testVM) GetBlock(_ context.Context, id ids.ID) (chains.Block, error) {
	vm.getBlocks++
	if b, ok := vm.verified[id]; ok {
		return b, nil
	}
	for _, b := range vm.accepted {
		if b.id == id {
			return b, nil
		}
	}
	return nil, chains.ErrBlockNotFound
}

func (vm *testVM) GetBlockIDAtHeight(_ context.Context, h uint64) (ids.ID, error) {
	if h >= uint64(len(vm.accepted)) {
		return ids.ID{}, chains.ErrBlockNotFound
	}
	return vm.accepted[h].id, nil
}

func (vm *testVM) ParseBlock(ctx context.Context, b []byte) (chains.Block, error) {
	if len(b) != 48 {
		return nil, errors.New("bad block")
	}
	id := ids.ID(sha256.Sum256(b))
	if blk, err := vm.GetBlock(ctx, id); err == nil {
		return blk, nil
	}
	return &testBlock{vm: vm, id: id, parent: ids.ID(b[:32]), height: binary.BigEndian.Uint64(b[32:40]), bytes: b,
		invalid: vm.invalid[id]}, nil
}

func (vm *testVM) BuildBlock(ctx context.Context) (chains.Block, error) {
	if vm.work == 0 {
		return nil, chains.ErrNoWork
	}
	vm.work--
	parent, err := vm.GetBlock(ctx, vm.preference)
	if err != nil {
		return nil, err
	}
	vm.nonce++
	return vm.ParseBlock(ctx, encodeBlock(parent.ID(), parent.Height()+1, vm.nonce))
}

func (vm *testVM) SetPreference(_ context.Context, id ids.ID) error { vm.preference = id; return nil }
func (vm *testVM) WorkReady() <-chan struct{}                       { return vm.ready }
func (vm *testVM) Accepted(context.Context, chains.Block) error     { return nil }
func (vm *testVM) Handlers(context.Context) (map[string]http.Handler, error) {
	return nil, nil
}
func (vm *testVM) Close() error { return nil }

// testAcceptor accepts in order, as chains.Acceptor does, into its VM.
type testAcceptor struct{ vm *testVM }

func (a testAcceptor) LastAccepted() (ids.ID, uint64) {
	last := a.vm.accepted[len(a.vm.accepted)-1]
	return last.id, last.height
}

func (a testAcceptor) Accept(_ context.Context, blk chains.Block) error {
	last := a.vm.accepted[len(a.vm.accepted)-1]
	if blk.Parent() != last.id || blk.Height() != last.height+1 {
		return fmt.Errorf("block %s out of order", blk.ID())
	}
	b := blk.(*testBlock)
	delete(a.vm.verified, b.id)
	a.vm.accepted = append(a.vm.accepted, b)
	return nil
}

// testNet connects engines through the engine test kit's fake network: messages are delivered
// in a random order, messages to a node that is down are lost, and a lost or unanswered request
// comes back as a failure, as the router's timeout would inject it.
type testNet struct {
	*enginetest.Net
	t       *testing.T
	rng     *rand.Rand
	nodes   []ids.NodeID
	engines map[ids.NodeID]*Engine
	vms     map[ids.NodeID]*testVM
}

// validators is a fixed weight list.
type validators map[ids.NodeID]uint64

func (v validators) Weights(ids.ID) (map[ids.NodeID]uint64, error) { return v, nil }

// testDeps are the Deps of an engine over vm in these tests: vm's own acceptor, a fixed seed, a
// discarded log and the real clock.
func testDeps(vm *testVM, snd Sender, vals validators) Deps {
	return Deps{VM: vm, Acceptor: testAcceptor{vm}, Sender: snd, Validators: vals,
		Rand: rand.New(rand.NewPCG(1, 1)), Log: slog.New(slog.DiscardHandler)}
}

// newEngine is New that fails the test on an error.
func newEngine(t *testing.T, cfg Config, d Deps) *Engine {
	t.Helper()
	e, err := New(cfg, d)
	require.NoError(t, err)
	return e
}

func newTestNet(t *testing.T, seed uint64, weights []uint64, p consensus.Parameters) *testNet {
	n := &testNet{Net: enginetest.New(t, seed), t: t, rng: rand.New(rand.NewPCG(seed, 2)),
		engines: make(map[ids.NodeID]*Engine), vms: make(map[ids.NodeID]*testVM)}
	vals := validators{}
	for i, w := range weights {
		id := ids.NodeID{byte(i + 1)}
		n.nodes = append(n.nodes, id)
		vals[id] = w
	}
	for _, id := range n.nodes {
		vm := newTestVM()
		d := testDeps(vm, n.Sender(id), vals)
		d.Rand = rand.New(rand.NewPCG(seed, uint64(id[0])))
		e := newEngine(t, Config{Params: p}, d)
		n.engines[id], n.vms[id] = e, vm
		n.Set(id, e)
	}
	return n
}

// deliverAll delivers queued messages in a random order until none is left or max were
// delivered. Each time the queue runs dry every node up gossips, up to gossipRounds times, as
// the 100 ms ticker would make them.
func (n *testNet) deliverAll(max int) {
	ctx := n.t.Context()
	const gossipRounds = 10
	for i, g := 0, 0; n.Len() > 0 || g < gossipRounds; i++ {
		if n.Len() == 0 {
			g++
			for _, id := range n.nodes {
				if !n.Down[id] {
					require.NoError(n.t, n.engines[id].Gossip(ctx))
				}
			}
			continue
		}
		if i >= max {
			return // a stalled chain polls for ever
		}
		n.Step(ctx)
	}
}

// build gives node's VM one block of work and lets its engine build.
func (n *testNet) build(node ids.NodeID) {
	n.vms[node].work++
	require.NoError(n.t, n.engines[node].Build(n.t.Context()))
}

// requireAgreement checks that every node up has accepted the same chain of height at least h.
func (n *testNet) requireAgreement(h int) {
	var want []*testBlock
	for _, id := range n.nodes {
		if n.Down[id] {
			continue
		}
		got := n.vms[id].accepted
		require.GreaterOrEqual(n.t, len(got)-1, h, "node %d", id[0])
		if want == nil {
			want = got
			continue
		}
		k := min(len(want), len(got))
		for i := range k {
			require.Equal(n.t, want[i].id, got[i].id, "node %d, height %d", id[0], i)
		}
	}
}

func equal(n int, w uint64) []uint64 { return slices.Repeat([]uint64{w}, n) }

func TestEnginesAgree(t *testing.T) {
	tests := []struct {
		name    string
		weights []uint64
	}{
		{"five equal validators", equal(5, 2000)},
		{"total weight below K", equal(5, 1)},
		{"one validator", []uint64{100}},
		{"uneven stakes", []uint64{1, 50, 3000, 7, 400}},
	}
	for _, tt := range tests {
		for seed := uint64(1); seed <= 3; seed++ {
			t.Run(fmt.Sprintf("%s/seed %d", tt.name, seed), func(t *testing.T) {
				n := newTestNet(t, seed, tt.weights, consensus.DefaultParameters())
				for h := 1; h <= 5; h++ {
					n.build(n.nodes[n.rng.IntN(len(n.nodes))])
					n.deliverAll(1_000_000)
					n.requireAgreement(h)
				}
				for _, id := range n.nodes {
					require.Zero(t, n.engines[id].NumProcessing())
				}
			})
		}
	}
}

// Two nodes build at once on the same parent: one block wins everywhere, the other is rejected
// everywhere.
func TestEnginesResolveConflicts(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		n := newTestNet(t, seed, equal(5, 2000), consensus.DefaultParameters())
		n.build(n.nodes[0])
		n.build(n.nodes[1])
		n.deliverAll(1_000_000)
		n.requireAgreement(1)
		for _, id := range n.nodes {
			require.Zero(t, n.engines[id].NumProcessing(), "seed %d", seed)
		}
	}
}

// One of five down: 80% of the stake answers, above αc/K = 75%, and the chain goes on. Two of
// five down: 60% answers, and nothing is accepted (§6.4); the blocks stay processing.
func TestEnginesFaultyMinority(t *testing.T) {
	n := newTestNet(t, 1, equal(5, 2000), consensus.DefaultParameters())
	n.Down[n.nodes[4]] = true
	for h := 1; h <= 3; h++ {
		n.build(n.nodes[0])
		n.deliverAll(1_000_000)
		n.requireAgreement(h)
	}

	n = newTestNet(t, 2, equal(5, 2000), consensus.DefaultParameters())
	n.Down[n.nodes[3]], n.Down[n.nodes[4]] = true, true
	n.build(n.nodes[0])
	n.deliverAll(30_000)
	for _, id := range n.nodes[:3] {
		require.Len(t, n.vms[id].accepted, 1, "nothing accepted without a quorum")
		require.Equal(t, 1, n.engines[id].NumProcessing())
	}
}

// A node that missed blocks fetches them by ID from whoever mentions them (Get, Put) and
// issues them parents first.
func TestEngineFetchesMissingAncestors(t *testing.T) {
	n := newTestNet(t, 3, equal(5, 2000), consensus.DefaultParameters())
	late := n.nodes[4]
	n.Down[late] = true
	for range 3 {
		n.build(n.nodes[0])
		n.deliverAll(1_000_000)
	}
	n.requireAgreement(3)
	n.Down[late] = false
	n.build(n.nodes[0])
	n.deliverAll(1_000_000)
	n.requireAgreement(4)
	require.Len(t, n.vms[late].accepted, 5, "the late node caught up through the blocks' parents")
}

func TestEngineAnswersQueries(t *testing.T) {
	n := newTestNet(t, 4, []uint64{10, 10}, consensus.DefaultParameters())
	a, b := n.nodes[0], n.nodes[1]
	ctx := t.Context()
	// A Get for an unknown block gets no answer (§2.3).
	require.NoError(t, n.engines[a].Get(ctx, b, 7, ids.ID{1}))
	require.Zero(t, n.Len())
	// A Put nobody asked for is dropped.
	require.NoError(t, n.engines[a].Put(ctx, b, 8, n.vms[a].genesis().bytes))
	require.Zero(t, n.Len())
	// A pushed block that does not parse is dropped after the Chits.
	require.NoError(t, n.engines[a].PushQuery(ctx, b, 9, []byte("junk"), 1))
	require.Equal(t, 1, n.Len(), "chits only")
	require.Zero(t, n.engines[a].NumProcessing())
}
