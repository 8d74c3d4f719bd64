package snowman_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/consensus/snowman"
	"github.com/cornice-node/cornice/ids"
)

// The cases below are those of the reference's shared Snowman suite
// (snow/consensus/snowman/consensus_test.go; network-consensus-warp.md §2.5), written again
// against this package: same trees, same polls, same expected states.

var genesis = snowman.Block{ID: ids.FromName("genesis"), Height: 0}

// chain makes blocks with distinct IDs.
type chain struct{ n uint64 }

func (c *chain) child(parent snowman.Block) snowman.Block {
	c.n++
	return snowman.Block{ID: genesis.ID.Prefix(c.n), Parent: parent.ID, Height: parent.Height + 1}
}

// params returns parameters with k, αp = αc = alpha and beta, and 1 for the rest.
func params(k, alpha, beta int) snowman.Parameters {
	return snowman.Parameters{K: k, AlphaPreference: alpha, AlphaConfidence: alpha, Beta: beta,
		ConcurrentRepolls: 1, OptimalProcessing: 1, MaxOutstandingItems: 1, MaxItemProcessingTime: 1}
}

func newConsensus(t *testing.T, p snowman.Parameters) *snowman.Consensus {
	t.Helper()
	c, err := snowman.New(p, genesis.ID, genesis.Height)
	require.NoError(t, err)
	return c
}

// tree makes a consensus with parameters p and adds one block per entry of parents, in order:
// block i is the child of block parents[i], an earlier one, or of genesis when parents[i] is -1.
// The blocks' indexes are the labels of the drawings in the tests.
func tree(t *testing.T, p snowman.Parameters, parents ...int) (*snowman.Consensus, []snowman.Block) {
	t.Helper()
	c := newConsensus(t, p)
	var ch chain
	blocks := make([]snowman.Block, len(parents))
	for i, parent := range parents {
		if parent < 0 {
			blocks[i] = ch.child(genesis)
		} else {
			blocks[i] = ch.child(blocks[parent])
		}
		add(t, c, blocks[i])
	}
	return c, blocks
}

func add(t *testing.T, c *snowman.Consensus, blocks ...snowman.Block) {
	t.Helper()
	for _, b := range blocks {
		require.NoError(t, c.Add(b))
	}
}

func poll(t *testing.T, c *snowman.Consensus, votes ...snowman.Block) snowman.PollResult {
	t.Helper()
	v := snowman.Votes{}
	for _, b := range votes {
		v.Add(b.ID, 1)
	}
	res, err := c.RecordPoll(v)
	require.NoError(t, err)
	return res
}

// outcome is what a poll should decide and the state it should leave: accepted in order of
// height, rejected in any order, nil for none.
type outcome struct {
	accepted, rejected []snowman.Block
	processing         int
	preference         snowman.Block
}

// requirePoll records a poll of one vote for each of votes and checks its outcome.
func requirePoll(t *testing.T, c *snowman.Consensus, want outcome, votes ...snowman.Block) snowman.PollResult {
	t.Helper()
	res := poll(t, c, votes...)
	if want.accepted == nil {
		require.Empty(t, res.Accepted)
	} else {
		require.Equal(t, want.accepted, res.Accepted)
	}
	require.ElementsMatch(t, want.rejected, res.Rejected)
	require.Equal(t, want.processing, c.NumProcessing())
	require.Equal(t, want.preference.ID, c.Preference())
	return res
}

func TestInitialize(t *testing.T) {
	c := newConsensus(t, params(1, 1, 3))
	require.Equal(t, genesis.ID, c.Preference())
	require.Zero(t, c.NumProcessing())
	id, h := c.LastAccepted()
	require.Equal(t, genesis.ID, id)
	require.Zero(t, h)
}

func TestNewRefusesInvalidParameters(t *testing.T) {
	_, err := snowman.New(params(2, 1, 1), genesis.ID, 0)
	require.ErrorIs(t, err, snowman.ErrParametersInvalid)
}

func TestNumProcessing(t *testing.T) {
	var ch chain
	c := newConsensus(t, params(1, 1, 1))
	b := ch.child(genesis)
	require.Zero(t, c.NumProcessing())
	add(t, c, b)
	require.Equal(t, 1, c.NumProcessing())
	res := poll(t, c, b)
	require.Zero(t, c.NumProcessing())
	require.Equal(t, []snowman.Block{b}, res.Accepted)
}

