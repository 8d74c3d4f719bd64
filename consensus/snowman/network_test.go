package snowman_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/consensus/sampler"
	"github.com/cornice-node/cornice/consensus/snowman"
	"github.com/cornice-node/cornice/ids"
)

// The randomized multi-node simulation of §6.4 (the reference's snow/consensus/snowman
// network_test.go and RandomizedConsistency, written again with stake weights and lossy
// replies). A tree of conflicting blocks is made up front; every node learns the blocks in its
// own random order, parents first, some of them late; each round one node polls K stake units
// of the others (itself included), each sampled validator answering its preference as many
// times as it was drawn unless its reply is lost. Safety: no two nodes ever accept different
// blocks at one height. Liveness: every node ends with nothing processing, all having accepted
// the same chain.

type simNode struct {
	c       *snowman.Consensus
	weight  uint64
	pending []snowman.Block // blocks still to learn, parents before children
}

type network struct {
	t        *testing.T
	rng      *rand.Rand
	nodes    []*simNode
	sampler  *sampler.Weighted
	params   snowman.Parameters
	dropRate float64
	lateRate float64
	// accepted is every block any node accepted, by height: a second ID at a height is a
	// safety failure.
	accepted map[uint64]ids.ID
}

type simConfig struct {
	seed      uint64
	weights   []uint64
	numBlocks int
	params    snowman.Parameters
	dropRate  float64
	// lateRate is the chance that a node learns its next block only in a later round.
	lateRate float64
}

// newNetwork makes the block tree and the nodes.
func newNetwork(t *testing.T, cfg simConfig) *network {
	rng := rand.New(rand.NewPCG(cfg.seed, cfg.seed^0x5eed))
	blocks := []snowman.Block{genesis}
	for i := range cfg.numBlocks {
		parent := blocks[rng.IntN(len(blocks))]
		blocks = append(blocks, snowman.Block{ID: genesis.ID.Prefix(cfg.seed, uint64(i)), Parent: parent.ID, Height: parent.Height + 1})
	}
	blocks = blocks[1:]

	w, err := sampler.NewWeighted(cfg.weights)
	require.NoError(t, err)
	n := &network{t: t, rng: rng, sampler: w, params: cfg.params.ForWeight(w.Total()),
		dropRate: cfg.dropRate, lateRate: cfg.lateRate, accepted: make(map[uint64]ids.ID)}
	for _, weight := range cfg.weights {
		c, err := snowman.New(n.params, genesis.ID, genesis.Height)
		require.NoError(t, err)
		n.nodes = append(n.nodes, &simNode{c: c, weight: weight, pending: shuffleTopologically(rng, blocks)})
	}
	return n
}

// shuffleTopologically returns blocks in a random order that keeps each parent before its
// children.
func shuffleTopologically(rng *rand.Rand, blocks []snowman.Block) []snowman.Block {
	placed := map[ids.ID]bool{genesis.ID: true}
	rest := append([]snowman.Block(nil), blocks...)
	out := make([]snowman.Block, 0, len(blocks))
	for len(rest) > 0 {
		var ready []int
		for i, b := range rest {
			if placed[b.Parent] {
				ready = append(ready, i)
			}
		}
		i := ready[rng.IntN(len(ready))]
		out = append(out, rest[i])
		placed[rest[i].ID] = true
		rest = append(rest[:i], rest[i+1:]...)
	}
	return out
}

// learn adds node's next pending block, as an engine would: a block under a rejected parent or
// at a decided height is dropped.
func (n *network) learn(node *simNode) {
	b := node.pending[0]
	node.pending = node.pending[1:]
	err := node.c.Add(b)
	if errors.Is(err, snowman.ErrUnknownParent) || errors.Is(err, snowman.ErrDecidedHeight) {
		return
	}
	require.NoError(n.t, err)
}

