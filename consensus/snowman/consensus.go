package snowman

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/cornice-node/cornice/ids"
)

// Block is what consensus knows of a block: its ID, its parent's and its height.
type Block struct {
	ID     ids.ID
	Parent ids.ID
	Height uint64
}

// Decisions are the blocks a poll decided. The engine applies Accepted first, in order (each is
// the child of the one before, the first the child of the previous last accepted block), then
// Rejected, in any order.
type Decisions struct {
	Accepted []Block
	Rejected []Block
}

// PollResult is what RecordPoll reports.
type PollResult struct {
	Decisions
	// Successful reports whether any instance got at least αp votes (the reference's
	// polls_successful and polls_failed metrics).
	Successful bool
}

// node is a processing block, or the last accepted one (whose Block is all it keeps of it).
type node struct {
	Block
	children []ids.ID
	// sb is nil until the first child is added.
	sb *tree
	// shouldFalter: a poll went through the parent without choosing this block, so its
	// confidence resets before the next poll that reaches it (§2.5 step 4).
	shouldFalter bool
}

// Consensus is Snowman over one chain's processing blocks (the reference's Topological).
type Consensus struct {
	params Parameters

	// lastAccepted is in blocks too; every other entry is processing.
	lastAccepted *node
	blocks       map[ids.ID]*node

	// preference is the tip of the preferred chain; preferred holds the processing blocks on
	// it and preferredHeights the same by height.
	// Invariant: preferred and preferredHeights hold exactly the processing blocks from
	// lastAccepted (excluded) to preference (included).
	preference       ids.ID
	preferred        map[ids.ID]bool
	preferredHeights map[uint64]ids.ID
}

// New returns Snowman over a chain whose last accepted block is lastAccepted, with nothing
// processing. p must pass Verify; for a small validator set, give p.ForWeight(total).
func New(p Parameters, lastAccepted ids.ID, height uint64) (*Consensus, error) {
	if err := p.Verify(); err != nil {
		return nil, err
	}
	la := &node{Block: Block{ID: lastAccepted, Height: height}}
	return &Consensus{
		params:           p,
		lastAccepted:     la,
		blocks:           map[ids.ID]*node{lastAccepted: la},
		preference:       lastAccepted,
		preferred:        make(map[ids.ID]bool),
		preferredHeights: make(map[uint64]ids.ID),
	}, nil
}

// Parameters returns the parameters in force.
func (c *Consensus) Parameters() Parameters { return c.params }

// SetParameters replaces the parameters, for instance when the validator set's total weight
// changes (Parameters.ForWeight). Confidence already counted is kept; the new β applies from the
// next poll. p must pass Verify.
func (c *Consensus) SetParameters(p Parameters) error {
	if err := p.Verify(); err != nil {
		return err
	}
	c.params = p
	return nil
}

// NumProcessing returns the number of processing blocks.
func (c *Consensus) NumProcessing() int { return len(c.blocks) - 1 }

// Processing reports whether blockID is processing: added, not yet decided.
func (c *Consensus) Processing(blockID ids.ID) bool {
	_, ok := c.blocks[blockID]
	return ok && blockID != c.lastAccepted.ID
}

// Parent returns the parent of a processing block.
func (c *Consensus) Parent(blockID ids.ID) (ids.ID, bool) {
	if !c.Processing(blockID) {
		return ids.ID{}, false
	}
	return c.blocks[blockID].Parent, true
}

// LastAccepted returns the last accepted block's ID and height.
func (c *Consensus) LastAccepted() (ids.ID, uint64) {
	return c.lastAccepted.ID, c.lastAccepted.Height
}

// Preference returns the tip of the preferred chain: a processing block, or the last accepted
// block when nothing is processing.
func (c *Consensus) Preference() ids.ID { return c.preference }

// IsPreferred reports whether blockID is the last accepted block or a processing block on the
// preferred chain. Blocks accepted before the last one are not known here (the chain's store
// knows them).
func (c *Consensus) IsPreferred(blockID ids.ID) bool {
	return blockID == c.lastAccepted.ID || c.preferred[blockID]
}

// PreferenceAtHeight returns the block at height on the preferred chain, the last accepted
// block included.
func (c *Consensus) PreferenceAtHeight(height uint64) (ids.ID, bool) {
	if height == c.lastAccepted.Height {
		return c.lastAccepted.ID, true
	}
	id, ok := c.preferredHeights[height]
	return id, ok
}

// Add adds a verified block whose parent is processing or is the last accepted block. A block
// that extends the preference becomes the preference (§2.5).
func (c *Consensus) Add(b Block) error {
	if _, ok := c.blocks[b.ID]; ok {
		return fmt.Errorf("add block %s: %w", b.ID, ErrDuplicateAdd)
	}
	if b.Height <= c.lastAccepted.Height {
		return fmt.Errorf("add block %s at height %d (last accepted %d): %w", b.ID, b.Height, c.lastAccepted.Height, ErrDecidedHeight)
	}
	parent, ok := c.blocks[b.Parent]
	if !ok {
		return fmt.Errorf("add block %s: parent %s: %w", b.ID, b.Parent, ErrUnknownParent)
	}
	if b.Height != parent.Height+1 {
		return fmt.Errorf("add block %s at height %d on parent %s at %d: %w", b.ID, b.Height, b.Parent, parent.Height, ErrHeight)
	}

	parent.children = append(parent.children, b.ID)
	if parent.sb == nil {
		parent.sb = newTree(&c.params, b.ID)
	} else {
		parent.sb.add(b.ID)
	}
	c.blocks[b.ID] = &node{Block: b}
	if c.preference == b.Parent {
		c.preference = b.ID
		c.preferred[b.ID] = true
		c.preferredHeights[b.Height] = b.ID
	}
	return nil
}

