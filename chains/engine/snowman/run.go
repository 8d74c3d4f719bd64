package snowman

import (
	"context"
	"fmt"
	"time"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/clock"
)

// GossipFrequency is how often Run gossips (Engine.Gossip): the reference's
// --consensus-frontier-poll-frequency default.
const GossipFrequency = 100 * time.Millisecond

// Message is one inbound message for the engine, as the router hands it over: a call of one of
// the message methods (PullQuery, Chits, QueryFailed, ...).
type Message func(ctx context.Context, e *Engine) error

// Runner drives an Engine as the chain's engine (chains.Engine): Run is the one goroutine that
// calls it, taking messages from Deliver and building when the VM has work.
type Runner struct {
	e        *Engine
	setState func(chains.State) error
	clock    clock.Clock
	inbox    chan Message
}

var _ chains.Engine = (*Runner)(nil)

// NewRunner returns the chains.Engine that runs e; setState records the chain's state, and clk
// times the gossip.
func NewRunner(e *Engine, setState func(chains.State) error, clk clock.Clock) *Runner {
	return &Runner{e: e, setState: setState, clock: clk, inbox: make(chan Message, 1024)}
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

// TryDeliver queues m for the Run goroutine without waiting; false if the queue is full.
func (r *Runner) TryDeliver(m Message) bool {
	select {
	case r.inbox <- m:
		return true
	default:
		return false
	}
}

// Start implements chains.Engine. A Runner alone does not bootstrap (engine.Consensus bootstraps
// first, then runs a Runner): the chain goes to normal operation from the blocks it has.
func (r *Runner) Start(context.Context) error {
	for _, s := range []chains.State{chains.Bootstrapping, chains.NormalOperation} {
		if err := r.setState(s); err != nil {
			return fmt.Errorf("enter %s: %w", s, err)
		}
	}
	return nil
}

// Run implements chains.Engine: it handles messages and builds, until ctx is done or an
// acceptance fails.
func (r *Runner) Run(ctx context.Context) error {
	work := r.e.d.VM.WorkReady()
	if err := r.e.Build(ctx); err != nil {
		return err
	}
	gossip := r.clock.NewTimer(GossipFrequency)
	defer gossip.Stop()
	for {
		var err error
		select {
		case <-ctx.Done():
			return nil
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
