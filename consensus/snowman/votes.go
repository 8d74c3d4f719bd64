package snowman

import (
	"iter"
	"maps"

	"github.com/cornice-node/cornice/ids"
)

// Votes is a poll's result: how many sampled stake units voted for each block. A validator
// sampled n times votes n times (§2.2). The zero value is empty and ready to use.
type Votes struct {
	counts map[ids.ID]int
	total  int
}

// VotesOf returns one vote for each ID given, so a repeated ID counts as many times.
func VotesOf(blockIDs ...ids.ID) Votes {
	var v Votes
	for _, id := range blockIDs {
		v.Add(id, 1)
	}
	return v
}

// Add counts n more votes for blockID; n ≤ 0 adds nothing.
func (v *Votes) Add(blockID ids.ID, n int) {
	if n <= 0 {
		return
	}
	if v.counts == nil {
		v.counts = make(map[ids.ID]int)
	}
	v.counts[blockID] += n
	v.total += n
}

// Count returns the votes for blockID.
func (v Votes) Count(blockID ids.ID) int { return v.counts[blockID] }

// Total returns the number of votes.
func (v Votes) Total() int { return v.total }

// Clone returns a copy that does not share v's storage.
func (v Votes) Clone() Votes {
	return Votes{counts: maps.Clone(v.counts), total: v.total}
}

// All yields every block with votes and its count, in no particular order.
func (v Votes) All() iter.Seq2[ids.ID, int] {
	return maps.All(v.counts)
}
