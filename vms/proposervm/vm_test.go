package proposervm

import (
	"context"
	"crypto"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/chains/chainstest"
	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/crypto/staking"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
)

// fakePChain is a P-Chain at a fixed height with one validator set at every height.
type fakePChain struct {
	height, minimum uint64
	set             []Weighted
}

func (p *fakePChain) PChainHeight(context.Context) (uint64, error)  { return p.height, nil }
func (p *fakePChain) MinimumHeight(context.Context) (uint64, error) { return p.minimum, nil }
func (p *fakePChain) ValidatorsAt(context.Context, ids.ID, uint64) ([]Weighted, error) {
	return p.set, nil
}

// identity is a local staker's staking identity.
type identity struct {
	der    []byte
	key    crypto.Signer
	nodeID ids.NodeID
}

func stakerIdentity(t *testing.T, n string) identity {
	der, key := staker(t, n)
	return identity{der: der, key: key, nodeID: staking.NodeIDFromCert(der)}
}

// testNode is one node's wrapped chain over a chainstest VM.
type testNode struct {
	db    *storage.DB
	inner *chainstest.VM
	vm    *VM
}

var testChain = ids.ID{7}

func newTestNode(t *testing.T, id identity, p PChain, clk clock.Clock, minDelay time.Duration) *testNode {
	t.Helper()
	db, err := storage.Open(filepath.Join(t.TempDir(), "db"), slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, db.Close()) })
	inner, err := chainstest.New(chains.Context{
		Chain:   chains.Chain{ID: testChain},
		Genesis: []byte("genesis"),
		DB:      db.Prefixed(storage.PrefixNode),
		Clock:   clk,
		Log:     slog.New(slog.DiscardHandler),
	})
	require.NoError(t, err)
	vm, err := New(Config{
		Inner: inner, ChainID: testChain, DB: db.Prefixed(storage.PrefixProposer),
		NodeID: id.nodeID, Certificate: id.der, Key: id.key, PChain: p, MinDelay: minDelay, Clock: clk,
	})
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, vm.Close()) })
	return &testNode{db: db, inner: inner, vm: vm}
}

// accept verifies and accepts blk as the accept path does: one batch, then Accepted.
func (n *testNode) accept(t *testing.T, blk chains.Block) {
	t.Helper()
	chainstest.VerifyAccept(t, n.vm, n.db, blk)
}

var t0 = time.Unix(1_767_225_600, 0)

