package snowman

import (
	"context"
	"crypto/sha256"
	"testing"

	"github.com/stretchr/testify/require"

	consensus "github.com/cornice-node/cornice/consensus/snowman"
	"github.com/cornice-node/cornice/ids"
)

// chits is one SendChits call.
type chits struct {
	preferred, preferredAtHeight, accepted ids.ID
	acceptedHeight                         uint64
}

// recordingSender keeps the Chits and Ancestors sent and drops everything else: nothing is
// answered.
type recordingSender struct {
	chits     []chits
	ancestors [][][]byte
	gets      map[ids.ID]uint32 // request ID by block
	getsSent  int
}

func (s *recordingSender) SendAncestors(_ context.Context, _ ids.NodeID, _ uint32, blocks [][]byte) {
	s.ancestors = append(s.ancestors, blocks)
}

func (s *recordingSender) SendAcceptedFrontier(context.Context, ids.NodeID, uint32, ids.ID)    {}
func (s *recordingSender) SendAccepted(context.Context, ids.NodeID, uint32, []ids.ID)          {}
func (s *recordingSender) SendPushQuery(context.Context, []ids.NodeID, uint32, []byte, uint64) {}
func (s *recordingSender) SendPullQuery(context.Context, []ids.NodeID, uint32, ids.ID, uint64) {}
func (s *recordingSender) SendGet(_ context.Context, _ ids.NodeID, requestID uint32, blockID ids.ID) {
	if s.gets == nil {
		s.gets = make(map[ids.ID]uint32)
	}
	s.gets[blockID] = requestID
	s.getsSent++
}
func (s *recordingSender) SendPut(context.Context, ids.NodeID, uint32, []byte) {}
func (s *recordingSender) SendChits(_ context.Context, _ ids.NodeID, _ uint32, pref, atHeight, acc ids.ID, accHeight uint64) {
	s.chits = append(s.chits, chits{pref, atHeight, acc, accHeight})
}

// Chits name our preference, our block at the requested height (accepted if the height is
// accepted, else preferred, else the preference itself) and our last accepted block (§2.3).
func TestChitsContents(t *testing.T) {
	vm := newTestVM()
	snd := &recordingSender{}
	e := newEngine(t, Config{Params: consensus.DefaultParameters()}, testDeps(vm, snd, validators{ids.NodeID{1}: 20, ids.NodeID{2}: 20}))
	ctx := t.Context()

	// Height 1 accepted (by hand, as a decided poll would), 2 and 3 processing.
	vm.work = 1
	require.NoError(t, e.Build(ctx))
	b1 := e.Preference()
	require.NoError(t, e.core.SetParameters(consensus.Parameters{K: 1, AlphaPreference: 1, AlphaConfidence: 1, Beta: 1,
		ConcurrentRepolls: 1, OptimalProcessing: 10, MaxOutstandingItems: 1, MaxItemProcessingTime: 1}))
	res, err := e.core.RecordPoll(consensus.VotesOf(b1))
	require.NoError(t, err)
	require.Len(t, res.Accepted, 1)
	require.NoError(t, testAcceptor{vm}.Accept(ctx, e.processing[b1]))
	delete(e.processing, b1)
	vm.work = 2
	require.NoError(t, e.Build(ctx))
	b3 := e.Preference()
	b2 := e.processing[b3].Parent()
	genesis := vm.genesis().id

	peer := ids.NodeID{2}
	for _, tt := range []struct {
		height uint64
		want   ids.ID
	}{
		{0, genesis}, // accepted
		{1, b1},      // accepted, the last
		{2, b2},      // preferred
		{3, b3},      // preferred, the tip
		{9, b3},      // beyond the tip: the preference
	} {
		require.NoError(t, e.PullQuery(ctx, peer, 1, b3, tt.height))
		got := snd.chits[len(snd.chits)-1]
		require.Equal(t, chits{b3, tt.want, b1, 1}, got, "requested height %d", tt.height)
	}
}

// A failed query counts as a vote for the last accepted block the validator reported, while that
// block is processing here; otherwise the validator is dropped from the poll (§2.4 step 3).
func TestQueryFailedVotesLastReportedAccepted(t *testing.T) {
	vm := newTestVM()
	snd := &recordingSender{}
	peer := ids.NodeID{2}
	e := newEngine(t, Config{Params: consensus.DefaultParameters()}, testDeps(vm, snd, validators{peer: 20}))
	ctx := t.Context()
	vm.work = 1
	require.NoError(t, e.Build(ctx)) // poll 1: the push of b1 to peer, 20 units
	b1 := e.Preference()
	require.Equal(t, 1, e.polls.Len())

	// No report from peer yet: the failure drops it, and the poll ends with no votes.
	require.NoError(t, e.QueryFailed(ctx, peer, 1))
	require.Equal(t, 1, e.NumProcessing())

	// peer reports b1 as accepted (it is processing here): later failures vote for b1.
	require.NoError(t, e.Chits(ctx, peer, 999, b1, b1, b1, 1))
	for range consensus.DefaultParameters().Beta {
		require.Equal(t, 1, e.NumProcessing())
		requestID := e.nextRequestID - uint32(e.polls.Len()) + 1 // the oldest poll in flight
		require.NoError(t, e.QueryFailed(ctx, peer, requestID))
	}
	require.Zero(t, e.NumProcessing(), "β failed queries counted for b1")
	require.Len(t, vm.accepted, 2)
}

