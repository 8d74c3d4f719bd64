package router

import (
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/network/wire"
)

// App gossip (network-consensus-warp.md §1.3): AppGossip has no request and no answer. A peer's
// goes to its chain's GossipHandler on the router's one gossip worker, never on the peer's reader;
// this node's own goes to the connected validators of the chain (Router.AppGossip).

const (
	// gossipQueue is how many AppGossips may wait for the gossip worker; more are dropped, as
	// gossip may be.
	gossipQueue = 1024
	// MaxAppGossipBytes is the largest AppGossip app bytes taken; larger are dropped. A batch of
	// transactions stays far below it (gossip.DefaultMaxBytes plus one transaction).
	MaxAppGossipBytes = 1 << 20
)

// GossipHandler is implemented by a chain's AppHandler that takes AppGossip. It must be safe for
// concurrent use.
type GossipHandler interface {
	// AppGossip takes appBytes (the SDK's handler ID prefix included) from from.
	AppGossip(from ids.NodeID, appBytes []byte)
}

// gossipJob is an inbound AppGossip waiting for the worker.
type gossipJob struct {
	from     ids.NodeID
	h        GossipHandler
	appBytes []byte
}

// handleGossip queues a parsed AppGossip for its chain's handler.
func (r *Router) handleGossip(from ids.NodeID, a *wire.App) {
	if len(a.AppBytes) > MaxAppGossipBytes {
		r.drop(reasonTooLarge, from, wire.OpAppGossip, nil)
		return
	}
	var h GossipHandler
	if r.d.Apps != nil {
		if app, ok := r.d.Apps.App(a.ChainID); ok {
			h, _ = app.(GossipHandler)
		}
	}
	if h == nil {
		r.drop(reasonUnknownChain, from, wire.OpAppGossip, nil)
		return
	}
	select {
	case r.gossipJobs <- gossipJob{from: from, h: h, appBytes: a.AppBytes}:
	default:
		r.drop(reasonQueueFull, from, wire.OpAppGossip, nil)
	}
}

// gossipWorker hands queued AppGossips to their handlers until the router closes.
func (r *Router) gossipWorker() {
	for {
		select {
		case <-r.ctx.Done():
			return
		case j := <-r.gossipJobs:
			j.h.AppGossip(j.from, j.appBytes)
		}
	}
}

// AppGossip sends appBytes as an AppGossip of chainID to every connected peer that validates the
// chain (every connected peer when the router has no Weights), and returns how many it was queued
// for. The reference samples up to its push-gossip fan-out by stake; a local network's few
// validators are all of its sample.
func (r *Router) AppGossip(chainID ids.ID, appBytes []byte) int {
	r.mu.Lock()
	peers := make([]ids.NodeID, 0, len(r.connected))
	for nodeID, ok := range r.connected {
		if ok {
			peers = append(peers, nodeID)
		}
	}
	r.mu.Unlock()
	msg := wire.NewApp(wire.OpAppGossip, &wire.App{ChainID: chainID, AppBytes: appBytes})
	sent := 0
	for _, nodeID := range peers {
		if r.d.Weights != nil {
			if w, _ := r.d.Weights(chainID, nodeID); w == 0 {
				continue
			}
		}
		if r.d.Network.Send(nodeID, msg) {
			sent++
		}
	}
	return sent
}