// Two nodes: the one whose slot it is builds, the other parses and verifies its block; both
// accept it and read its header, and the index container is the proposervm block.
func TestBuildVerifyAccept(t *testing.T) {
	a, b := stakerIdentity(t, "1"), stakerIdentity(t, "2")
	p := &fakePChain{height: 5, minimum: 4, set: []Weighted{{a.nodeID, 1}, {b.nodeID, 1}}}
	clk := clock.NewFake(t0)
	na := newTestNode(t, a, p, clk, time.Second)
	nb := newTestNode(t, b, p, clk, time.Second)
	ctx := t.Context()

	genesis, err := na.vm.LastAccepted(ctx)
	require.NoError(t, err)
	// The genesis is pre-fork: the inner VM's own block, at time 0.
	w := NewWindower(testChain, 1, p.set)
	owner, err := w.ExpectedProposer(Slot(time.Unix(0, 0), t0))
	require.NoError(t, err)
	builder, other := na, nb
	if owner == b.nodeID {
		builder, other = nb, na
	}
	require.NoError(t, builder.inner.Submit(chainstest.NewTx("k", "v")))
	_, err = other.vm.BuildBlock(ctx)
	require.ErrorIs(t, err, chains.ErrNoWork, "not its slot")

	blk, err := builder.vm.BuildBlock(ctx)
	require.NoError(t, err)
	require.Equal(t, genesis, blk.Parent())
	require.Equal(t, uint64(1), blk.Height())
	parsed, err := other.vm.ParseBlock(ctx, blk.Bytes())
	require.NoError(t, err)
	require.Equal(t, blk.ID(), parsed.ID())
	builder.accept(t, blk)
	other.accept(t, parsed)

	for _, n := range []*testNode{na, nb} {
		last, err := n.vm.LastAccepted(ctx)
		require.NoError(t, err)
		require.Equal(t, blk.ID(), last)
		id, err := n.vm.GetBlockIDAtHeight(ctx, 1)
		require.NoError(t, err)
		require.Equal(t, blk.ID(), id)
		id, err = n.vm.GetBlockIDAtHeight(ctx, 0)
		require.NoError(t, err)
		require.Equal(t, genesis, id)
		got, err := n.vm.GetBlock(ctx, blk.ID())
		require.NoError(t, err)
		require.Equal(t, blk.Bytes(), got.Bytes())
		h, err := n.vm.HeaderOf(ctx, blk.ID())
		require.NoError(t, err)
		require.True(t, h.Wrapped)
		require.Equal(t, owner, h.Proposer)
		require.Equal(t, uint64(4), h.PChainHeight)
		// The first epoch opens at the pre-fork parent's P-Chain height, 0.
		warpHeight, err := n.vm.WarpPChainHeight(ctx, blk.ID())
		require.NoError(t, err)
		require.Equal(t, uint64(0), warpHeight)
		proposed, err := n.vm.ProposedHeight(ctx)
		require.NoError(t, err)
		require.Equal(t, uint64(4), proposed)
		epoch, err := n.vm.NextEpoch(ctx)
		require.NoError(t, err)
		// The first block's epoch (opened at time 0) is over by its time: it seals it, and its
		// child opens the next at its height and time.
		require.Equal(t, Epoch{PChainHeight: 4, Number: 2, StartTime: t0.Unix()}, epoch)
		// The genesis stays a bare inner block.
		h, err = n.vm.HeaderOf(ctx, genesis)
		require.NoError(t, err)
		require.False(t, h.Wrapped)
	}

	// The layer's records survive a restart: a new layer over the same database.
	again, err := New(Config{
		Inner: na.inner, ChainID: testChain, DB: na.db.Prefixed(storage.PrefixProposer),
		NodeID: a.nodeID, Certificate: a.der, Key: a.key, PChain: p, Clock: clk,
	})
	require.NoError(t, err)
	last, err := again.LastAccepted(ctx)
	require.NoError(t, err)
	require.Equal(t, blk.ID(), last)
	close(again.stop) // the inner VM is na's, closed by its cleanup
	again.wg.Wait()

	// A bare inner block above the pre-fork heights is refused.
	innerBlk := na.inner.NewBlock(na.inner.Genesis().ID(), 1, 0, []*chainstest.Tx{chainstest.NewTx("x", "y")})
	_, err = na.vm.ParseBlock(ctx, innerBlk.Bytes())
	require.ErrorIs(t, err, ErrPreForkBlock)
}