// round lets one node learn a block, or poll.
func (n *network) round() {
	node := n.nodes[n.rng.IntN(len(n.nodes))]
	if len(node.pending) > 0 && n.rng.Float64() >= n.lateRate {
		n.learn(node)
		return
	}
	sample, err := n.sampler.Sample(n.rng, uint64(n.params.K))
	require.NoError(n.t, err)
	var votes snowman.Votes
	for _, i := range sample {
		if n.rng.Float64() < n.dropRate {
			continue
		}
		votes.Add(n.nodes[i].c.Preference(), 1)
	}
	n.recordPoll(node, votes)
}

// recordPoll applies a poll's result at node and checks the blocks it accepted against every
// other node's.
func (n *network) recordPoll(node *simNode, votes snowman.Votes) {
	res, err := node.c.RecordPoll(votes)
	require.NoError(n.t, err)
	for _, b := range res.Accepted {
		if prev, ok := n.accepted[b.Height]; ok {
			require.Equal(n.t, prev, b.ID, "safety: two blocks accepted at height %d", b.Height)
		}
		n.accepted[b.Height] = b.ID
	}
}

// done reports whether every node has learnt every block and has nothing processing.
func (n *network) done() bool {
	for _, node := range n.nodes {
		if len(node.pending) > 0 || node.c.NumProcessing() > 0 {
			return false
		}
	}
	return true
}

// run plays rounds until done, at most maxRounds, and checks agreement.
func (n *network) run(maxRounds int) {
	for rounds := 0; !n.done(); rounds++ {
		require.Less(n.t, rounds, maxRounds, "liveness: not every node finalized")
		n.round()
	}
	n.requireAgreement()
}

// requireAgreement checks that every node's last accepted block is the same.
func (n *network) requireAgreement() {
	first := n.nodes[0].c
	id, height := first.LastAccepted()
	for _, node := range n.nodes[1:] {
		gotID, gotHeight := node.c.LastAccepted()
		require.Equal(n.t, height, gotHeight)
		require.Equal(n.t, id, gotID)
	}
}

func equalWeights(n int, w uint64) []uint64 { return slices.Repeat([]uint64{w}, n) }

// The reference's RandomizedConsistency: 100 nodes of equal weight, 50 blocks, the default
// K, α and β, one poll at a time.
func TestRandomizedConsistency(t *testing.T) {
	p := snowman.DefaultParameters()
	p.ConcurrentRepolls = 1
	n := newNetwork(t, simConfig{seed: 0, weights: equalWeights(100, 1), numBlocks: 50, params: p})
	n.run(1_000_000)
}

func TestNetworkSimulation(t *testing.T) {
	randomWeights := func(seed uint64, n int) []uint64 {
		rng := rand.New(rand.NewPCG(seed, 0))
		ws := make([]uint64, n)
		for i := range ws {
			ws[i] = 1 + rng.Uint64N(1000)
		}
		return ws
	}
	tests := []simulation{
		{"30 weighted nodes, 10% of replies lost", simConfig{weights: randomWeights(1, 30), numBlocks: 40, dropRate: 0.1, lateRate: 0.5}},
		{"5 equal validators", simConfig{weights: equalWeights(5, 2000), numBlocks: 30, dropRate: 0.05, lateRate: 0.5}},
		{"a whale and minnows", simConfig{weights: append(equalWeights(10, 1), 1000), numBlocks: 30, dropRate: 0.1, lateRate: 0.3}},
		// Total weight 5 < K: K becomes 5 and α 4, and the chain still makes progress (§2.2).
		{"total weight below K", simConfig{weights: equalWeights(5, 1), numBlocks: 20, dropRate: 0.02, lateRate: 0.5}},
		{"one validator", simConfig{weights: []uint64{7}, numBlocks: 20, lateRate: 0.5}},
	}
	runSimulations(t, tests, (*network).run)
}

type simulation struct {
	name string
	cfg  simConfig
}

