package processing

import (
	"context"
	"fmt"
	"sync"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/ids"
)

// ChainBlock is a UTXO chain's block as its Chain keeps it.
type ChainBlock interface {
	chains.Block
}

// Store is how a Chain reads its VM's accepted blocks and makes blocks from bytes.
type Store[B ChainBlock] struct {
	// Block returns accepted block id from the VM's state; found is false when there is none.
	Block func(id ids.ID) (b B, found bool, err error)
	// BlockIDAt returns the ID of the accepted block at height.
	BlockIDAt func(height uint64) (id ids.ID, found bool, err error)
	// Parse decodes block bytes into a block, not verified.
	Parse func(b []byte) (B, error)
}

// Chain is the part of a UTXO chain's VM that answers chains.VM the same way on the X- and
// P-Chains: the last accepted block, the processing blocks with the views V they leave (a Tree)
// and the preference, the lookups by ID, height and bytes, and the channel that tells the
// pipeline there is work. The VM embeds it, so its chains.VM methods (LastAccepted, GetBlock,
// GetBlockIDAtHeight, ParseBlock, SetPreference, WorkReady) are the Chain's.
//
// A Chain is safe for concurrent use. Its lock is taken inside the VM's own (never the other way
// round), so a VM holding its lock sees the last accepted block stay put while it reads its
// mempool.
type Chain[B ChainBlock, V any] struct {
	store    Store[B]
	accepted V
	work     chan struct{}

	mu sync.Mutex // guards the fields below
	// last is the last accepted block.
	last B
	tree Tree[B, V]
}

// NewChain returns the Chain of a VM whose last accepted block is last and whose accepted state
// reads as the view accepted, with nothing processing.
func NewChain[B ChainBlock, V any](store Store[B], last B, accepted V) *Chain[B, V] {
	return &Chain[B, V]{store: store, accepted: accepted, work: make(chan struct{}, 1), last: last}
}

// Last returns the last accepted block.
func (c *Chain[B, V]) Last() B {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.last
}

// LastAccepted implements chains.VM.
func (c *Chain[B, V]) LastAccepted(context.Context) (ids.ID, error) { return c.Last().ID(), nil }

// GetBlock implements chains.Getter: a processing or an accepted block.
func (c *Chain[B, V]) GetBlock(_ context.Context, id ids.ID) (chains.Block, error) {
	if b, ok := c.ProcessingBlock(id); ok {
		return b, nil
	}
	b, found, err := c.store.Block(id)
	switch {
	case err != nil:
		return nil, err
	case !found:
		return nil, chains.ErrBlockNotFound
	}
	return b, nil
}

// GetBlockIDAtHeight implements chains.VM.
func (c *Chain[B, V]) GetBlockIDAtHeight(_ context.Context, height uint64) (ids.ID, error) {
	id, found, err := c.store.BlockIDAt(height)
	switch {
	case err != nil:
		return ids.ID{}, err
	case !found:
		return ids.ID{}, chains.ErrBlockNotFound
	}
	return id, nil
}

// ParseBlock implements chains.Parser; a processing block is returned as it is.
func (c *Chain[B, V]) ParseBlock(_ context.Context, b []byte) (chains.Block, error) {
	blk, err := c.store.Parse(b)
	if err != nil {
		return nil, fmt.Errorf("parse block: %w", err)
	}
	if p, ok := c.ProcessingBlock(blk.ID()); ok {
		return p, nil
	}
	return blk, nil
}

// SetPreference implements chains.Builder: the VM builds on block id next.
func (c *Chain[B, V]) SetPreference(_ context.Context, id ids.ID) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.tree.Prefer(id, c.last) {
		return fmt.Errorf("prefer block %s: %w", id, chains.ErrBlockNotFound)
	}
	return nil
}

// WorkReady implements chains.VM.
func (c *Chain[B, V]) WorkReady() <-chan struct{} { return c.work }

// Signal tells the pipeline there is work: txs to build a block from, or a timed change due.
func (c *Chain[B, V]) Signal() {
	select {
	case c.work <- struct{}{}:
	default:
	}
}

// ParentOf returns the block id names if a block can be built or verified on it: the last
// accepted block, with the accepted state's view, or a processing block with the view it leaves.
func (c *Chain[B, V]) ParentOf(id ids.ID) (B, V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.tree.Parent(id, c.last, c.accepted)
}

// Preferred returns the block to build on: the preferred block if it is processing, otherwise
// (none, or it was accepted since) the last accepted block; with the view it leaves.
func (c *Chain[B, V]) Preferred() (B, V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if b, v, ok := c.tree.Preferred(); ok {
		return b, v
	}
	return c.last, c.accepted
}

// ProcessingBlock returns processing block id.
func (c *Chain[B, V]) ProcessingBlock(id ids.ID) (B, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.tree.Get(id)
}

// AddProcessing records b, verified, as processing, leaving view v.
func (c *Chain[B, V]) AddProcessing(b B, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.tree.Add(b, v)
}

// MarkAccepted makes b, whose batch is committed, the last accepted block and forgets it as
// processing; rebase moves each view its processing children leave onto the accepted state,
// which now holds what b's view held.
func (c *Chain[B, V]) MarkAccepted(b B, rebase func(V)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for v := range c.tree.Accepted(b) {
		rebase(v)
	}
	c.last = b
}

// MarkRejected forgets rejected block b; its txs stay in the VM's mempool.
func (c *Chain[B, V]) MarkRejected(b B) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.tree.Rejected(b)
}
