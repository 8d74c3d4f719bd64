package snowman_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/consensus/snowman"
	"github.com/cornice-node/cornice/ids"
)

// FuzzRecordPoll runs a program of adds and polls read from the input against a Consensus and
// checks its invariants after every step: acceptance follows the chain from the last accepted
// block, nothing is decided twice or both ways, the processing blocks hang from the last
// accepted one, and the preference is on the preferred chain.
func FuzzRecordPoll(f *testing.F) {
	f.Add([]byte{3, 2, 1, 0, 0, 0, 0, 1, 1, 0x80, 1, 0x80, 1, 0x81})
	f.Add([]byte{5, 3, 2, 0, 0, 0, 1, 0, 1, 0, 2, 0x82, 0x82, 0x83, 0x82, 0x84, 0x80})
	f.Add([]byte{1, 1, 1, 0, 0, 0x80, 0x80, 0x80})
	f.Fuzz(func(t *testing.T, program []byte) {
		if len(program) < 3 || len(program) > 512 {
			return // longer programs find nothing shorter ones do not, at quadratic cost
		}
		k := 1 + int(program[0])%8
		alphaP := k/2 + 1 + int(program[1])%(k-k/2)
		beta := 1 + int(program[2])%4
		p := params(k, alphaP, beta)
		p.AlphaConfidence = alphaP + int(program[1]/8)%(k-alphaP+1)
		c, err := snowman.New(p, genesis.ID, genesis.Height)
		require.NoError(t, err)

		known := []snowman.Block{genesis} // every block made, decided or not
		decided := map[ids.ID]string{genesis.ID: "accepted"}
		added := 0
		for i := 3; i < len(program); i++ {
			op := program[i]
			if op&0x80 == 0 { // add a child of a known block
				parent := known[int(op)%len(known)]
				b := snowman.Block{ID: genesis.ID.Prefix(uint64(len(known))), Parent: parent.ID, Height: parent.Height + 1}
				known = append(known, b)
				err := c.Add(b)
				if errors.Is(err, snowman.ErrUnknownParent) || errors.Is(err, snowman.ErrDecidedHeight) {
					decided[b.ID] = "dropped"
				} else {
					require.NoError(t, err)
					added++
				}
			} else { // a poll: the next byte's votes go to the low bits' block, the rest elsewhere
				var votes snowman.Votes
				n := 1 + int(op&0x7f)%k
				target := known[int(op&0x7f)%len(known)]
				votes.Add(target.ID, n)
				if i+1 < len(program) && n < k {
					i++
					votes.Add(known[int(program[i])%len(known)].ID, 1+int(program[i])%(k-n))
				}
				lastID, lastHeight := c.LastAccepted()
				res, err := c.RecordPoll(votes)
				require.NoError(t, err)
				for _, b := range res.Accepted {
					require.Equal(t, lastID, b.Parent, "accepted out of chain")
					require.Equal(t, lastHeight+1, b.Height)
					lastID, lastHeight = b.ID, b.Height
					require.Empty(t, decided[b.ID], "decided twice")
					decided[b.ID] = "accepted"
				}
				gotID, gotHeight := c.LastAccepted()
				require.Equal(t, lastID, gotID)
				require.Equal(t, lastHeight, gotHeight)
				for _, b := range res.Rejected {
					require.Empty(t, decided[b.ID], "decided twice")
					decided[b.ID] = "rejected"
					require.False(t, c.Processing(b.ID))
				}
				added -= len(res.Accepted) + len(res.Rejected)
			}
			checkInvariants(t, c, known, decided, added)
		}
	})
}

func checkInvariants(t *testing.T, c *snowman.Consensus, known []snowman.Block, decided map[ids.ID]string, processing int) {
	require.Equal(t, processing, c.NumProcessing())
	lastID, lastHeight := c.LastAccepted()
	for _, b := range known {
		if !c.Processing(b.ID) {
			continue
		}
		require.Empty(t, decided[b.ID], "a decided block is processing")
		require.Greater(t, b.Height, lastHeight)
		// Walk to the last accepted block through processing parents only.
		for id := b.ID; id != lastID; {
			parent, ok := c.Parent(id)
			require.True(t, ok, "a processing block does not hang from the last accepted one")
			id = parent
		}
	}
	pref := c.Preference()
	require.True(t, pref == lastID || c.Processing(pref))
	require.True(t, c.IsPreferred(pref))
	// The preferred chain is whole: one block at each height from the last accepted to the
	// preference, each the parent of the next.
	for id := pref; id != lastID; {
		parent, _ := c.Parent(id)
		require.True(t, c.IsPreferred(parent))
		id = parent
	}
}

// FuzzPolls runs a program of new polls, votes and drops against a Polls and checks that
// results come back oldest first, one per poll, each with no more votes than its sample's units,
// all of them for blocks the poll's voters named.
func FuzzPolls(f *testing.F) {
	f.Add([]byte{0, 7, 1, 2, 1, 3, 0, 5, 2, 0, 1, 2})
	f.Add([]byte{0, 255, 0, 1, 1, 1, 1, 2, 2, 1, 2, 3})
	f.Fuzz(func(t *testing.T, program []byte) {
		blocks := []ids.ID{ids.FromName("a"), ids.FromName("b"), ids.FromName("c")}
		s := snowman.NewPolls(ancestry{blocks[0]: genesis.ID, blocks[1]: blocks[0], blocks[2]: genesis.ID})
		type added struct {
			requestID uint32
			units     int
		}
		var queue []added
		var next uint32
		for i := 0; i+1 < len(program); i += 2 {
			op, arg := program[i]%3, program[i+1]
			var results []snowman.Votes
			switch op {
			case 0: // a poll of the nodes in arg's bits, node 0 drawn twice
				sample := make(map[ids.NodeID]int)
				units := 0
				for b := range 8 {
					if arg&(1<<b) != 0 {
						sample[ids.NodeID{byte(b)}] = 1 + b%2
						units += 1 + b%2
					}
				}
				if units == 0 {
					continue
				}
				next++
				k := units
				alphaP := k/2 + 1
				require.NoError(t, s.Add(next, quorum(k, alphaP, max(alphaP, k-int(arg)%2)), sample))
				queue = append(queue, added{next, units})
			case 1: // node arg%8 answers poll arg/8 for block arg%3
				results = s.Vote(next-uint32(arg/8)%max(next, 1), ids.NodeID{arg % 8}, blocks[arg%3])
			case 2:
				results = s.Drop(next-uint32(arg/8)%max(next, 1), ids.NodeID{arg % 8})
			}
			require.LessOrEqual(t, len(results), len(queue))
			for _, r := range results {
				require.LessOrEqual(t, r.Total(), queue[0].units)
				for id := range r.All() {
					require.Contains(t, blocks, id)
				}
				queue = queue[1:]
			}
			require.Equal(t, len(queue), s.Len())
		}
	})
}
