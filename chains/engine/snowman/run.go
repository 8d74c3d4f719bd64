package snowman

import (
	"context"
	"time"

	"github.com/cornice-node/cornice/clock"
)

// GossipFrequency is how often Run gossips (Engine.Gossip): the reference's
// --consensus-frontier-poll-frequency default.
const GossipFrequency = 100 * time.Millisecond

// Message is one inbound message for the engine, as the router hands it over: a call of one of
// the message methods (PullQuery, Chits, QueryFailed, ...).
type Message func(ctx context.Context, e *Engine) error

// Runner drives an Engine once its chain is bootstrapped (engine.Consensus runs it): Run is the
// one goroutine that calls it, taking messages from Deliver and building when the VM has work.
type Runner struct {
	e     *Engine
	clock clock.Clock
	inbox chan Message
}

// NewRunner returns the Runner of e; clk times the gossip.
func NewRunner(e *Engine, clk clock.Clock) *Runner {
	return &Runner{e: e, clock: clk, inbox: make(chan Message, 1024)}
}

// TryDeliver queues m for the Run goroutine without waiting; false if the queue is full.
func (r *Runner) TryDeliver(m Message) bool {
	select {
	case r.inbox <- m:
		return true
	default:
		return false
	}
}

// Deliver queues m for the Run goroutine; it blocks while the queue is full, until ctx is done.
func (r *Runner) Deliver(ctx context.Context, m Message) error {
	select {
	case r.inbox <- m:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Run handles messages and builds, until ctx is done (then it returns nil) or an acceptance
// fails.
func (r *Runner) Run(ctx context.Context) error {
	work := r.e.d.VM.WorkReady()
	if err := r.e.Build(ctx); err != nil {
		return err
	}
	gossip := r.clock.NewTimer(GossipFrequency)
	defer gossip.Stop()
	// build fires when building waits for the minimum gap between blocks; nil when it does not.
	var build *time.Timer
	defer func() {
		if build != nil {
			build.Stop()
		}
	}()
	for {
		var buildC <-chan time.Time
		if at, ok := r.e.BuildAt(); ok {
			if build == nil {
				build = r.clock.NewTimer(at.Sub(r.clock.Now()))
			}
			buildC = build.C
		}
		var err error
		select {
		case <-ctx.Done():
			return nil
		case <-buildC:
			build = nil
			err = r.e.Build(ctx)
		case <-work:
			err = r.e.Build(ctx)
		case m := <-r.inbox:
			err = m(ctx, r.e)
		case <-gossip.C:
			err = r.e.Gossip(ctx)
			gossip.Reset(GossipFrequency)
		}
		if err != nil {
			return err
		}
	}
}
