package engine

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/chains/engine/bootstrap"
	"github.com/cornice-node/cornice/chains/engine/getter"
	"github.com/cornice-node/cornice/chains/engine/snowman"
	"github.com/cornice-node/cornice/consensus/sampler"
	"github.com/cornice-node/cornice/ids"
)

// Sender sends a chain's messages for both of Consensus's phases (the node's router).
type Sender interface {
	snowman.Sender
	bootstrap.Sender
}

// ConsensusConfig is what a Consensus is made with.
type ConsensusConfig struct {
	// Self is this node.
	Self ids.NodeID
	// Snowman is the Snowman engine's config (subnet, parameters).
	Snowman snowman.Config
	// After, if not nil, holds bootstrapping back until it is closed: the node passes the
	// P-Chain's Bootstrapped() to every other chain, so that they start once the P-Chain knows
	// their validators (§3.1). Messages are answered meanwhile.
	After <-chan struct{}
}

// ConsensusDeps are a Consensus's collaborators.
type ConsensusDeps struct {
	Sender Sender
	// Beacons returns the beacons and their weights (bootstrap.Config.Beacons); it is called
	// once, when bootstrapping starts (after After).
	Beacons func() (map[ids.NodeID]uint64, error)
	// Validators are sampled by the Snowman engine's polls.
	Validators snowman.Validators
	Rand       sampler.Source
	// Metrics may be nil.
	Metrics *bootstrap.Metrics
}

// Consensus is the engine of a chain whose validator weight this node shares with others
// (chains.Engine): the bootstrapper catches the chain up with its beacons, then the Snowman
// engine (snowman.Runner) decides its blocks. The router delivers the chain's messages to it
// through its message methods, which may be called from any goroutine: each queues the message
// for the chain's engine goroutine, and returns once it is queued (or ctx is done).
//
// A message goes where its phase takes it (reference/network-consensus-warp.md §3): the
// requests of other nodes' bootstrappers and Gets (GetAcceptedFrontier, GetAccepted,
// GetAncestors, Get) are answered in every phase, from the chain's accepted state; the answers
// to our bootstrapping requests go to the bootstrapper while it runs and are dropped after; the
// consensus messages (PushQuery, PullQuery, Chits, QueryFailed, Put, GetFailed) go to the
// Snowman engine once it runs and are dropped before, unanswered, as the reference drops them
// while it bootstraps. A message queued as the phases change hands may be lost; the router's
// timeouts cover it.
type Consensus struct {
	cfg    ConsensusConfig
	d      ConsensusDeps
	ec     chains.EngineContext
	getter *getter.Getter

	inbox chan message
	// peers are the connected nodes, as Connected and Disconnected told; used by the engine
	// goroutine only, to tell the bootstrapper when it starts.
	peers map[ids.NodeID]bool
	// runner is the Snowman engine's runner, nil until bootstrapping is done.
	runner atomic.Pointer[snowman.Runner]
	// bootstrapped is closed when the chain enters normal operation.
	bootstrapped chan struct{}

	mu sync.Mutex // guards progress
	// progress is the bootstrapper's, copied after each message it handles; nil before it
	// starts.
	progress *bootstrap.Progress
}

// phase is what a message is handled by: the bootstrapper while it runs, the Snowman engine
// after; the getter always.
type phase struct {
	boot   *bootstrap.Bootstrapper
	engine *snowman.Engine
	getter *getter.Getter
}

type message func(ctx context.Context, p phase) error

var _ chains.Engine = (*Consensus)(nil)

// NewConsensus returns the engine of chain c.
func NewConsensus(c chains.EngineContext, cfg ConsensusConfig, d ConsensusDeps) *Consensus {
	return &Consensus{
		cfg:          cfg,
		d:            d,
		ec:           c,
		getter:       getter.New(c.VM, c.Acceptor, d.Sender),
		inbox:        make(chan message, 1024),
		peers:        make(map[ids.NodeID]bool),
		bootstrapped: make(chan struct{}),
	}
}

// Bootstrapped is closed when the chain has caught up and entered normal operation.
func (c *Consensus) Bootstrapped() <-chan struct{} { return c.bootstrapped }

// Progress returns how far bootstrapping has come, and false once it is done (or before it
// started). It is safe for concurrent use (the chain's health check).
func (c *Consensus) Progress() (any, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.progress == nil {
		return nil, false
	}
	return *c.progress, true
}

// Start implements chains.Engine: the chain is bootstrapping until Run has caught it up.
func (c *Consensus) Start(context.Context) error {
	if err := c.ec.SetState(chains.Bootstrapping); err != nil {
		return fmt.Errorf("enter %s: %w", chains.Bootstrapping, err)
	}
	return nil
}

