package snowman

import (
	"crypto/sha256"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/clock"
	consensus "github.com/cornice-node/cornice/consensus/snowman"
	"github.com/cornice-node/cornice/ids"
)

// A block that fails verification here, which its builder keeps processing and names in every
// query, Chits and push, is fetched and verified once: until FailedRetry has passed, neither it
// nor a child of it is fetched or verified again (the busy loop of Get and Put it caused).
// After FailedRetry it is fetched once more, and each further failure doubles the wait, up to
// MaxFailedRetry.
func TestFailedBlockIsNotFetchedAgain(t *testing.T) {
	vm := newTestVM()
	snd := &recordingSender{}
	builder := ids.NodeID{2}
	clk := clock.NewFake(time.Unix(1_000_000, 0))
	d := testDeps(vm, snd, validators{ids.NodeID{1}: 20, builder: 20})
	d.Clock = clk
	e := newEngine(t, Config{Params: consensus.DefaultParameters()}, d)
	ctx := t.Context()
	genesis := vm.genesis().id
	bad := encodeBlock(genesis, 1, 7)
	badID := ids.ID(sha256.Sum256(bad))
	child := encodeBlock(badID, 2, 8)
	vm.invalid = map[ids.ID]bool{badID: true}

	require.NoError(t, e.PullQuery(ctx, builder, 1, badID, 1))
	require.Equal(t, 1, snd.getsSent)
	require.NoError(t, e.Put(ctx, builder, snd.gets[badID], bad))
	require.Equal(t, 1, vm.verifyCalls)
	require.Zero(t, e.NumProcessing())

	for i := range uint32(1000) {
		require.NoError(t, e.PullQuery(ctx, builder, 10+i, badID, 1))
		require.NoError(t, e.Chits(ctx, builder, 10+i, badID, badID, genesis, 0))
		require.NoError(t, e.PushQuery(ctx, builder, 10+i, bad, 1))
		require.NoError(t, e.PushQuery(ctx, builder, 10+i, child, 2))
	}
	require.Equal(t, 1, snd.getsSent, "the failed block is not fetched again")
	require.Equal(t, 1, vm.verifyCalls, "nor verified again, nor its child")
	require.Zero(t, e.NumProcessing())

	clk.Advance(FailedRetry)
	require.NoError(t, e.PullQuery(ctx, builder, 5000, badID, 1))
	require.Equal(t, 2, snd.getsSent, "after FailedRetry it is fetched again")
	require.NoError(t, e.Put(ctx, builder, snd.gets[badID], bad))
	require.Equal(t, 2, vm.verifyCalls)

	// The second failure doubles the wait.
	clk.Advance(FailedRetry)
	require.NoError(t, e.PullQuery(ctx, builder, 5001, badID, 1))
	require.Equal(t, 2, snd.getsSent, "not yet: the wait doubled")
	clk.Advance(FailedRetry)
	require.NoError(t, e.PullQuery(ctx, builder, 5002, badID, 1))
	require.Equal(t, 3, snd.getsSent, "after twice FailedRetry it is fetched again")

	// However many failures, the wait is at most MaxFailedRetry.
	for range 40 {
		e.failedVerification(badID)
	}
	require.True(t, e.failedRecently(badID))
	clk.Advance(MaxFailedRetry)
	require.False(t, e.failedRecently(badID))
}

// At most MaxFailed blocks are remembered: the oldest is forgotten first.
func TestFailedBlocksAreBounded(t *testing.T) {
	vm := newTestVM()
	d := testDeps(vm, &recordingSender{}, validators{ids.NodeID{1}: 20})
	d.Clock = clock.NewFake(time.Unix(1_000_000, 0))
	e := newEngine(t, Config{Params: consensus.DefaultParameters()}, d)
	id := func(i int) ids.ID { return ids.ID{byte(i), byte(i >> 8)} }
	for i := range MaxFailed + 1 {
		e.failedVerification(id(i))
	}
	require.Len(t, e.failed, MaxFailed)
	require.False(t, e.failedRecently(id(0)), "the oldest is forgotten")
	require.True(t, e.failedRecently(id(1)))
	require.True(t, e.failedRecently(id(MaxFailed)))
}