// instanceVotes are the votes of one poll for the children of one block, counted
// transitively.
type instanceVotes struct {
	parent *node
	votes  bag
	total  int
}

// RecordPoll applies a finished poll (§2.5):
//  1. votes for blocks that are not processing are dropped; if fewer than αp votes were
//     given in all, every instance falters;
//  2. a vote for a block counts for each of its processing ancestors, at its parent's
//     instance: the instances with at least αp votes form a path down from the last accepted
//     block, and record the poll from the top, each first resetting its confidence if it was
//     marked to falter; the children of each that the path does not go through are marked;
//  3. whenever the last accepted block's instance has finalized, its preferred child is
//     accepted, its other children and their descendants rejected, and the child is the new
//     last accepted block, so acceptance can cascade down the path;
//  4. the preference is the leaf reached by following preferred children from the deepest
//     block the path preferred.
//
// The votes must number at most K. A poll changes nothing but the state of this Consensus; the
// decisions are returned for the engine to apply.
func (c *Consensus) RecordPoll(votes Votes) (PollResult, error) {
	if votes.Total() > c.params.K {
		return PollResult{}, fmt.Errorf("record poll of %d votes with k = %d: %w", votes.Total(), c.params.K, ErrTooManyVotes)
	}
	var path []instanceVotes
	if votes.Total() >= c.params.AlphaPreference {
		path = c.votePath(votes)
	}
	var res PollResult
	preferred := c.vote(path, &res)
	if !c.preferred[preferred] {
		c.setPreference(preferred)
	}
	return res, nil
}

// votePath counts votes transitively and returns the instances with at least αp of them, the
// last accepted block's first.
func (c *Consensus) votePath(votes Votes) []instanceVotes {
	byParent := make(map[ids.ID]*instanceVotes)
	for blockID, n := range votes.All() {
		for b := c.blocks[blockID]; b != nil && b != c.lastAccepted; b = c.blocks[b.Parent] {
			iv := byParent[b.Parent]
			if iv == nil {
				iv = &instanceVotes{parent: c.blocks[b.Parent], votes: bag{}}
				byParent[b.Parent] = iv
			}
			iv.votes[b.ID] += n
			iv.total += n
		}
	}
	var path []instanceVotes
	for _, iv := range byParent {
		if iv.total >= c.params.AlphaPreference {
			path = append(path, *iv)
		}
	}
	// With at most K votes and αp > K/2, no two siblings both reach αp, so sorting by height
	// gives the path from the top.
	slices.SortFunc(path, func(a, b instanceVotes) int { return cmp.Compare(a.parent.Height, b.parent.Height) })
	return path
}

// vote records the poll on the instances of path, accepting and rejecting as it goes (steps 2
// and 3 of RecordPoll), and returns the deepest block the poll preferred on the preferred
// chain, or the current preference when no instance reached αp.
func (c *Consensus) vote(path []instanceVotes, res *PollResult) ids.ID {
	if len(path) == 0 {
		c.lastAccepted.shouldFalter = true
		return c.preference
	}
	preferred := c.lastAccepted.ID
	onPreferred := true
	for i, iv := range path {
		n := iv.parent
		if _, ok := c.blocks[n.ID]; !ok {
			break // rejected by an acceptance above it on this path
		}
		falter := n.shouldFalter
		if falter {
			n.sb.recordUnsuccessfulPoll()
			n.shouldFalter = false
		}
		if n.sb.recordPoll(iv.votes) {
			res.Successful = true
		}
		if n.sb.finalized() && n == c.lastAccepted {
			c.acceptPreferredChild(n, &res.Decisions)
		}

		pref := n.sb.Preference()
		if onPreferred {
			preferred = pref
		}
		var next ids.ID
		if i+1 < len(path) {
			next = path[i+1].parent.ID
		}
		onPreferred = onPreferred && next == pref
		for _, child := range n.children {
			if !falter && child == next {
				continue
			}
			if cn, ok := c.blocks[child]; ok {
				cn.shouldFalter = true
			}
		}
	}
	return preferred
}

// acceptPreferredChild accepts the preferred child of the last accepted block n and rejects
// its other children with all their descendants.
func (c *Consensus) acceptPreferredChild(n *node, d *Decisions) {
	child := c.blocks[n.sb.Preference()]
	d.Accepted = append(d.Accepted, child.Block)
	delete(c.blocks, n.ID)
	c.lastAccepted = child
	delete(c.preferred, child.ID)
	delete(c.preferredHeights, child.Height)

	var stack []ids.ID
	for _, id := range n.children {
		if id != child.ID {
			stack = append(stack, id)
		}
	}
	for len(stack) > 0 {
		id := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		r := c.blocks[id]
		delete(c.blocks, id)
		delete(c.preferred, id)
		if c.preferredHeights[r.Height] == id {
			delete(c.preferredHeights, r.Height)
		}
		d.Rejected = append(d.Rejected, r.Block)
		stack = append(stack, r.children...)
	}
}

// setPreference makes the preferred chain run through blockID: from the last accepted block up
// to it, then down its preferred children to a leaf.
func (c *Consensus) setPreference(blockID ids.ID) {
	clear(c.preferred)
	clear(c.preferredHeights)
	start := c.blocks[blockID]
	for b := start; b != c.lastAccepted; b = c.blocks[b.Parent] {
		c.preferred[b.ID] = true
		c.preferredHeights[b.Height] = b.ID
	}
	c.preference = blockID
	for b := start; b.sb != nil; {
		c.preference = b.sb.Preference()
		b = c.blocks[c.preference]
		c.preferred[b.ID] = true
		c.preferredHeights[b.Height] = b.ID
	}
}