// runSimulations plays each simulation with the default parameters over three seeds, with
// run (network.run or network.runConcurrent) and at most two million rounds.
func runSimulations(t *testing.T, sims []simulation, run func(*network, int)) {
	for _, sim := range sims {
		for seed := uint64(1); seed <= 3; seed++ {
			t.Run(fmt.Sprintf("%s/seed %d", sim.name, seed), func(t *testing.T) {
				t.Parallel()
				cfg := sim.cfg
				cfg.seed = seed
				cfg.params = snowman.DefaultParameters()
				run(newNetwork(t, cfg), 2_000_000)
			})
		}
	}
}

// The same network with the engine's poll bookkeeping: each node keeps up to ConcurrentRepolls
// polls in flight in a Polls; each sampled validator's reply travels on its own, arrives in any
// order (carrying the responder's preference when it arrives) or is lost (a timeout: Drop); the
// results reach RecordPoll in request order. A reply naming a block the querier does not have
// processing is dropped, as the engine drops a vote with no processing ancestor.
type reply struct {
	from      int
	to        *simNode
	polls     *snowman.Polls
	requestID uint32
}

// simNodeID is the NodeID of the simulation's node i.
func simNodeID(i int) ids.NodeID { return ids.NodeID{byte(i), byte(i >> 8)} }

func (n *network) runConcurrent(maxRounds int) {
	polls := make(map[*simNode]*snowman.Polls, len(n.nodes))
	for _, node := range n.nodes {
		polls[node] = snowman.NewPolls(node.c)
	}
	var inFlight []reply
	var nextRequestID uint32
	apply := func(node *simNode, results []snowman.Votes) {
		for _, votes := range results {
			n.recordPoll(node, votes)
		}
	}
	for rounds := 0; !n.done(); rounds++ {
		require.Less(n.t, rounds, maxRounds, "liveness: not every node finalized")
		if len(inFlight) > 0 && n.rng.IntN(2) == 0 {
			i := n.rng.IntN(len(inFlight))
			r := inFlight[i]
			inFlight[i] = inFlight[len(inFlight)-1]
			inFlight = inFlight[:len(inFlight)-1]
			from := simNodeID(r.from)
			pref := n.nodes[r.from].c.Preference()
			if n.rng.Float64() < n.dropRate || !r.to.c.Processing(pref) {
				apply(r.to, r.polls.Drop(r.requestID, from))
			} else {
				apply(r.to, r.polls.Vote(r.requestID, from, pref))
			}
			continue
		}
		node := n.nodes[n.rng.IntN(len(n.nodes))]
		if len(node.pending) > 0 && n.rng.Float64() >= n.lateRate {
			n.learn(node)
			continue
		}
		if polls[node].Len() >= n.params.ConcurrentRepolls {
			continue
		}
		idx, err := n.sampler.Sample(n.rng, uint64(n.params.K))
		require.NoError(n.t, err)
		sampled := make(map[ids.NodeID]int)
		for _, i := range idx {
			sampled[simNodeID(i)]++
		}
		nextRequestID++
		require.NoError(n.t, polls[node].Add(nextRequestID, n.params, sampled))
		for _, i := range idx {
			if sampled[simNodeID(i)] > 0 {
				inFlight = append(inFlight, reply{from: i, to: node, polls: polls[node], requestID: nextRequestID})
				sampled[simNodeID(i)] = 0 // one reply per validator
			}
		}
	}
	n.requireAgreement()
}

func TestNetworkSimulationConcurrentPolls(t *testing.T) {
	runSimulations(t, []simulation{
		{"12 nodes, 10% of replies lost", simConfig{weights: equalWeights(12, 50), numBlocks: 20, dropRate: 0.1, lateRate: 0.5}},
		{"5 equal validators", simConfig{weights: equalWeights(5, 2000), numBlocks: 20, dropRate: 0.05, lateRate: 0.5}},
		{"total weight below K", simConfig{weights: equalWeights(5, 1), numBlocks: 20, lateRate: 0.5}},
	}, (*network).runConcurrent)
}
