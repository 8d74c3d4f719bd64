package engine

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/chains/engine/bootstrap"
	"github.com/cornice-node/cornice/chains/engine/getter"
	"github.com/cornice-node/cornice/chains/engine/snowman"
	"github.com/cornice-node/cornice/consensus/sampler"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/router"
)

// BootstrapRetry is the pause before a stalled bootstrapper goes round again (beacons without a
// majority, or a fetched block that does not verify).
const BootstrapRetry = time.Second

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
	// Bootstrapped, if not nil, is the channel Bootstrapped returns, closed by the Consensus
	// when the chain enters normal operation: the node makes the P-Chain's before its engine,
	// for the other chains' After.
	Bootstrapped chan struct{}
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

// Handler is a chain's engine as the router drives it: the requests any node may send, and the
// answers to the queries and Gets the engine sends. While Consensus bootstraps, its handler also
// has the bootstrapper's methods (router.Bootstrapper), which the router finds with a type
// assertion; after, it is the *snowman.Engine, which has not.
type Handler = router.Handler

// Message is one inbound message, as the chain's goroutine runs it on its current handler.
type Message = router.Message

var (
	_ Handler           = (*snowman.Engine)(nil)
	_ Handler           = bootstrapping{}
	_ Handler           = waiting{}
	_ chains.Engine     = (*Consensus)(nil)
	_ chains.Progresser = (*Consensus)(nil)
)

// dropsConsensus drops the consensus messages unanswered, as the reference's bootstrapper does:
// the asker's query or Get times out.
type dropsConsensus struct{}

func (dropsConsensus) PushQuery(context.Context, ids.NodeID, uint32, []byte, uint64) error {
	return nil
}
func (dropsConsensus) PullQuery(context.Context, ids.NodeID, uint32, ids.ID, uint64) error {
	return nil
}
func (dropsConsensus) Chits(context.Context, ids.NodeID, uint32, ids.ID, ids.ID, ids.ID, uint64) error {
	return nil
}
func (dropsConsensus) QueryFailed(context.Context, ids.NodeID, uint32) error { return nil }
func (dropsConsensus) Put(context.Context, ids.NodeID, uint32, []byte) error { return nil }
func (dropsConsensus) GetFailed(context.Context, ids.NodeID, uint32) error   { return nil }

// bootstrapping is the handler while the chain bootstraps: the bootstrapper, whose embedded
// Getter answers the requests of others.
type bootstrapping struct {
	*bootstrap.Bootstrapper
	dropsConsensus
}

// waiting is the handler while the chain waits for After: the getter answers, the rest is
// dropped.
type waiting struct {
	*getter.Getter
	dropsConsensus
}

// Consensus is the engine of a chain whose validator weight this node shares with others
// (chains.Engine): the bootstrapper catches the chain up with its beacons, then the Snowman
// engine (snowman.Runner) decides its blocks. The router hands it the chain's messages with
// TryDeliver and Deliver, which may be called from any goroutine; each message runs on the
// chain's engine goroutine, on the handler of the chain's phase (Handler): the requests of other
// nodes' bootstrappers and Gets are answered in every phase from the chain's accepted state; the
// answers to our bootstrapping requests reach the bootstrapper while it runs; the consensus
// messages are dropped until the Snowman engine runs. A message queued as the phases change
// hands may be lost; the router's timeouts cover it.
//
// The node tells it of connections (Connected, Disconnected): bootstrapping waits for enough
// connected beacon weight (§3.1).
type Consensus struct {
	cfg    ConsensusConfig
	d      ConsensusDeps
	ec     chains.EngineContext
	getter *getter.Getter

	inbox chan Message
	// peers are the connected nodes, as Connected and Disconnected told, and boot the
	// bootstrapper, nil before After: both are used by the engine goroutine only.
	peers map[ids.NodeID]bool
	boot  *bootstrap.Bootstrapper
	// runner is the Snowman engine's runner, nil until bootstrapping is done.
	runner atomic.Pointer[snowman.Runner]
	// bootstrapped is closed when the chain enters normal operation.
	bootstrapped chan struct{}

	mu sync.Mutex // guards progress
	// progress is the bootstrapper's, copied after each message it handles; nil before it
	// starts and after it is done.
	progress *bootstrap.Progress
}

// NewConsensus returns the engine of chain c.
func NewConsensus(c chains.EngineContext, cfg ConsensusConfig, d ConsensusDeps) *Consensus {
	bootstrapped := cfg.Bootstrapped
	if bootstrapped == nil {
		bootstrapped = make(chan struct{})
	}
	return &Consensus{
		cfg:          cfg,
		d:            d,
		ec:           c,
		getter:       getter.New(c.VM, c.Acceptor, d.Sender),
		inbox:        make(chan Message, 1024),
		peers:        make(map[ids.NodeID]bool),
		bootstrapped: bootstrapped,
	}
}

// Bootstrapped is closed when the chain has caught up and entered normal operation.
func (c *Consensus) Bootstrapped() <-chan struct{} { return c.bootstrapped }

