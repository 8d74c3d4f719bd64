// Package enginetest is a fake network of in-process nodes for the tests of the chain engines
// (the bootstrapper, the Snowman engine, and the two together): each node's engine is a handler
// whose message methods the network calls, in a random order the test's seed fixes, as the
// node's router would (reference/network-consensus-warp.md §1.8).
//
// A message to a node that is down is lost. A request that is lost, or that its receiver
// handles without answering (a Get for a block it does not have, a message its engine does not
// take), comes back to the sender as the matching failure (QueryFailed, GetFailed,
// GetAcceptedFrontierFailed, GetAcceptedFailed, GetAncestorsFailed), as the router's timeout
// injects it. A message a handler does not take (an engine without that method) is dropped.
//
// A Net is used by the test's goroutine only.
package enginetest

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
)

// Net is the fake network.
type Net struct {
	t   testing.TB
	rng *rand.Rand
	// Down holds the nodes that are down: messages to them are lost.
	Down map[ids.NodeID]bool
	// Tamper, if set, may change or drop (nil) a message's payload before it is delivered: tests
	// of lying nodes use it. It sees every Send of a node, by op.
	Tamper func(from, to ids.NodeID, op string, payload any) any

	handlers map[ids.NodeID]any
	queue    []msg
	// answered records the answers sent to each request during its delivery.
	answered map[answerKey]bool
	// Delivered counts the messages delivered.
	Delivered int
}

// msg is one message in flight from one node to another: deliver calls the receiver's
// handler; fail, for a request, calls the sender's with the failure it gets when the request
// is lost.
type msg struct {
	from, to ids.NodeID
	deliver  func(ctx context.Context, h any) error
	fail     func(ctx context.Context, h any) error
}

// answerKey names a request: who asked whom, which op, which request ID.
type answerKey struct {
	asker, asked ids.NodeID
	op           string
	requestID    uint32
}

// New returns an empty network whose delivery order seed fixes.
func New(t testing.TB, seed uint64) *Net {
	return &Net{t: t, rng: rand.New(rand.NewPCG(seed, 1)), Down: make(map[ids.NodeID]bool),
		handlers: make(map[ids.NodeID]any), answered: make(map[answerKey]bool)}
}

// Set makes h the handler of node id's messages (replacing the one it had).
func (n *Net) Set(id ids.NodeID, h any) { n.handlers[id] = h }

// Len is the number of messages in flight.
func (n *Net) Len() int { return len(n.queue) }

// Step delivers one message drawn at random and reports whether there was one. A message to a
// node that is down is lost, and its failure, if it is a request, delivered to its sender.
func (n *Net) Step(ctx context.Context) bool {
	if len(n.queue) == 0 {
		return false
	}
	j := n.rng.IntN(len(n.queue))
	m := n.queue[j]
	n.queue[j] = n.queue[len(n.queue)-1]
	n.queue = n.queue[:len(n.queue)-1]
	n.Delivered++
	switch h, ok := n.handlers[m.to]; {
	case ok && !n.Down[m.to]:
		require.NoError(n.t, m.deliver(ctx, h))
	case m.fail != nil:
		n.post(msg{from: m.to, to: m.from, deliver: m.fail})
	}
	return true
}

// Run delivers messages until none is left or max were delivered; it reports whether the
// network went quiet.
func (n *Net) Run(ctx context.Context, max int) bool {
	for range max {
		if !n.Step(ctx) {
			return true
		}
	}
	return n.Len() == 0
}

func (n *Net) post(m msg) { n.queue = append(n.queue, m) }

// Handler returns node id's handler.
func (n *Net) Handler(id ids.NodeID) any { return n.handlers[id] }
