package snowman

import (
	"fmt"
	"slices"

	"github.com/cornice-node/cornice/ids"
)

// Ancestry gives the parent of a processing block; Consensus is one. A poll uses it to count
// votes transitively when it decides whether it can end early.
type Ancestry interface {
	// Parent returns blockID's parent if blockID is processing.
	Parent(blockID ids.ID) (ids.ID, bool)
}

// Polls holds the polls in flight, by request ID, and gives their results back in the order
// the polls were made, which is the order Consensus.RecordPoll must see them in (§2.4 step 4,
// the reference's poll set). A poll ends when every sampled validator has answered or been
// dropped, or earlier when no answer still due can change its outcome (§2.6). It is pure: the
// engine feeds it the replies, the failures and the timeouts it sees.
type Polls struct {
	ancestry Ancestry
	// pending are the unfinished polls and the finished ones waiting for an older poll, oldest
	// first.
	pending []*poll
}

// poll is one query of a sample of stake units.
type poll struct {
	requestID      uint32
	alphaP, alphaC int
	// due maps each sampled validator that has not answered to the number of units it holds
	// in the sample; remaining is their sum.
	due       map[ids.NodeID]int
	remaining int
	votes     Votes
	finished  bool
}

// NewPolls returns an empty set whose polls count votes through a.
func NewPolls(a Ancestry) *Polls {
	return &Polls{ancestry: a}
}

// Len returns the number of polls not yet given back.
func (s *Polls) Len() int { return len(s.pending) }

// Add starts a poll of sample, the validators drawn for requestID with the number of units each
// was drawn (sampler.Weighted), under p's αp and αc. It refuses a request ID in use.
func (s *Polls) Add(requestID uint32, p Parameters, sample map[ids.NodeID]int) error {
	if slices.ContainsFunc(s.pending, func(q *poll) bool { return q.requestID == requestID }) {
		return fmt.Errorf("add poll %d: %w", requestID, ErrDuplicatePoll)
	}
	q := &poll{requestID: requestID, alphaP: p.AlphaPreference, alphaC: p.AlphaConfidence, due: make(map[ids.NodeID]int, len(sample))}
	for nodeID, n := range sample {
		if n > 0 {
			q.due[nodeID] = n
			q.remaining += n
		}
	}
	s.pending = append(s.pending, q)
	return nil
}

// Vote records nodeID's answer to requestID: a vote for blockID, counted once per unit nodeID
// holds in the sample. The engine gives the processing block the answer resolves to (§2.4 step
// 3). An answer from a validator that was not sampled, or that answered already, is ignored.
// Vote returns the results of the polls that are now finished and whose elders are all given
// back, oldest first.
func (s *Polls) Vote(requestID uint32, nodeID ids.NodeID, blockID ids.ID) []Votes {
	if q, n := s.take(requestID, nodeID); q != nil {
		q.votes.Add(blockID, n)
	}
	return s.finished()
}

// Drop records that nodeID will not answer requestID (its query failed or timed out, or its
// answer resolved to no processing block), and returns the polls now finished, as Vote does.
func (s *Polls) Drop(requestID uint32, nodeID ids.NodeID) []Votes {
	s.take(requestID, nodeID)
	return s.finished()
}

// take removes nodeID from the validators requestID still waits for and returns the poll and
// nodeID's units, or nil if nothing waits for this answer.
func (s *Polls) take(requestID uint32, nodeID ids.NodeID) (*poll, int) {
	i := slices.IndexFunc(s.pending, func(q *poll) bool { return q.requestID == requestID })
	if i < 0 || s.pending[i].finished {
		return nil, 0
	}
	q := s.pending[i]
	n, ok := q.due[nodeID]
	if !ok {
		return nil, 0
	}
	delete(q.due, nodeID)
	q.remaining -= n
	return q, n
}

// finished gives back the polls at the front that have finished.
func (s *Polls) finished() []Votes {
	var out []Votes
	for len(s.pending) > 0 && s.pending[0].done(s.ancestry) {
		out = append(out, s.pending[0].votes)
		s.pending = s.pending[1:]
	}
	// A poll behind an unfinished one may be done already: freeze it, so that late answers do
	// not change a result its outcome no longer depended on.
	for _, q := range s.pending {
		q.done(s.ancestry)
	}
	return out
}

// done reports whether the poll is over (§2.6): nobody is due; or αp is out of reach even with
// every answer due; or, counting votes transitively, every block and every group of sibling
// blocks that share a prefix of their IDs (what the snowball tree votes on) is settled, its
// count below αp for good, or at αc, or at αp with αc out of reach.
func (q *poll) done(a Ancestry) bool {
	if q.finished {
		return true
	}
	r := q.remaining
	switch {
	case r == 0, q.votes.Total()+r < q.alphaP:
		q.finished = true
	case r >= q.alphaP:
		// A block nobody has voted for yet could still reach αp.
	default:
		q.finished = q.settled(a)
	}
	return q.finished
}

func (q *poll) settled(a Ancestry) bool {
	r := q.remaining
	decided := func(v int) bool {
		return v+r < q.alphaP || v >= q.alphaC || (v >= q.alphaP && v+r < q.alphaC)
	}
	// Votes per instance (the parent's ID) per child, counted transitively. A block whose
	// parent is unknown (it is not processing) forms a group of its own.
	var orphans ids.ID
	instances := make(map[ids.ID]map[ids.ID]int)
	for blockID, n := range q.votes.All() {
		for id := blockID; ; {
			parent, ok := a.Parent(id)
			key := parent
			if !ok {
				key = orphans
			}
			if instances[key] == nil {
				instances[key] = make(map[ids.ID]int)
			}
			instances[key][id] += n
			if !ok {
				break
			}
			id = parent
		}
	}
	for _, children := range instances {
		for _, v := range prefixGroups(children) {
			if !decided(v) {
				return false
			}
		}
	}
	return true
}

// prefixGroups returns the vote count of every group of children that share a prefix of their
// ID bits, single children and the whole set included: the counts the snowball tree's nodes
// would see.
func prefixGroups(children map[ids.ID]int) []int {
	var sums []int
	for c, v := range children {
		// The others, by the first bit where they leave c's prefix, longest shared prefix first.
		type other struct {
			diff, votes int
		}
		var others []other
		for c2, v2 := range children {
			if c2 != c {
				d, _ := firstDifference(0, numBits, c, c2)
				others = append(others, other{d, v2})
			}
		}
		slices.SortFunc(others, func(x, y other) int { return y.diff - x.diff })
		sum := v
		sums = append(sums, sum)
		for i, o := range others {
			sum += o.votes
			if i+1 == len(others) || others[i+1].diff != o.diff {
				sums = append(sums, sum)
			}
		}
	}
	return sums
}