func TestAddRefusals(t *testing.T) {
	c, bs := tree(t, params(1, 1, 3), -1)
	b := bs[0]

	tests := []struct {
		name    string
		block   snowman.Block
		wantErr error
	}{
		{"unknown parent", snowman.Block{ID: ids.FromName("x"), Parent: ids.FromName("nobody"), Height: 2}, snowman.ErrUnknownParent},
		{"processing block again", b, snowman.ErrDuplicateAdd},
		// The reference refuses the accepted genesis too (ErrorOnAddDecidedBlock).
		{"last accepted block", genesis, snowman.ErrDuplicateAdd},
		{"decided height", snowman.Block{ID: ids.FromName("y"), Parent: genesis.ID, Height: 0}, snowman.ErrDecidedHeight},
		{"height not parent's plus one", snowman.Block{ID: ids.FromName("z"), Parent: b.ID, Height: 5}, snowman.ErrHeight},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.ErrorIs(t, c.Add(tt.block), tt.wantErr)
			require.Equal(t, 1, c.NumProcessing())
		})
	}
}

// status is what the consensus says of one block: the reference suite's status checks.
type status struct {
	processing, preferred bool
	// atHeight is the preference at the block's height; ids.Empty when there is none.
	atHeight ids.ID
}

func statusOf(c *snowman.Consensus, b snowman.Block) status {
	atHeight, _ := c.PreferenceAtHeight(b.Height)
	return status{processing: c.Processing(b.ID), preferred: c.IsPreferred(b.ID), atHeight: atHeight}
}

func TestStatus(t *testing.T) {
	var ch chain
	first, second := ch.child(genesis), ch.child(genesis)
	tests := []struct {
		name string
		// added are added, then one vote for each of polled is polled (β = 1).
		added, polled []snowman.Block
		of            snowman.Block
		want          status
	}{
		{name: "previously accepted", of: genesis, want: status{preferred: true, atHeight: genesis.ID}},
		{name: "unissued", of: first, want: status{}},
		{name: "issued to the tail", added: []snowman.Block{first}, of: first, want: status{processing: true, preferred: true, atHeight: first.ID}},
		// A block beside the preference does not move it.
		{name: "issued beside the tail", added: []snowman.Block{first, second}, of: second, want: status{processing: true, atHeight: first.ID}},
		// The height is the last accepted block's.
		{name: "previously rejected", added: []snowman.Block{first, second}, polled: []snowman.Block{first}, of: second, want: status{atHeight: first.ID}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newConsensus(t, params(1, 1, 1))
			add(t, c, tt.added...)
			if tt.polled != nil {
				poll(t, c, tt.polled...)
			}
			require.Equal(t, tt.want, statusOf(c, tt.of))
			if len(tt.added) > 0 {
				require.Equal(t, tt.added[0].ID, c.Preference(), "the first block added is preferred")
			}
		})
	}
}

func TestStatusParent(t *testing.T) {
	c, bs := tree(t, params(1, 1, 3), -1)
	parent, ok := c.Parent(bs[0].ID)
	require.True(t, ok)
	require.Equal(t, genesis.ID, parent)
}

func TestAddToRejected(t *testing.T) {
	c, bs := tree(t, params(1, 1, 1), -1, -1)
	accepted, rejected := bs[0], bs[1]
	res := poll(t, c, accepted)
	require.Equal(t, []snowman.Block{rejected}, res.Rejected)
	child := snowman.Block{ID: ids.FromName("child"), Parent: rejected.ID, Height: rejected.Height + 1}
	require.ErrorIs(t, c.Add(child), snowman.ErrUnknownParent)
}

func TestRecordPollAcceptSingleBlock(t *testing.T) {
	c, bs := tree(t, params(1, 1, 2), -1)
	b := bs[0]

	res := requirePoll(t, c, outcome{processing: 1, preference: b}, b)
	require.True(t, res.Successful)
	requirePoll(t, c, outcome{accepted: []snowman.Block{b}, preference: b}, b)
}

func TestRecordPollAcceptAndReject(t *testing.T) {
	c, bs := tree(t, params(1, 1, 2), -1, -1)
	first, second := bs[0], bs[1]

	requirePoll(t, c, outcome{processing: 2, preference: first}, first)
	requirePoll(t, c, outcome{accepted: []snowman.Block{first}, rejected: []snowman.Block{second}, preference: first}, first)
}

// Two votes split between two blocks that share their first bit: the first poll succeeds on
// the shared bits, the second changes nothing and fails.
func TestRecordPollSplitVoteNoChange(t *testing.T) {
	var ch chain
	c := newConsensus(t, params(2, 2, 1))
	first, second := ch.child(genesis), ch.child(genesis)
	for first.ID[0]&1 != second.ID[0]&1 {
		second = ch.child(genesis)
	}
	add(t, c, first, second)

	for i, wantSuccessful := range []bool{true, false} {
		res := requirePoll(t, c, outcome{processing: 2, preference: first}, first, second)
		require.Equal(t, wantSuccessful, res.Successful, "poll %d", i)
	}
}