// Run implements chains.Engine: it waits for After, bootstraps, then runs the Snowman engine
// until ctx is done or an acceptance fails.
func (c *Consensus) Run(ctx context.Context) error {
	p := phase{getter: c.getter}
	if c.cfg.After != nil {
		if err := c.handleUntil(ctx, p, func() bool { return isClosed(c.cfg.After) }, c.cfg.After); err != nil || ctx.Err() != nil {
			return err
		}
	}
	beacons, err := c.d.Beacons()
	if err != nil {
		return fmt.Errorf("beacons of chain %s: %w", c.ec.Chain.ID, err)
	}
	alias := c.ec.Chain.ID.String()
	b := bootstrap.New(bootstrap.Config{Self: c.cfg.Self, Beacons: beacons}, bootstrap.Deps{
		VM: c.ec.VM, Acceptor: c.ec.Acceptor, Sender: c.d.Sender, Clock: c.ec.Clock, Log: c.ec.Log,
		Metrics: c.d.Metrics.For(alias),
	})
	c.setProgress(b)
	p.boot = b
	for id := range c.peers {
		if err := b.Connected(ctx, id); err != nil {
			return err
		}
	}
	if err := b.Start(ctx); err != nil {
		return err
	}
	if err := c.handleUntil(ctx, p, b.Done, nil); err != nil || ctx.Err() != nil {
		return err
	}
	return c.handOver(ctx)
}

// handleUntil handles queued messages in phase p until done reports true or ctx is done; wake,
// if not nil, is a channel whose closing makes it look at done.
func (c *Consensus) handleUntil(ctx context.Context, p phase, done func() bool, wake <-chan struct{}) error {
	for !done() {
		select {
		case <-ctx.Done():
			return nil
		case <-wake:
			wake = nil
		case m := <-c.inbox:
			if err := m(ctx, p); err != nil {
				return err
			}
			if p.boot != nil {
				c.setProgress(p.boot)
			}
		}
	}
	return nil
}

// handOver starts the Snowman engine on the caught-up chain, hands it the messages queued
// meanwhile, and runs it.
func (c *Consensus) handOver(ctx context.Context) error {
	e, err := snowman.New(c.cfg.Snowman, snowman.Deps{
		VM: c.ec.VM, Acceptor: c.ec.Acceptor, Sender: c.d.Sender, Validators: c.d.Validators,
		Rand: c.d.Rand, Log: c.ec.Log,
	})
	if err != nil {
		return fmt.Errorf("start consensus on chain %s: %w", c.ec.Chain.ID, err)
	}
	if err := c.ec.SetState(chains.NormalOperation); err != nil {
		return fmt.Errorf("enter %s: %w", chains.NormalOperation, err)
	}
	c.mu.Lock()
	c.progress = nil
	c.mu.Unlock()
	r := snowman.NewRunner(e, c.ec.SetState, c.ec.Clock)
	c.runner.Store(r)
	close(c.bootstrapped)
	c.ec.Log.Info("consensus started")
	p := phase{engine: e, getter: c.getter}
drain:
	for {
		select {
		case m := <-c.inbox:
			if err := m(ctx, p); err != nil {
				return err
			}
		default:
			break drain
		}
	}
	return r.Run(ctx)
}

func (c *Consensus) setProgress(b *bootstrap.Bootstrapper) {
	p := b.Progress()
	c.mu.Lock()
	defer c.mu.Unlock()
	if b.Done() {
		c.progress = nil
		return
	}
	c.progress = &p
}

func isClosed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// deliver queues m for the engine goroutine: Consensus's inbox while bootstrapping, the Snowman
// runner's after.
func (c *Consensus) deliver(ctx context.Context, m message) error {
	if r := c.runner.Load(); r != nil {
		return r.Deliver(ctx, func(ctx context.Context, e *snowman.Engine) error {
			return m(ctx, phase{engine: e, getter: c.getter})
		})
	}
	select {
	case c.inbox <- m:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// toBoot, toEngine and toGetter queue the message that calls f on the bootstrapper, the
// Snowman engine or the getter, when the phase has one.
func (c *Consensus) toBoot(ctx context.Context, f func(context.Context, *bootstrap.Bootstrapper) error) error {
	return c.deliver(ctx, func(ctx context.Context, p phase) error {
		if p.boot == nil {
			return nil
		}
		return f(ctx, p.boot)
	})
}

func (c *Consensus) toEngine(ctx context.Context, f func(context.Context, *snowman.Engine) error) error {
	return c.deliver(ctx, func(ctx context.Context, p phase) error {
		if p.engine == nil {
			return nil
		}
		return f(ctx, p.engine)
	})
}

func (c *Consensus) toGetter(ctx context.Context, f func(context.Context, *getter.Getter) error) error {
	return c.deliver(ctx, func(ctx context.Context, p phase) error { return f(ctx, p.getter) })
}
