package engine

import (
	"context"

	"github.com/cornice-node/cornice/chains/engine/bootstrap"
	"github.com/cornice-node/cornice/chains/engine/getter"
	"github.com/cornice-node/cornice/chains/engine/snowman"
	"github.com/cornice-node/cornice/ids"
)

// The message methods the router calls, one per inbound message, and one per failure the
// router injects when a request of ours times out (§1.8). Each queues the message and returns;
// see Consensus for where it goes. The slices passed in belong to the engine afterwards.

// Connected tells that a peer connected: the router calls it for every peer connected when the
// engine starts, then on each connection. Bootstrapping waits for enough connected beacon
// weight.
func (c *Consensus) Connected(ctx context.Context, nodeID ids.NodeID) error {
	return c.deliver(ctx, func(ctx context.Context, p phase) error {
		c.peers[nodeID] = true
		if p.boot == nil {
			return nil
		}
		return p.boot.Connected(ctx, nodeID)
	})
}

// Disconnected tells that a peer left.
func (c *Consensus) Disconnected(ctx context.Context, nodeID ids.NodeID) error {
	return c.deliver(ctx, func(ctx context.Context, p phase) error {
		delete(c.peers, nodeID)
		if p.boot == nil {
			return nil
		}
		return p.boot.Disconnected(ctx, nodeID)
	})
}

// GetAcceptedFrontier is answered with AcceptedFrontier in every phase.
func (c *Consensus) GetAcceptedFrontier(ctx context.Context, from ids.NodeID, requestID uint32) error {
	return c.toGetter(ctx, func(ctx context.Context, g *getter.Getter) error {
		return g.GetAcceptedFrontier(ctx, from, requestID)
	})
}

// GetAccepted is answered with Accepted in every phase.
func (c *Consensus) GetAccepted(ctx context.Context, from ids.NodeID, requestID uint32, blockIDs []ids.ID) error {
	return c.toGetter(ctx, func(ctx context.Context, g *getter.Getter) error {
		return g.GetAccepted(ctx, from, requestID, blockIDs)
	})
}

// GetAncestors is answered with Ancestors in every phase.
func (c *Consensus) GetAncestors(ctx context.Context, from ids.NodeID, requestID uint32, blockID ids.ID) error {
	return c.toGetter(ctx, func(ctx context.Context, g *getter.Getter) error {
		return g.GetAncestors(ctx, from, requestID, blockID)
	})
}

// Get is answered with Put, when we have the block, in every phase.
func (c *Consensus) Get(ctx context.Context, from ids.NodeID, requestID uint32, blockID ids.ID) error {
	return c.toGetter(ctx, func(ctx context.Context, g *getter.Getter) error {
		return g.Get(ctx, from, requestID, blockID)
	})
}

// AcceptedFrontier answers our GetAcceptedFrontier.
func (c *Consensus) AcceptedFrontier(ctx context.Context, from ids.NodeID, requestID uint32, blockID ids.ID) error {
	return c.toBoot(ctx, func(ctx context.Context, b *bootstrap.Bootstrapper) error {
		return b.AcceptedFrontier(ctx, from, requestID, blockID)
	})
}

// GetAcceptedFrontierFailed: our GetAcceptedFrontier to from timed out.
func (c *Consensus) GetAcceptedFrontierFailed(ctx context.Context, from ids.NodeID, requestID uint32) error {
	return c.toBoot(ctx, func(ctx context.Context, b *bootstrap.Bootstrapper) error {
		return b.GetAcceptedFrontierFailed(ctx, from, requestID)
	})
}

// Accepted answers our GetAccepted.
func (c *Consensus) Accepted(ctx context.Context, from ids.NodeID, requestID uint32, blockIDs []ids.ID) error {
	return c.toBoot(ctx, func(ctx context.Context, b *bootstrap.Bootstrapper) error {
		return b.Accepted(ctx, from, requestID, blockIDs)
	})
}

// GetAcceptedFailed: our GetAccepted to from timed out.
func (c *Consensus) GetAcceptedFailed(ctx context.Context, from ids.NodeID, requestID uint32) error {
	return c.toBoot(ctx, func(ctx context.Context, b *bootstrap.Bootstrapper) error {
		return b.GetAcceptedFailed(ctx, from, requestID)
	})
}

// Ancestors answers our GetAncestors.
func (c *Consensus) Ancestors(ctx context.Context, from ids.NodeID, requestID uint32, blocks [][]byte) error {
	return c.toBoot(ctx, func(ctx context.Context, b *bootstrap.Bootstrapper) error {
		return b.Ancestors(ctx, from, requestID, blocks)
	})
}

// GetAncestorsFailed: our GetAncestors to from timed out.
func (c *Consensus) GetAncestorsFailed(ctx context.Context, from ids.NodeID, requestID uint32) error {
	return c.toBoot(ctx, func(ctx context.Context, b *bootstrap.Bootstrapper) error {
		return b.GetAncestorsFailed(ctx, from, requestID)
	})
}

// PushQuery is from's query with a block; answered with Chits once consensus runs.
func (c *Consensus) PushQuery(ctx context.Context, from ids.NodeID, requestID uint32, block []byte, requestedHeight uint64) error {
	return c.toEngine(ctx, func(ctx context.Context, e *snowman.Engine) error {
		return e.PushQuery(ctx, from, requestID, block, requestedHeight)
	})
}

// PullQuery is from's query with a block ID; answered with Chits once consensus runs.
func (c *Consensus) PullQuery(ctx context.Context, from ids.NodeID, requestID uint32, blockID ids.ID, requestedHeight uint64) error {
	return c.toEngine(ctx, func(ctx context.Context, e *snowman.Engine) error {
		return e.PullQuery(ctx, from, requestID, blockID, requestedHeight)
	})
}

// Chits answers our query.
func (c *Consensus) Chits(ctx context.Context, from ids.NodeID, requestID uint32, preferredID, preferredIDAtHeight, acceptedID ids.ID, acceptedHeight uint64) error {
	return c.toEngine(ctx, func(ctx context.Context, e *snowman.Engine) error {
		return e.Chits(ctx, from, requestID, preferredID, preferredIDAtHeight, acceptedID, acceptedHeight)
	})
}

// QueryFailed: our query to from timed out.
func (c *Consensus) QueryFailed(ctx context.Context, from ids.NodeID, requestID uint32) error {
	return c.toEngine(ctx, func(ctx context.Context, e *snowman.Engine) error {
		return e.QueryFailed(ctx, from, requestID)
	})
}

// Put answers our Get.
func (c *Consensus) Put(ctx context.Context, from ids.NodeID, requestID uint32, block []byte) error {
	return c.toEngine(ctx, func(ctx context.Context, e *snowman.Engine) error {
		return e.Put(ctx, from, requestID, block)
	})
}

// GetFailed: our Get to from timed out.
func (c *Consensus) GetFailed(ctx context.Context, from ids.NodeID, requestID uint32) error {
	return c.toEngine(ctx, func(ctx context.Context, e *snowman.Engine) error {
		return e.GetFailed(ctx, from, requestID)
	})
}