// A vote for a block we do not have waits for it: it is cast when the fetched block is issued,
// and dropped when the fetch fails (§2.4 step 3).
func TestChitsWaitForTheirBlock(t *testing.T) {
	for _, arrives := range []bool{true, false} {
		vm := newTestVM()
		snd := &recordingSender{}
		peer := ids.NodeID{2}
		e := newEngine(t, Config{Params: consensus.DefaultParameters()}, testDeps(vm, snd, validators{peer: 20}))
		ctx := t.Context()
		vm.work = 1
		require.NoError(t, e.Build(ctx)) // poll 1: b1 pushed to peer, all 20 units
		b1 := e.Preference()

		// peer prefers a sibling of b1 we have not seen.
		other := encodeBlock(vm.genesis().id, 1, 999)
		otherID := ids.ID(sha256.Sum256(other))
		require.NoError(t, e.Chits(ctx, peer, 1, otherID, otherID, vm.genesis().id, 0))
		getID, asked := snd.gets[otherID]
		require.True(t, asked, "the block is fetched from the voter")
		require.Equal(t, 1, e.polls.Len(), "the poll waits for the parked vote")

		if arrives {
			require.NoError(t, e.Put(ctx, peer, getID, other))
			require.Equal(t, otherID, e.Preference(), "the parked vote was cast: 20 votes for the sibling")
		} else {
			require.NoError(t, e.GetFailed(ctx, peer, getID))
			require.Equal(t, b1, e.Preference(), "the parked vote was dropped")
		}
		require.Equal(t, consensus.DefaultParameters().ConcurrentRepolls, e.polls.Len(),
			"poll 1 is over, and the repolls about the preference are in flight")
	}
}

// Chits and PullQueries that name a block this engine accepted recently are told from unknown
// blocks without reading the block back from the VM (a real VM reads and decodes the whole
// block), and fetch nothing.
func TestRecentlyAcceptedNeedsNoRead(t *testing.T) {
	vm := newTestVM()
	snd := &recordingSender{}
	peer := ids.NodeID{2}
	p := consensus.Parameters{K: 1, AlphaPreference: 1, AlphaConfidence: 1, Beta: 1,
		ConcurrentRepolls: 1, OptimalProcessing: 10, MaxOutstandingItems: 1, MaxItemProcessingTime: 1}
	e := newEngine(t, Config{Params: p}, testDeps(vm, snd, validators{peer: 1}))
	ctx := t.Context()
	genesis := vm.genesis().id
	vm.work = 1
	require.NoError(t, e.Build(ctx)) // poll 1: b1 pushed to peer
	b1 := e.Preference()
	require.NoError(t, e.Chits(ctx, peer, 1, b1, b1, genesis, 0))
	require.Len(t, vm.accepted, 2, "b1 accepted by the poll")

	reads := vm.getBlocks
	for _, id := range []ids.ID{b1, genesis} {
		require.NoError(t, e.Chits(ctx, peer, 999, id, id, id, 1))
		require.NoError(t, e.PullQuery(ctx, peer, 7, id, 2))
	}
	require.Equal(t, reads, vm.getBlocks, "no block read back")
	require.Empty(t, snd.gets, "nothing fetched")

	// A block accepted longer ago than the engine remembers is still known, from the VM.
	e.accepted = recentIDs{}
	require.NoError(t, e.PullQuery(ctx, peer, 8, b1, 2))
	require.Equal(t, reads+1, vm.getBlocks)
	require.Empty(t, snd.gets)
}

// recentIDs remembers the last recentAccepted IDs added, and forgets the older ones.
func TestRecentIDs(t *testing.T) {
	var r recentIDs
	id := func(i int) ids.ID { return ids.ID{byte(i), byte(i >> 8)} }
	for i := range recentAccepted + 10 {
		r.add(id(i))
	}
	for i := range 10 {
		require.False(t, r.has(id(i)), "%d forgotten", i)
	}
	for i := 10; i < recentAccepted+10; i++ {
		require.True(t, r.has(id(i)), "%d remembered", i)
	}
	require.Len(t, r.set, recentAccepted)
}