func TestRecordPollWhenFinalized(t *testing.T) {
	c := newConsensus(t, params(1, 1, 1))
	requirePoll(t, c, outcome{preference: genesis}, genesis)
}

func TestRecordPollRejectTransitively(t *testing.T) {
	c, bs := tree(t, params(1, 1, 1), -1, -1, 1)
	b0, b1, b2 := bs[0], bs[1], bs[2]
	//   G
	//  / \
	// 0   1
	//     |
	//     2
	requirePoll(t, c, outcome{accepted: []snowman.Block{b0}, rejected: []snowman.Block{b1, b2}, preference: b0}, b0)
}

func TestRecordPollTransitivelyResetConfidence(t *testing.T) {
	c, bs := tree(t, params(1, 1, 2), -1, -1, 1, 1)
	b0, b1, b2, b3 := bs[0], bs[1], bs[2], bs[3]
	//   G
	//  / \
	// 0   1
	//    / \
	//   2   3
	undecided := outcome{processing: 4, preference: b2}
	requirePoll(t, c, undecided, b2)
	requirePoll(t, c, undecided) // an empty poll: every instance falters
	requirePoll(t, c, undecided, b2)

	// G's instance has 2 polls for 1 in a row. The reference suite expects 3 to be preferred
	// already. By the snowball rule of §2.5 (the preference is the choice with the most
	// successful polls) 2 keeps it, two polls to one, until 3 finalizes on the next poll; the
	// decisions are the same.
	requirePoll(t, c, outcome{accepted: []snowman.Block{b1}, rejected: []snowman.Block{b0}, processing: 2, preference: b2}, b3)
	requirePoll(t, c, outcome{accepted: []snowman.Block{b3}, rejected: []snowman.Block{b2}, preference: b3}, b3)
}

func TestRecordPollInvalidVote(t *testing.T) {
	c, bs := tree(t, params(1, 1, 2), -1)
	b := bs[0]

	poll(t, c, b)
	res, err := c.RecordPoll(snowman.VotesOf(ids.FromName("unknown")))
	require.NoError(t, err)
	require.False(t, res.Successful)
	// The unknown vote broke the run of successful polls.
	requirePoll(t, c, outcome{processing: 1, preference: b}, b)
}

func TestRecordPollTransitiveVoting(t *testing.T) {
	c, bs := tree(t, params(3, 3, 1), -1, 0, 1, 0, 3)
	b0, b1, b2, b3, b4 := bs[0], bs[1], bs[2], bs[3], bs[4]
	//   G
	//   |
	//   0
	//  / \
	// 1   3
	// |   |
	// 2   4
	// 3 votes reach 0 transitively.
	requirePoll(t, c, outcome{accepted: []snowman.Block{b0}, processing: 4, preference: b2}, b0, b2, b4)
	requirePoll(t, c, outcome{accepted: []snowman.Block{b1, b2}, rejected: []snowman.Block{b3, b4}, preference: b2}, b2, b2, b2)
}

// Blocks 0 and 1 share their first bit and 2 does not. A vote for 3 counts for 2 at G's
// instance, but the side of 0 and 1 has had as many successful polls on that bit, so 0 keeps the
// preference, and nothing is decided.
func TestRecordPollDivergedVoting(t *testing.T) {
	c := newConsensus(t, params(1, 1, 2))
	b0 := snowman.Block{ID: ids.ID{0x06}, Parent: genesis.ID, Height: 1}
	b1 := snowman.Block{ID: ids.ID{0x08}, Parent: genesis.ID, Height: 1}
	b2 := snowman.Block{ID: ids.ID{0x01}, Parent: genesis.ID, Height: 1}
	var ch chain
	b3 := ch.child(b2)
	add(t, c, b0, b1)
	poll(t, c, b0)
	add(t, c, b2, b3)
	require.Equal(t, b0.ID, c.Preference())

	requirePoll(t, c, outcome{processing: 4, preference: b0}, b3)
}

