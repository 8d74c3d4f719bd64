package enginetest

import (
	"context"

	"github.com/cornice-node/cornice/ids"
)

// Sender is one node's sender on the Net: it implements the Sender of every engine (snowman,
// bootstrap, getter). Each send becomes a message the Net delivers to the receiver's handler,
// if the handler has the method.
type Sender struct {
	n    *Net
	from ids.NodeID
}

// Sender returns node from's sender.
func (n *Net) Sender(from ids.NodeID) *Sender { return &Sender{n: n, from: from} }

// The message methods the Net calls, each in an interface of its own: a handler takes the
// messages whose methods it has.
type (
	pushQuery interface {
		PushQuery(ctx context.Context, from ids.NodeID, requestID uint32, block []byte, requestedHeight uint64) error
	}
	pullQuery interface {
		PullQuery(ctx context.Context, from ids.NodeID, requestID uint32, blockID ids.ID, requestedHeight uint64) error
	}
	chits interface {
		Chits(ctx context.Context, from ids.NodeID, requestID uint32, preferredID, preferredIDAtHeight, acceptedID ids.ID, acceptedHeight uint64) error
	}
	get interface {
		Get(ctx context.Context, from ids.NodeID, requestID uint32, blockID ids.ID) error
	}
	put interface {
		Put(ctx context.Context, from ids.NodeID, requestID uint32, block []byte) error
	}
	getAcceptedFrontier interface {
		GetAcceptedFrontier(ctx context.Context, from ids.NodeID, requestID uint32) error
	}
	acceptedFrontier interface {
		AcceptedFrontier(ctx context.Context, from ids.NodeID, requestID uint32, blockID ids.ID) error
	}
	getAccepted interface {
		GetAccepted(ctx context.Context, from ids.NodeID, requestID uint32, blockIDs []ids.ID) error
	}
	accepted interface {
		Accepted(ctx context.Context, from ids.NodeID, requestID uint32, blockIDs []ids.ID) error
	}
	getAncestors interface {
		GetAncestors(ctx context.Context, from ids.NodeID, requestID uint32, blockID ids.ID) error
	}
	ancestors interface {
		Ancestors(ctx context.Context, from ids.NodeID, requestID uint32, blocks [][]byte) error
	}
	failed interface {
		QueryFailed(ctx context.Context, from ids.NodeID, requestID uint32) error
	}
	getFailed interface {
		GetFailed(ctx context.Context, from ids.NodeID, requestID uint32) error
	}
	frontierFailed interface {
		GetAcceptedFrontierFailed(ctx context.Context, from ids.NodeID, requestID uint32) error
	}
	acceptedFailed interface {
		GetAcceptedFailed(ctx context.Context, from ids.NodeID, requestID uint32) error
	}
	ancestorsFailed interface {
		GetAncestorsFailed(ctx context.Context, from ids.NodeID, requestID uint32) error
	}
)

// call calls f with h as an H, or does nothing if h does not take that message.
func call[H any](h any, f func(H) error) error {
	if x, ok := h.(H); ok {
		return f(x)
	}
	return nil
}

// tamper passes payload through the Net's Tamper; ok is false when the message is dropped.
func tamper[P any](s *Sender, to ids.NodeID, op string, payload P) (P, bool) {
	if s.n.Tamper == nil {
		return payload, true
	}
	out := s.n.Tamper(s.from, to, op, payload)
	if out == nil {
		return payload, false
	}
	return out.(P), true
}

// request sends a request of op to to; fail is the failure s's node gets if it is lost or not
// answered.
func (s *Sender) request(to ids.NodeID, op string, requestID uint32, deliver func(context.Context, any) error,
	fail func(context.Context, any) error) {
	key := answerKey{asker: s.from, asked: to, op: op, requestID: requestID}
	s.n.post(msg{from: s.from, to: to, fail: fail, deliver: func(ctx context.Context, h any) error {
		delete(s.n.answered, key)
		if err := deliver(ctx, h); err != nil {
			return err
		}
		if !s.n.answered[key] {
			// No answer: the asker's router times the request out.
			s.n.post(msg{from: to, to: s.from, deliver: fail})
		}
		delete(s.n.answered, key)
		return nil
	}})
}

// answer sends an answer to to's request of op.
func (s *Sender) answer(to ids.NodeID, op string, requestID uint32, deliver func(context.Context, any) error) {
	s.n.answered[answerKey{asker: to, asked: s.from, op: op, requestID: requestID}] = true
	s.n.post(msg{from: s.from, to: to, deliver: deliver})
}

// SendPushQuery implements snowman.Sender.
func (s *Sender) SendPushQuery(_ context.Context, to []ids.NodeID, requestID uint32, block []byte, h uint64) {
	for _, n := range to {
		s.request(n, "query", requestID, func(ctx context.Context, x any) error {
			return call(x, func(e pushQuery) error { return e.PushQuery(ctx, s.from, requestID, block, h) })
		}, s.queryFailed(n, requestID))
	}
}

