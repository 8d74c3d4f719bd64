package router

import (
	"context"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/network/wire"
)

// Sender sends one chain's messages (snowman.Sender): to peers through the network, to this node
// in process. A request is remembered until its answer or its failure reaches the chain. Sends
// never block and report nothing: a request that cannot be sent fails at once.
type Sender struct {
	r       *Router
	chainID ids.ID
}

func (s *Sender) SendPushQuery(_ context.Context, to []ids.NodeID, requestID uint32, block []byte, requestedHeight uint64) {
	s.request(to, wire.OpPushQuery, wire.OpChits, &wire.Chain{RequestID: requestID, Container: block, RequestedHeight: requestedHeight})
}

func (s *Sender) SendPullQuery(_ context.Context, to []ids.NodeID, requestID uint32, blockID ids.ID, requestedHeight uint64) {
	s.request(to, wire.OpPullQuery, wire.OpChits, &wire.Chain{RequestID: requestID, ContainerID: blockID, RequestedHeight: requestedHeight})
}

func (s *Sender) SendGet(_ context.Context, to ids.NodeID, requestID uint32, blockID ids.ID) {
	s.request([]ids.NodeID{to}, wire.OpGet, wire.OpPut, &wire.Chain{RequestID: requestID, ContainerID: blockID})
}

func (s *Sender) SendGetAncestors(_ context.Context, to ids.NodeID, requestID uint32, blockID ids.ID) {
	s.request([]ids.NodeID{to}, wire.OpGetAncestors, wire.OpAncestors,
		&wire.Chain{RequestID: requestID, ContainerID: blockID, EngineType: wire.EngineTypeChain})
}

func (s *Sender) SendGetAcceptedFrontier(_ context.Context, to []ids.NodeID, requestID uint32) {
	s.request(to, wire.OpGetAcceptedFrontier, wire.OpAcceptedFrontier, &wire.Chain{RequestID: requestID})
}

func (s *Sender) SendGetAccepted(_ context.Context, to []ids.NodeID, requestID uint32, blockIDs []ids.ID) {
	s.request(to, wire.OpGetAccepted, wire.OpAccepted, &wire.Chain{RequestID: requestID, ContainerIDs: blockIDs})
}

func (s *Sender) SendChits(_ context.Context, to ids.NodeID, requestID uint32, preferredID, preferredIDAtHeight, acceptedID ids.ID, acceptedHeight uint64) {
	s.answer(to, wire.OpChits, &wire.Chain{RequestID: requestID, PreferredID: preferredID,
		PreferredIDAtHeight: preferredIDAtHeight, AcceptedID: acceptedID, AcceptedHeight: acceptedHeight})
}

func (s *Sender) SendPut(_ context.Context, to ids.NodeID, requestID uint32, block []byte) {
	s.answer(to, wire.OpPut, &wire.Chain{RequestID: requestID, Container: block})
}

func (s *Sender) SendAncestors(_ context.Context, to ids.NodeID, requestID uint32, blocks [][]byte) {
	s.answer(to, wire.OpAncestors, &wire.Chain{RequestID: requestID, Containers: blocks})
}

func (s *Sender) SendAcceptedFrontier(_ context.Context, to ids.NodeID, requestID uint32, blockID ids.ID) {
	s.answer(to, wire.OpAcceptedFrontier, &wire.Chain{RequestID: requestID, ContainerID: blockID})
}

func (s *Sender) SendAccepted(_ context.Context, to ids.NodeID, requestID uint32, blockIDs []ids.ID) {
	s.answer(to, wire.OpAccepted, &wire.Chain{RequestID: requestID, ContainerIDs: blockIDs})
}

// request sends a request to each of to, expecting reply from each within the timeout, which
// travels with it as its deadline (§1.8).
func (s *Sender) request(to []ids.NodeID, op, reply wire.Op, c *wire.Chain) {
	c.ChainID = s.chainID
	c.Deadline = uint64(s.r.cfg.Timeout)
	var msg *wire.Message
	for _, nodeID := range to {
		k := requestKey{nodeID: nodeID, chainID: s.chainID, requestID: c.RequestID, reply: reply}
		s.r.expect(k)
		if nodeID == s.r.cfg.NodeID {
			if !s.local(op, c) {
				s.r.fail(k)
			}
			continue
		}
		if msg == nil {
			msg = wire.NewChain(op, c)
		}
		switch {
		case !s.r.d.Network.Send(nodeID, msg):
			s.r.fail(k)
		case s.r.bench.isBenched(s.chainID, nodeID):
			// A benched peer is still sent the request, but its failure comes at once (§1.9);
			// its answer, or its timeout, counts on the benchlist only.
			s.r.probe(k)
		}
	}
}

// answer sends an answer to to.
func (s *Sender) answer(to ids.NodeID, op wire.Op, c *wire.Chain) {
	c.ChainID = s.chainID
	if to == s.r.cfg.NodeID {
		s.local(op, c)
		return
	}
	// An answer that cannot be sent is the requester's timeout.
	s.r.d.Network.Send(to, wire.NewChain(op, c))
}

// local delivers a message to this node's own chain, as the reference's sender does
// (HandleInternal). The message is copied: the engine may reuse what it sent.
func (s *Sender) local(op wire.Op, c *wire.Chain) bool {
	cp := *c
	r := s.r
	r.mu.Lock()
	ch, ok := r.chains[s.chainID]
	r.mu.Unlock()
	if !ok {
		return false
	}
	if wire.IsRequest(op) {
		// The chain's own goroutine sends this: it cannot wait for its own queue.
		return ch.TryDeliver(message(r.cfg.NodeID, op, &cp))
	}
	r.route(r.cfg.NodeID, op, &cp)
	return true
}