func TestRecordPollChangePreferredChain(t *testing.T) {
	c, bs := tree(t, params(1, 1, 10), -1, 0, -1, 2)
	a1, a2, b1, b2 := bs[0], bs[1], bs[2], bs[3]

	requirePreferred := func(chain ...snowman.Block) {
		t.Helper()
		require.Equal(t, chain[len(chain)-1].ID, c.Preference())
		for _, b := range []snowman.Block{a1, a2, b1, b2} {
			require.Equal(t, b.ID == chain[0].ID || b.ID == chain[1].ID, c.IsPreferred(b.ID), "block at height %d", b.Height)
		}
		for _, b := range chain {
			pref, ok := c.PreferenceAtHeight(b.Height)
			require.True(t, ok)
			require.Equal(t, b.ID, pref)
		}
	}
	requirePreferred(a1, a2)

	poll(t, c, b2)
	requirePreferred(b1, b2)

	poll(t, c, a1)
	poll(t, c, a1)
	requirePreferred(a1, a2)
}

func TestLastAccepted(t *testing.T) {
	// Block 2 conflicts with 1, and 3 is 1's child.
	c, bs := tree(t, params(1, 1, 2), -1, 0, 0, 1)
	b0, b1, b2 := bs[0], bs[1], bs[3]

	for _, step := range []struct {
		vote snowman.Block
		want snowman.Block
	}{
		{b0, genesis},
		{b1, b0},
		{b1, b1},
		{b2, b1},
		{b2, b2},
	} {
		poll(t, c, step.vote)
		id, h := c.LastAccepted()
		require.Equal(t, step.want.ID, id)
		require.Equal(t, step.want.Height, h)
	}
}

func TestRecordPollWithDefaultParameters(t *testing.T) {
	var ch chain
	p := snowman.DefaultParameters()
	c := newConsensus(t, p)
	b1, b2 := ch.child(genesis), ch.child(genesis)
	add(t, c, b1, b2)

	var votes snowman.Votes
	votes.Add(b1.ID, p.AlphaConfidence)
	for range p.Beta {
		require.Equal(t, 2, c.NumProcessing(), "finalized before β polls")
		_, err := c.RecordPoll(votes)
		require.NoError(t, err)
	}
	require.Zero(t, c.NumProcessing())
}

// Votes for a block and for its child must not be counted twice at their ancestors.
func TestRecordPollRegressionInDegree(t *testing.T) {
	c, bs := tree(t, params(3, 2, 1), -1, 0, 1)
	b1, b2, b3 := bs[0], bs[1], bs[2]

	var votes snowman.Votes
	votes.Add(b2.ID, 1)
	votes.Add(b3.ID, 2)
	res, err := c.RecordPoll(votes)
	require.NoError(t, err)
	require.Equal(t, []snowman.Block{b1, b2, b3}, res.Accepted)
}

func TestRecordPollRefusesMoreThanKVotes(t *testing.T) {
	c, bs := tree(t, params(1, 1, 1), -1)
	b := bs[0]
	_, err := c.RecordPoll(snowman.VotesOf(b.ID, b.ID))
	require.ErrorIs(t, err, snowman.ErrTooManyVotes)
	require.Equal(t, 1, c.NumProcessing())
}

// Between αp and αc a poll moves the preference but resets the confidence (§2.5 step 3).
func TestRecordPollPreferenceWithoutConfidence(t *testing.T) {
	var ch chain
	p := params(5, 3, 2)
	p.AlphaConfidence = 4
	c := newConsensus(t, p)
	a, b := ch.child(genesis), ch.child(genesis)
	add(t, c, a, b)

	var strong, weak snowman.Votes
	strong.Add(b.ID, 4)
	weak.Add(b.ID, 3)
	res, err := c.RecordPoll(strong)
	require.NoError(t, err)
	require.Equal(t, b.ID, c.Preference())
	require.Empty(t, res.Accepted)

	_, err = c.RecordPoll(weak) // preference kept, confidence back to 0
	require.NoError(t, err)
	require.Equal(t, b.ID, c.Preference())
	res, err = c.RecordPoll(strong)
	require.NoError(t, err)
	require.Empty(t, res.Accepted, "the weak poll reset the run")
	res, err = c.RecordPoll(strong)
	require.NoError(t, err)
	require.Equal(t, []snowman.Block{b}, res.Accepted)
	require.Equal(t, []snowman.Block{a}, res.Rejected)
}

func TestSetParameters(t *testing.T) {
	c := newConsensus(t, params(1, 1, 3))
	require.ErrorIs(t, c.SetParameters(params(2, 1, 1)), snowman.ErrParametersInvalid)
	require.Equal(t, params(1, 1, 3), c.Parameters())
	require.NoError(t, c.SetParameters(params(1, 1, 1)))

	var ch chain
	b := ch.child(genesis)
	add(t, c, b)
	require.Equal(t, []snowman.Block{b}, poll(t, c, b).Accepted, "β = 1 applies")
}
