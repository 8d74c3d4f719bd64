package snowman

import (
	"bytes"
	"crypto/sha256"
	"log/slog"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/clock"
	consensus "github.com/cornice-node/cornice/consensus/snowman"
	"github.com/cornice-node/cornice/ids"
)

// acceptChain puts n accepted blocks on vm's genesis, each of size bytes (at least 48).
func acceptChain(vm *testVM, n, size int) {
	for range n {
		last := vm.accepted[len(vm.accepted)-1]
		vm.nonce++
		b := encodeBlock(last.id, last.height+1, vm.nonce)
		b = append(b, bytes.Repeat([]byte{0}, size-len(b))...)
		vm.accepted = append(vm.accepted, &testBlock{vm: vm, id: sha256.Sum256(b), parent: last.id, height: last.height + 1, bytes: b})
	}
}

func newGetter(t *testing.T, vm *testVM) (*Engine, *recordingSender) {
	snd := &recordingSender{}
	e, err := New(Config{Params: consensus.DefaultParameters()}, Deps{VM: vm, Acceptor: testAcceptor{vm}, Sender: snd,
		Validators: validators{ids.NodeID{1}: 20}, Rand: rand.New(rand.NewPCG(1, 1)), Log: slog.New(slog.DiscardHandler)})
	require.NoError(t, err)
	return e, snd
}

func TestGetAncestors(t *testing.T) {
	ctx := t.Context()
	peer := ids.NodeID{2}

	vm := newTestVM()
	acceptChain(vm, 5, 48)
	e, snd := newGetter(t, vm)
	require.NoError(t, e.GetAncestors(ctx, peer, 1, vm.accepted[3].id))
	require.Equal(t, [][]byte{vm.accepted[3].bytes, vm.accepted[2].bytes, vm.accepted[1].bytes, vm.accepted[0].bytes},
		snd.ancestors[0], "newest first, down to genesis")

	require.NoError(t, e.GetAncestors(ctx, peer, 2, ids.ID{9}))
	require.Empty(t, snd.ancestors[1], "an unknown block gets an empty answer")

	// At most 2,000 blocks.
	vm = newTestVM()
	acceptChain(vm, MaxAncestorsContainers+10, 48)
	e, snd = newGetter(t, vm)
	require.NoError(t, e.GetAncestors(ctx, peer, 3, vm.accepted[len(vm.accepted)-1].id))
	require.Len(t, snd.ancestors[0], MaxAncestorsContainers)

	// At most 4/5 of 2 MiB, each block counted with 4 more bytes: 100,000-byte blocks, 16 fit.
	vm = newTestVM()
	acceptChain(vm, 40, 100_000)
	e, snd = newGetter(t, vm)
	require.NoError(t, e.GetAncestors(ctx, peer, 4, vm.accepted[40].id))
	require.Len(t, snd.ancestors[0], 16)
	require.Equal(t, vm.accepted[40].bytes, snd.ancestors[0][0])
}

// A processing block is served too, with its processing and accepted ancestors.
func TestGetAncestorsOfProcessingBlock(t *testing.T) {
	vm := newTestVM()
	e, snd := newGetter(t, vm)
	vm.work = 2
	require.NoError(t, e.Build(t.Context()))
	tip := e.Preference()
	require.NoError(t, e.GetAncestors(t.Context(), ids.NodeID{2}, 1, tip))
	require.Len(t, snd.ancestors[0], 3)
}

// The accepted frontier is the last accepted block; GetAccepted keeps the IDs accepted at their
// height, not processing, unknown or beside the accepted chain (§3.2).
func TestAcceptedFrontierAndAccepted(t *testing.T) {
	ctx := t.Context()
	vm := newTestVM()
	acceptChain(vm, 3, 48)
	e, snd := newGetter(t, vm)
	require.NoError(t, e.GetAcceptedFrontier(ctx, ids.NodeID{2}, 1))
	require.Equal(t, []ids.ID{vm.accepted[3].id}, snd.frontiers)

	vm.preference = vm.accepted[3].id
	vm.work = 1
	require.NoError(t, e.Build(ctx))
	require.Equal(t, 1, e.NumProcessing())
	processing := e.Preference()
	require.NoError(t, e.GetAccepted(ctx, ids.NodeID{2}, 2, []ids.ID{vm.accepted[1].id, processing, {9}, vm.accepted[3].id}))
	require.Equal(t, [][]ids.ID{{vm.accepted[1].id, vm.accepted[3].id}}, snd.accepted)
}

// With a minimum gap between blocks, the engine builds one block, then waits for the gap before
// the next: BuildAt says when (§2.8).
func TestMinBlockGap(t *testing.T) {
	ctx := t.Context()
	vm := newTestVM()
	clk := clock.NewFake(time.Unix(1000, 0))
	e, err := New(Config{Params: consensus.DefaultParameters(), MinBlockGap: time.Hour}, Deps{VM: vm, Acceptor: testAcceptor{vm},
		Sender: &recordingSender{}, Validators: validators{ids.NodeID{1}: 20}, Rand: rand.New(rand.NewPCG(1, 1)),
		Log: slog.New(slog.DiscardHandler), Clock: clk})
	require.NoError(t, err)
	_, waiting := e.BuildAt()
	require.False(t, waiting)

	vm.work = 2
	require.NoError(t, e.Build(ctx))
	require.Equal(t, 1, e.NumProcessing())
	at, waiting := e.BuildAt()
	require.True(t, waiting)
	require.Equal(t, time.Unix(1000, 0).Add(time.Hour), at)

	clk.Advance(time.Hour - time.Second)
	require.NoError(t, e.Build(ctx))
	require.Equal(t, 1, e.NumProcessing(), "not yet")
	clk.Advance(time.Second)
	require.NoError(t, e.Build(ctx))
	require.Equal(t, 2, e.NumProcessing())
}