// SendPullQuery implements snowman.Sender.
func (s *Sender) SendPullQuery(_ context.Context, to []ids.NodeID, requestID uint32, blockID ids.ID, h uint64) {
	for _, n := range to {
		s.request(n, "query", requestID, func(ctx context.Context, x any) error {
			return call(x, func(e pullQuery) error { return e.PullQuery(ctx, s.from, requestID, blockID, h) })
		}, s.queryFailed(n, requestID))
	}
}

func (s *Sender) queryFailed(to ids.NodeID, requestID uint32) func(context.Context, any) error {
	return func(ctx context.Context, x any) error {
		return call(x, func(e failed) error { return e.QueryFailed(ctx, to, requestID) })
	}
}

// SendChits implements snowman.Sender.
func (s *Sender) SendChits(_ context.Context, to ids.NodeID, requestID uint32, pref, prefAtHeight, acc ids.ID, accHeight uint64) {
	s.answer(to, "query", requestID, func(ctx context.Context, x any) error {
		return call(x, func(e chits) error { return e.Chits(ctx, s.from, requestID, pref, prefAtHeight, acc, accHeight) })
	})
}

// SendGet implements snowman.Sender.
func (s *Sender) SendGet(_ context.Context, to ids.NodeID, requestID uint32, blockID ids.ID) {
	s.request(to, "get", requestID, func(ctx context.Context, x any) error {
		return call(x, func(e get) error { return e.Get(ctx, s.from, requestID, blockID) })
	}, func(ctx context.Context, x any) error {
		return call(x, func(e getFailed) error { return e.GetFailed(ctx, to, requestID) })
	})
}

// SendPut implements getter.Sender.
func (s *Sender) SendPut(_ context.Context, to ids.NodeID, requestID uint32, block []byte) {
	s.answer(to, "get", requestID, func(ctx context.Context, x any) error {
		return call(x, func(e put) error { return e.Put(ctx, s.from, requestID, block) })
	})
}

// SendGetAcceptedFrontier implements bootstrap.Sender.
func (s *Sender) SendGetAcceptedFrontier(_ context.Context, to []ids.NodeID, requestID uint32) {
	for _, n := range to {
		s.request(n, "frontier", requestID, func(ctx context.Context, x any) error {
			return call(x, func(e getAcceptedFrontier) error { return e.GetAcceptedFrontier(ctx, s.from, requestID) })
		}, func(ctx context.Context, x any) error {
			return call(x, func(e frontierFailed) error { return e.GetAcceptedFrontierFailed(ctx, n, requestID) })
		})
	}
}

// SendAcceptedFrontier implements getter.Sender.
func (s *Sender) SendAcceptedFrontier(_ context.Context, to ids.NodeID, requestID uint32, blockID ids.ID) {
	blockID, ok := tamper(s, to, "accepted_frontier", blockID)
	if !ok {
		return
	}
	s.answer(to, "frontier", requestID, func(ctx context.Context, x any) error {
		return call(x, func(e acceptedFrontier) error { return e.AcceptedFrontier(ctx, s.from, requestID, blockID) })
	})
}

// SendGetAccepted implements bootstrap.Sender.
func (s *Sender) SendGetAccepted(_ context.Context, to []ids.NodeID, requestID uint32, blockIDs []ids.ID) {
	for _, n := range to {
		s.request(n, "accepted", requestID, func(ctx context.Context, x any) error {
			return call(x, func(e getAccepted) error { return e.GetAccepted(ctx, s.from, requestID, blockIDs) })
		}, func(ctx context.Context, x any) error {
			return call(x, func(e acceptedFailed) error { return e.GetAcceptedFailed(ctx, n, requestID) })
		})
	}
}

// SendAccepted implements getter.Sender.
func (s *Sender) SendAccepted(_ context.Context, to ids.NodeID, requestID uint32, blockIDs []ids.ID) {
	blockIDs, ok := tamper(s, to, "accepted", blockIDs)
	if !ok {
		return
	}
	s.answer(to, "accepted", requestID, func(ctx context.Context, x any) error {
		return call(x, func(e accepted) error { return e.Accepted(ctx, s.from, requestID, blockIDs) })
	})
}

// SendGetAncestors implements bootstrap.Sender.
func (s *Sender) SendGetAncestors(_ context.Context, to ids.NodeID, requestID uint32, blockID ids.ID) {
	s.request(to, "ancestors", requestID, func(ctx context.Context, x any) error {
		return call(x, func(e getAncestors) error { return e.GetAncestors(ctx, s.from, requestID, blockID) })
	}, func(ctx context.Context, x any) error {
		return call(x, func(e ancestorsFailed) error { return e.GetAncestorsFailed(ctx, to, requestID) })
	})
}

// SendAncestors implements getter.Sender.
func (s *Sender) SendAncestors(_ context.Context, to ids.NodeID, requestID uint32, blocks [][]byte) {
	blocks, ok := tamper(s, to, "ancestors", blocks)
	if !ok {
		return
	}
	s.answer(to, "ancestors", requestID, func(ctx context.Context, x any) error {
		return call(x, func(e ancestors) error { return e.Ancestors(ctx, s.from, requestID, blocks) })
	})
}