// A node builds only from the start of its own slot, and no sooner than MinDelay after the
// parent; WorkReady tells the engine when that time comes.
func TestBuildWaitsForSlotAndDelay(t *testing.T) {
	a, b := stakerIdentity(t, "1"), stakerIdentity(t, "2")
	p := &fakePChain{height: 5, set: []Weighted{{a.nodeID, 1}, {b.nodeID, 1}}}
	// The parent (genesis) is at time 0; find a time whose slot is b's and a's is the next.
	w := NewWindower(testChain, 1, p.set)
	var slot uint64
	for ; ; slot++ {
		first, _ := w.ExpectedProposer(slot)
		next, _ := w.ExpectedProposer(slot + 1)
		if first == b.nodeID && next == a.nodeID {
			break
		}
	}
	start := time.Unix(0, 0).Add(time.Duration(slot) * WindowDuration)
	clk := clock.NewFake(start)
	na := newTestNode(t, a, p, clk, time.Second)
	require.NoError(t, na.inner.Submit(chainstest.NewTx("k", "v")))
	<-na.vm.WorkReady() // the inner VM's signal, forwarded

	_, err := na.vm.BuildBlock(t.Context())
	require.ErrorIs(t, err, chains.ErrNoWork)
	clk.Set(start.Add(WindowDuration - time.Millisecond))
	_, err = na.vm.BuildBlock(t.Context())
	require.ErrorIs(t, err, chains.ErrNoWork)
	// The wake-up for a's slot, a millisecond away in real time too.
	<-na.vm.WorkReady()
	clk.Set(start.Add(WindowDuration))
	blk, err := na.vm.BuildBlock(t.Context())
	require.NoError(t, err)
	require.Equal(t, start.Add(WindowDuration), blk.Timestamp())

	// With anyone allowed (empty set), the minimum delay from the parent still holds.
	na.accept(t, blk)
	p.set = nil
	require.NoError(t, na.inner.Submit(chainstest.NewTx("k2", "v")))
	_, err = na.vm.BuildBlock(t.Context())
	require.ErrorIs(t, err, chains.ErrNoWork, "within MinDelay of the parent")
	clk.Set(blk.Timestamp().Add(time.Second))
	child, err := na.vm.BuildBlock(t.Context())
	require.NoError(t, err)
	require.False(t, child.(*block).pb.Signed(), "anyone can propose: unsigned")
	require.NoError(t, child.Verify(t.Context()))
}

// Verify rejects each broken rule of §2.8.
func TestVerifyRules(t *testing.T) {
	a, b := stakerIdentity(t, "1"), stakerIdentity(t, "2")
	p := &fakePChain{height: 5, set: []Weighted{{a.nodeID, 1}, {b.nodeID, 1}}}
	clk := clock.NewFake(t0)
	n := newTestNode(t, a, p, clk, time.Second)
	ctx := t.Context()
	genesis := n.inner.Genesis()
	parent := time.Unix(0, 0)
	w := NewWindower(testChain, 1, p.set)
	ids2 := map[ids.NodeID]identity{a.nodeID: a, b.nodeID: b}
	ownerOf := func(ts time.Time) (identity, identity) {
		o, err := w.ExpectedProposer(Slot(parent, ts))
		require.NoError(t, err)
		for id, x := range ids2 {
			if id != o {
				return ids2[o], x
			}
		}
		panic("unreachable")
	}
	good := func() (Header, identity) {
		owner, _ := ownerOf(t0)
		return Header{Parent: genesis.ID(), Timestamp: t0, PChainHeight: 5, Granite: true,
			Epoch: NextEpoch(0, Epoch{}, parent, EpochDuration)}, owner
	}
	build := func(h Header, signer *identity, innerParent ids.ID) chains.Block {
		inner := n.inner.NewBlock(innerParent, 1, t0.UnixNano(), []*chainstest.Tx{chainstest.NewTx("k", "v")})
		var key crypto.Signer
		var der []byte
		if signer != nil {
			key, der = signer.key, signer.der
		}
		pb, err := Build(h, inner.Bytes(), testChain, der, key)
		require.NoError(t, err)
		blk, err := n.vm.ParseBlock(ctx, pb.Bytes())
		require.NoError(t, err)
		return blk
	}

	h, owner := good()
	require.NoError(t, build(h, &owner, genesis.ID()).Verify(ctx), "the good block")

	cases := map[string]struct {
		mutate func(h *Header, signer **identity, innerParent *ids.ID)
		want   error
	}{
		"outside its window": {func(h *Header, s **identity, _ *ids.ID) {
			_, other := ownerOf(h.Timestamp)
			*s = &other
		}, ErrUnexpectedProposer},
		"unsigned with validators": {func(_ *Header, s **identity, _ *ids.ID) { *s = nil }, ErrUnexpectedProposer},
		"too far in the future": {func(h *Header, _ **identity, _ *ids.ID) {
			h.Timestamp = t0.Add(MaxSkew + time.Second)
		}, ErrTimeTooAdvanced},
		"P-Chain height not reached":     {func(h *Header, _ **identity, _ *ids.ID) { h.PChainHeight = 6 }, ErrPChainHeightNotReached},
		"wrong epoch":                    {func(h *Header, _ **identity, _ *ids.ID) { h.Epoch.Number = 2 }, ErrEpochMismatch},
		"pre-Granite format":             {func(h *Header, _ **identity, _ *ids.ID) { h.Granite = false }, ErrEpochMismatch},
		"inner parent is not the parent": {func(_ *Header, _ **identity, p *ids.ID) { *p = ids.ID{9} }, ErrInnerParentMismatch},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			h, owner := good()
			signer, innerParent := &owner, genesis.ID()
			c.mutate(&h, &signer, &innerParent)
			if signer != nil && h.Timestamp != t0 {
				o, _ := ownerOf(h.Timestamp)
				signer = &o
			}
			require.ErrorIs(t, build(h, signer, innerParent).Verify(ctx), c.want)
		})
	}

	// Against a wrapped parent: time before it, P-Chain height below it, delay too short.
	h, owner = good()
	first := build(h, &owner, genesis.ID())
	n.accept(t, first)
	child := func(ts time.Time, pHeight uint64) error {
		cw := NewWindower(testChain, 2, p.set)
		o, err := cw.ExpectedProposer(Slot(t0, ts))
		require.NoError(t, err)
		signer := ids2[o]
		inner := n.inner.NewBlock(first.(*block).inner.ID(), 2, t0.UnixNano(), []*chainstest.Tx{chainstest.NewTx("k2", "v")})
		pb, err := Build(Header{Parent: first.ID(), Timestamp: ts, PChainHeight: pHeight, Granite: true,
			Epoch: NextEpoch(5, h.Epoch, t0, EpochDuration)}, inner.Bytes(), testChain, signer.der, signer.key)
		require.NoError(t, err)
		blk, err := n.vm.ParseBlock(ctx, pb.Bytes())
		require.NoError(t, err)
		return blk.Verify(ctx)
	}
	clk.Set(t0.Add(3 * time.Second))
	require.ErrorIs(t, child(t0.Add(-time.Second), 5), ErrTimeNotMonotonic)
	require.ErrorIs(t, child(t0.Add(2*time.Second), 4), ErrPChainHeightNotMonotonic)
	require.ErrorIs(t, child(t0, 5), ErrBlockDelayTooShort)
	require.NoError(t, child(t0.Add(time.Second), 5))
}

