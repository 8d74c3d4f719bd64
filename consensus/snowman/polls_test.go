package snowman_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/consensus/snowman"
	"github.com/cornice-node/cornice/ids"
)

// ancestry is a fixed map of processing blocks to their parents.
type ancestry map[ids.ID]ids.ID

func (a ancestry) Parent(id ids.ID) (ids.ID, bool) {
	p, ok := a[id]
	return p, ok
}

func nodeID(i byte) ids.NodeID { return ids.NodeID{i} }

// sample gives each listed node one unit.
func sample(nodes ...byte) map[ids.NodeID]int {
	s := make(map[ids.NodeID]int)
	for _, n := range nodes {
		s[nodeID(n)]++
	}
	return s
}

func quorum(k, alphaP, alphaC int) snowman.Parameters {
	p := params(k, alphaP, 1)
	p.AlphaConfidence = alphaC
	return p
}

var (
	blockA = ids.ID{0x10}
	blockB = ids.ID{0x20} // child of A
)

func TestPollsGiveResultsInRequestOrder(t *testing.T) {
	s := snowman.NewPolls(ancestry{blockA: genesis.ID})
	p := quorum(2, 2, 2)
	require.NoError(t, s.Add(1, p, sample(1, 2)))
	require.NoError(t, s.Add(2, p, sample(1, 2)))
	require.ErrorIs(t, s.Add(2, p, sample(1, 2)), snowman.ErrDuplicatePoll)

	require.Empty(t, s.Vote(2, nodeID(1), blockA))
	require.Empty(t, s.Vote(2, nodeID(2), blockA), "poll 2 is done but poll 1 is not")
	require.Empty(t, s.Vote(1, nodeID(1), blockA))
	results := s.Vote(1, nodeID(2), blockA)
	require.Len(t, results, 2)
	for _, r := range results {
		require.Equal(t, 2, r.Count(blockA))
	}
	require.Zero(t, s.Len())
	require.NoError(t, s.Add(1, p, sample(1, 2)), "a request ID given back can be used again")
}

func TestPollsIgnoreStrayAnswers(t *testing.T) {
	s := snowman.NewPolls(ancestry{blockA: genesis.ID})
	require.NoError(t, s.Add(7, quorum(3, 2, 3), map[ids.NodeID]int{nodeID(1): 2, nodeID(2): 1}))
	require.Empty(t, s.Vote(7, nodeID(9), blockA), "not sampled")
	require.Empty(t, s.Vote(8, nodeID(1), blockA), "no such poll")
	require.Empty(t, s.Vote(7, nodeID(1), blockA))
	require.Empty(t, s.Vote(7, nodeID(1), blockA), "answered already")
	results := s.Drop(7, nodeID(2))
	require.Len(t, results, 1)
	require.Equal(t, 2, results[0].Count(blockA), "a validator drawn twice votes twice")
	require.Equal(t, 2, results[0].Total())
}

// §2.6: a poll ends as soon as no answer still due can change its outcome.
func TestPollsEarlyTermination(t *testing.T) {
	x := ids.ID{0x00} // x and y share their first bit, z does not
	y := ids.ID{0x02}
	z := ids.ID{0x01}
	siblings := ancestry{x: genesis.ID, y: genesis.ID, z: genesis.ID}
	chain := ancestry{blockA: genesis.ID, blockB: blockA}

	type answer struct {
		node  byte
		block ids.ID // zero: the node is dropped
	}
	tests := []struct {
		name     string
		ancestry ancestry
		p        snowman.Parameters
		answers  []answer
		// doneAfter is the number of answers after which the poll is given back.
		doneAfter int
	}{
		{"every answer in", chain, quorum(3, 2, 3), []answer{{1, blockA}, {2, blockB}, {3, blockA}}, 3},
		{"αc reached", chain, quorum(5, 4, 4), []answer{{1, blockA}, {2, blockA}, {3, blockA}, {4, blockA}, {5, blockA}}, 4},
		{"αc still possible", chain, quorum(5, 4, 5), []answer{{1, blockA}, {2, blockA}, {3, blockA}, {4, blockA}, {5, blockA}}, 5},
		{"αp out of reach", chain, quorum(5, 4, 4), []answer{{1, ids.ID{}}, {2, ids.ID{}}, {3, blockA}, {4, blockA}, {5, blockA}}, 2},
		{"αp reached, αc out of reach", chain, quorum(5, 3, 5), []answer{{1, blockA}, {2, blockA}, {3, blockA}, {4, ids.ID{}}, {5, blockA}}, 4},
		{"transitive votes reach αc at the parent", chain, quorum(5, 4, 4), []answer{{1, blockA}, {2, blockB}, {3, blockA}, {4, blockB}, {5, blockB}}, 4},
		// After eight answers x, y and z each stay below αp whatever comes, and the three
		// together are at αc; but x and y, which share a bit, hold 5 together and could reach
		// αp (6) while αc (8) stays out of their reach: the tree's node for that bit is not
		// settled, so the poll waits for the last answer.
		{"a shared prefix keeps the poll open", siblings, quorum(10, 6, 8),
			[]answer{{1, x}, {2, x}, {3, x}, {4, y}, {5, y}, {6, z}, {7, z}, {8, z}, {9, ids.ID{}}, {10, ids.ID{}}}, 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := snowman.NewPolls(tt.ancestry)
			var nodes []byte
			for _, a := range tt.answers {
				nodes = append(nodes, a.node)
			}
			require.NoError(t, s.Add(1, tt.p, sample(nodes...)))
			for i, a := range tt.answers {
				var results []snowman.Votes
				if a.block == (ids.ID{}) {
					results = s.Drop(1, nodeID(a.node))
				} else {
					results = s.Vote(1, nodeID(a.node), a.block)
				}
				if i+1 < tt.doneAfter {
					require.Empty(t, results, "finished after %d answers", i+1)
					continue
				}
				if i+1 == tt.doneAfter {
					require.Len(t, results, 1, "not finished after %d answers", i+1)
				} else {
					require.Empty(t, results, "a late answer after the poll ended")
				}
			}
		})
	}
}