// Progress implements chains.Progresser: how far bootstrapping has come (a bootstrap.Progress),
// and false before it starts and once it is done. It is safe for concurrent use.
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
	if c.cfg.After != nil {
		h := waiting{Getter: c.getter}
		if err := c.handleUntil(ctx, h, func() bool { return isClosed(c.cfg.After) }, c.cfg.After); err != nil || ctx.Err() != nil {
			return err
		}
	}
	// A stalled bootstrapper goes round again after BootstrapRetry.
	var retry *time.Timer
	defer func() {
		if retry != nil {
			retry.Stop()
		}
	}()
	beacons, err := c.d.Beacons()
	if err != nil {
		return fmt.Errorf("beacons of chain %s: %w", c.ec.Chain.ID, err)
	}
	c.boot = bootstrap.New(bootstrap.Config{Self: c.cfg.Self, Beacons: beacons}, bootstrap.Deps{
		VM: c.ec.VM, Acceptor: c.ec.Acceptor, Sender: c.d.Sender, Clock: c.ec.Clock, Log: c.ec.Log,
		Metrics: c.d.Metrics.For(c.ec.Chain.ID.String()),
	})
	c.setProgress()
	for id := range c.peers {
		if err := c.boot.Connected(ctx, id); err != nil {
			return err
		}
	}
	if err := c.boot.Start(ctx); err != nil {
		return err
	}
	h := bootstrapping{Bootstrapper: c.boot}
	for !c.boot.Done() {
		if !c.boot.Stalled() {
			if err := c.handleUntil(ctx, h, func() bool { return c.boot.Done() || c.boot.Stalled() }, nil); err != nil || ctx.Err() != nil {
				return err
			}
			continue
		}
		wake := make(chan struct{})
		retry = c.ec.Clock.AfterFunc(BootstrapRetry, func() { close(wake) })
		if err := c.handleUntil(ctx, h, func() bool { return isClosed(wake) }, wake); err != nil || ctx.Err() != nil {
			return err
		}
		if err := c.boot.Retry(ctx); err != nil {
			return err
		}
		c.setProgress()
	}
	return c.handOver(ctx)
}

// handleUntil runs queued messages on h until done reports true or ctx is done; wake, if not
// nil, is a channel whose closing makes it look at done.
func (c *Consensus) handleUntil(ctx context.Context, h Handler, done func() bool, wake <-chan struct{}) error {
	for !done() {
		select {
		case <-ctx.Done():
			return nil
		case <-wake:
			wake = nil
		case m := <-c.inbox:
			if err := m(ctx, h); err != nil {
				return err
			}
			c.setProgress()
		}
	}
	return nil
}

// handOver starts the Snowman engine on the caught-up chain, runs the messages queued meanwhile
// on it, and runs it.
func (c *Consensus) handOver(ctx context.Context) error {
	e, err := snowman.New(c.cfg.Snowman, snowman.Deps{
		VM: c.ec.VM, Acceptor: c.ec.Acceptor, Sender: c.d.Sender, Validators: c.d.Validators,
		Rand: c.d.Rand, Log: c.ec.Log, Clock: c.ec.Clock,
	})
	if err != nil {
		return fmt.Errorf("start consensus on chain %s: %w", c.ec.Chain.ID, err)
	}
	if err := c.ec.SetState(chains.NormalOperation); err != nil {
		return fmt.Errorf("enter %s: %w", chains.NormalOperation, err)
	}
	c.setProgress()
	r := snowman.NewRunner(e, c.ec.Clock)
	c.runner.Store(r)
	close(c.bootstrapped)
	c.ec.Log.Info("consensus started")
	for {
		select {
		case m := <-c.inbox:
			if err := m(ctx, e); err != nil {
				return err
			}
		default:
			return r.Run(ctx)
		}
	}
}

// setProgress copies the bootstrapper's progress for Progress.
func (c *Consensus) setProgress() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.boot == nil || c.boot.Done() {
		c.progress = nil
		return
	}
	p := c.boot.Progress()
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

// TryDeliver queues m for the chain's engine goroutine without waiting; false if the queue is
// full (the router's Chain).
func (c *Consensus) TryDeliver(m Message) bool {
	if r := c.runner.Load(); r != nil {
		return r.TryDeliver(onEngine(m))
	}
	select {
	case c.inbox <- m:
		return true
	default:
		return false
	}
}

// Deliver queues m for the chain's engine goroutine, waiting while the queue is full, until ctx
// is done (the router's Chain).
func (c *Consensus) Deliver(ctx context.Context, m Message) error {
	if r := c.runner.Load(); r != nil {
		return r.Deliver(ctx, onEngine(m))
	}
	select {
	case c.inbox <- m:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// onEngine runs m on the Snowman engine.
func onEngine(m Message) snowman.Message {
	return func(ctx context.Context, e *snowman.Engine) error { return m(ctx, e) }
}

// Connected tells that a peer connected: the node calls it for every peer connected when the
// engine starts, then on each connection. Bootstrapping waits for enough connected beacon
// weight (§3.1).
func (c *Consensus) Connected(ctx context.Context, nodeID ids.NodeID) error {
	return c.connection(ctx, nodeID, true)
}

// Disconnected tells that a peer left.
func (c *Consensus) Disconnected(ctx context.Context, nodeID ids.NodeID) error {
	return c.connection(ctx, nodeID, false)
}

// connection queues the news of a connection for the engine goroutine; consensus has no use
// for it.
func (c *Consensus) connection(ctx context.Context, nodeID ids.NodeID, up bool) error {
	if c.runner.Load() != nil {
		return nil
	}
	return c.Deliver(ctx, func(ctx context.Context, _ Handler) error {
		if !up {
			delete(c.peers, nodeID)
			if c.boot != nil {
				return c.boot.Disconnected(ctx, nodeID)
			}
			return nil
		}
		c.peers[nodeID] = true
		if c.boot != nil {
			return c.boot.Connected(ctx, nodeID)
		}
		return nil
	})
}