func TestHeightWindow(t *testing.T) {
	var w HeightWindow
	require.Equal(t, uint64(9), w.Minimum(t0, 9), "nothing accepted lately: the current height")
	w.Accepted(10, t0)
	w.Accepted(11, t0.Add(10*time.Second))
	require.Equal(t, uint64(9), w.Minimum(t0.Add(20*time.Second), 11), "just before the oldest recent block")
	require.Equal(t, uint64(10), w.Minimum(t0.Add(31*time.Second), 11), "the first has left the window")
	require.Equal(t, uint64(12), w.Minimum(t0.Add(time.Minute), 12))
	for h := range uint64(100) {
		w.Accepted(h+100, t0.Add(2*time.Minute))
	}
	require.Equal(t, uint64(135), w.Minimum(t0.Add(2*time.Minute), 199), "the last 64 blocks")
}

// A damaged record of an accepted block is an error for every reader of it, not a panic.
func TestShortRecord(t *testing.T) {
	a := stakerIdentity(t, "1")
	p := &fakePChain{height: 5, minimum: 4, set: []Weighted{{a.nodeID, 1}}}
	n := newTestNode(t, a, p, clock.NewFake(t0), 0)
	ctx := t.Context()
	id := ids.ID{9}
	require.NoError(t, n.db.Prefixed(storage.PrefixProposer).Put(blockKey(id), []byte("short")))

	_, err := n.vm.HeaderOf(ctx, id)
	require.ErrorContains(t, err, "short record")
	_, err = n.vm.GetBlock(ctx, id)
	require.ErrorContains(t, err, "short record")
	require.ErrorContains(t, n.vm.Recover(ctx, id, 1), "short record")
}
