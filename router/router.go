// Package router connects the chains' engines to the peer-to-peer network, as the reference's
// chain router and sender do (network-consensus-warp.md §1.8): every bootstrapping and consensus
// message a peer sends is decoded and handed to its chain's engine, on the chain's one goroutine;
// each chain's Sender encodes what its engine sends, delivers what it sends to this node itself
// in process, and keeps the requests it sends until they are answered or their deadline passes,
// when the matching failure (QueryFailed, GetFailed, ...) is injected instead. An answer that
// matches no request in flight (peer, chain, request ID, expected op) is dropped; one to a
// request sent while its peer was benched, whose failure the chain had at once, is counted on
// the benchlist and not delivered (bench.go).
//
// Messages that cannot be delivered — malformed, for an unknown chain, unrequested, of an op no
// engine takes, or arriving while the chain's queue is full — are dropped with a debug log and
// counted in router_dropped{reason}; nothing a peer sends can make the router panic or block the
// peer's reader.
//
// App requests are apart from the engines: a peer's AppRequest for a chain goes to the chain's
// [AppHandler] (the [Apps] the router is given), on one of a few workers, and its answer back as
// an AppResponse or AppError; [Router.AppRequest] sends this node's own and waits for the answer
// (the ACP-118 signature requests of network-consensus-warp.md §4.3 travel so).
//
// The router imports neither the network nor the VMs: it is handed a [Network] to send with, and
// each chain registers a [Chain], the goroutine its messages run on. It is safe for concurrent
// use.
package router

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/network/wire"
)

// DefaultTimeout is how long a request waits for its answer: the reference's adaptive timeout
// starts at 5 s (§1.8; §6.2 allows a fixed one).
const DefaultTimeout = 5 * time.Second

// Network sends messages to connected peers (*network.Network).
type Network interface {
	// Send queues m for nodeID, and reports false if it cannot (not connected, queue full).
	Send(nodeID ids.NodeID, m *wire.Message) bool
}

// Handler is a chain's engine as the router drives it in normal operation: the requests any
// validator may send, and the answers to the queries and Gets it sends itself.
// *snowman.Engine implements it.
type Handler interface {
	PushQuery(ctx context.Context, from ids.NodeID, requestID uint32, block []byte, requestedHeight uint64) error
	PullQuery(ctx context.Context, from ids.NodeID, requestID uint32, blockID ids.ID, requestedHeight uint64) error
	Chits(ctx context.Context, from ids.NodeID, requestID uint32, preferredID, preferredIDAtHeight, acceptedID ids.ID, acceptedHeight uint64) error
	QueryFailed(ctx context.Context, from ids.NodeID, requestID uint32) error
	Get(ctx context.Context, from ids.NodeID, requestID uint32, blockID ids.ID) error
	Put(ctx context.Context, from ids.NodeID, requestID uint32, block []byte) error
	GetFailed(ctx context.Context, from ids.NodeID, requestID uint32) error
	GetAncestors(ctx context.Context, from ids.NodeID, requestID uint32, blockID ids.ID) error
	GetAcceptedFrontier(ctx context.Context, from ids.NodeID, requestID uint32) error
	GetAccepted(ctx context.Context, from ids.NodeID, requestID uint32, blockIDs []ids.ID) error
}

// Bootstrapper is implemented by a chain's handler while it bootstraps: the answers to the
// requests of §3.2–3.3 and their failures. A chain whose handler does not implement it sent no
// such request, and the router drops their answers as unrequested.
type Bootstrapper interface {
	AcceptedFrontier(ctx context.Context, from ids.NodeID, requestID uint32, blockID ids.ID) error
	GetAcceptedFrontierFailed(ctx context.Context, from ids.NodeID, requestID uint32) error
	Accepted(ctx context.Context, from ids.NodeID, requestID uint32, blockIDs []ids.ID) error
	GetAcceptedFailed(ctx context.Context, from ids.NodeID, requestID uint32) error
	Ancestors(ctx context.Context, from ids.NodeID, requestID uint32, blocks [][]byte) error
	GetAncestorsFailed(ctx context.Context, from ids.NodeID, requestID uint32) error
}

// Message is one inbound message, as the chain's goroutine runs it on its current handler.
type Message func(ctx context.Context, h Handler) error

// Chain is the goroutine a chain's messages run on: its engine's.
type Chain interface {
	// TryDeliver queues m without waiting; false if the queue is full.
	TryDeliver(m Message) bool
	// Deliver queues m, waiting while the queue is full, until ctx is done.
	Deliver(ctx context.Context, m Message) error
}

// Connections is implemented by a registered Chain that wants to know which peers are
// connected (a bootstrapper waits for enough of its beacons, §3.1). The router calls Connected
// for every peer connected when the chain registers, then on each change, in order, from the
// network's goroutines: the methods should queue the news for the chain's goroutine.
type Connections interface {
	Connected(ctx context.Context, nodeID ids.NodeID) error
	Disconnected(ctx context.Context, nodeID ids.NodeID) error
}

// Config holds the router's settings.
type Config struct {
	// NodeID is this node's: messages to it are delivered in process.
	NodeID ids.NodeID
	// Timeout is how long a request waits for its answer; zero means DefaultTimeout.
	Timeout time.Duration
	// AppWorkers is how many peers' AppRequests are answered at once; zero means
	// DefaultAppWorkers.
	AppWorkers int
}

// Deps are the router's collaborators. Network is required; Clock defaults to clock.Real{} and
// Log to a discarding logger; without Apps, every AppRequest is dropped.
type Deps struct {
	Network Network
	Apps    Apps
	Clock   clock.Clock
	Log     *slog.Logger
	Metrics prometheus.Registerer
	// Weights, when set, limits the benchlist to each chain's validators and caps their benched
	// weight (bench.go); nil: every peer may be benched.
	Weights Weights
}

// Router routes the chains' messages. See the package documentation.
type Router struct {
	cfg     Config
	d       Deps
	metrics *metrics
	bench   *benchlist
	// ctx ends at Close: failures still waiting for a full queue give up then.
	ctx    context.Context
	cancel context.CancelFunc

	mu      sync.Mutex // guards the fields below
	chains  map[ids.ID]Chain
	pending map[requestKey]*time.Timer
	// probes are the requests sent to a peer benched on their chain, each until its answer or
	// its timeout: their failure reached the chain at once (§1.9), and what becomes of them
	// counts on the benchlist only, so that a benched peer that answers again is unbenched
	// below unbenchProbability, before its bench runs out (bench.go).
	probes map[requestKey]*time.Timer
	// connected are the connected peers, as Connected and Disconnected told.
	connected map[ids.NodeID]bool
	// appPending are this node's AppRequests in flight, each with where its answer goes.
	appPending map[appKey]chan appAnswer
	// connMu orders the connection news each Connections chain gets: held while telling them.
	connMu sync.Mutex

	// nextAppID numbers this node's AppRequests.
	nextAppID atomic.Uint32
	// appJobs are the peers' AppRequests waiting for a worker.
	appJobs chan appJob
	// gossipJobs are the peers' AppGossips waiting for the gossip worker.
	gossipJobs chan gossipJob
	// workers are the app workers, stopped by Close.
	workers sync.WaitGroup
}

// requestKey names a request in flight by what its answer must match (§1.8).
type requestKey struct {
	nodeID    ids.NodeID
	chainID   ids.ID
	requestID uint32
	// reply is the op that answers it.
	reply wire.Op
}

// New returns a router with no chain.
func New(cfg Config, d Deps) (*Router, error) {
	if d.Network == nil {
		return nil, errors.New("router: Deps.Network is required")
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.AppWorkers == 0 {
		cfg.AppWorkers = DefaultAppWorkers
	}
	if d.Clock == nil {
		d.Clock = clock.Real{}
	}
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	m, err := newMetrics(d.Metrics)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := &Router{
		cfg: cfg, d: d, metrics: m, ctx: ctx, cancel: cancel, bench: newBenchlist(d.Clock, d.Weights),
		chains:     make(map[ids.ID]Chain),
		pending:    make(map[requestKey]*time.Timer),
		probes:     make(map[requestKey]*time.Timer),
		connected:  make(map[ids.NodeID]bool),
		appPending: make(map[appKey]chan appAnswer),
		appJobs:    make(chan appJob, appQueue),
		gossipJobs: make(chan gossipJob, gossipQueue),
	}
	for range cfg.AppWorkers {
		r.workers.Go(r.appWorker)
	}
	r.workers.Go(r.gossipWorker)
	return r, nil
}

// Register routes chainID's messages to c from now on, and returns the Sender of its engine. A
// c that implements Connections is told of every peer connected now.
func (r *Router) Register(chainID ids.ID, c Chain) (*Sender, error) {
	r.connMu.Lock()
	defer r.connMu.Unlock()
	r.mu.Lock()
	if _, ok := r.chains[chainID]; ok {
		r.mu.Unlock()
		return nil, fmt.Errorf("router: chain %s is registered already", chainID)
	}
	r.chains[chainID] = c
	peers := slices.Collect(maps.Keys(r.connected))
	r.mu.Unlock()
	if conn, ok := c.(Connections); ok {
		for _, nodeID := range peers {
			if err := conn.Connected(r.ctx, nodeID); err != nil {
				r.d.Log.Debug("connection news dropped", "chainID", chainID.String(), "err", err)
			}
		}
	}
	return &Sender{r: r, chainID: chainID}, nil
}

// Connected tells the chains that implement Connections that nodeID connected.
func (r *Router) Connected(nodeID ids.NodeID) {
	r.connMu.Lock()
	defer r.connMu.Unlock()
	r.mu.Lock()
	r.connected[nodeID] = true
	r.mu.Unlock()
	r.tell(func(chainID ids.ID, c Connections) error {
		if r.bench.isBenched(chainID, nodeID) {
			return nil // it stays disconnected there until unbenched
		}
		return c.Connected(r.ctx, nodeID)
	})
}

// tell calls f on each registered chain that implements Connections; connMu is held.
func (r *Router) tell(f func(chainID ids.ID, c Connections) error) {
	r.mu.Lock()
	chains := maps.Clone(r.chains)
	r.mu.Unlock()
	for chainID, c := range chains {
		if conn, ok := c.(Connections); ok {
			if err := f(chainID, conn); err != nil {
				r.d.Log.Debug("connection news dropped", "err", err)
			}
		}
	}
}

// Unregister stops routing chainID's messages, and forgets its requests in flight.
func (r *Router) Unregister(chainID ids.ID) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.chains, chainID)
	r.bench.forget(chainID)
	for _, m := range []map[requestKey]*time.Timer{r.pending, r.probes} {
		for k, t := range m {
			if k.chainID == chainID {
				t.Stop()
				delete(m, k)
			}
		}
	}
}

// Close stops every timer and the app workers, and waits for them; failures waiting for a full
// queue are given up.
func (r *Router) Close() {
	r.cancel()
	r.workers.Wait()
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, m := range []map[requestKey]*time.Timer{r.pending, r.probes} {
		for k, t := range m {
			t.Stop()
			delete(m, k)
		}
	}
}

// HandleInbound routes a chain message from a connected peer (network.Handler).
func (r *Router) HandleInbound(from ids.NodeID, msg *wire.Message) {
	if wire.IsAppOp(msg.Op) {
		r.handleApp(from, msg.Op, msg.Body)
		return
	}
	if !wire.IsChainOp(msg.Op) {
		r.drop(reasonUnhandledOp, from, msg.Op, nil)
		return
	}
	c, err := wire.ParseChain(msg.Op, msg.Body)
	if err != nil {
		r.drop(reasonMalformed, from, msg.Op, err)
		return
	}
	r.metrics.received.WithLabelValues(msg.Op.String()).Inc()
	r.route(from, msg.Op, c)
}

// Disconnected fails at once every request in flight to nodeID (AppRequests included), which
// cannot answer any more, and tells the chains that implement Connections.
func (r *Router) Disconnected(nodeID ids.NodeID) {
	r.connMu.Lock()
	defer r.connMu.Unlock()
	r.mu.Lock()
	delete(r.connected, nodeID)
	for k := range r.pending {
		if k.nodeID == nodeID {
			r.failLocked(k)
		}
	}
	// A peer that left answers none of its probes: they are not counted.
	for k, t := range r.probes {
		if k.nodeID == nodeID {
			t.Stop()
			delete(r.probes, k)
		}
	}
	r.failAppsLocked(nodeID)
	r.mu.Unlock()
	r.tell(func(chainID ids.ID, c Connections) error {
		if r.bench.isBenched(chainID, nodeID) {
			return nil // told when it was benched
		}
		return c.Disconnected(r.ctx, nodeID)
	})
}

// route hands a decoded message to its chain: a request at once, an answer only if it matches a
// request in flight.
func (r *Router) route(from ids.NodeID, op wire.Op, c *wire.Chain) {
	r.mu.Lock()
	ch, ok := r.chains[c.ChainID]
	if !ok {
		r.mu.Unlock()
		r.drop(reasonUnknownChain, from, op, nil)
		return
	}
	request := wire.IsRequest(op)
	if !request {
		k := requestKey{nodeID: from, chainID: c.ChainID, requestID: c.RequestID, reply: op}
		t, ok := r.pending[k]
		if !ok {
			p, probe := r.probes[k]
			if probe {
				p.Stop()
				delete(r.probes, k)
			}
			r.mu.Unlock()
			if probe {
				// The chain had the request's failure when it was sent: only the benchlist
				// hears the answer.
				r.observe(c.ChainID, from, false)
				return
			}
			r.drop(reasonUnrequested, from, op, nil)
			return
		}
		t.Stop()
		delete(r.pending, k)
	}
	r.mu.Unlock()
	if !request {
		r.observe(c.ChainID, from, false)
	}

	m := message(from, op, c)
	if ch.TryDeliver(m) {
		return
	}
	if request {
		// The requester's timeout turns the lost request into a failure.
		r.drop(reasonQueueFull, from, op, nil)
		return
	}
	// An answer is never lost: the engine waits on it (every Get ends in Put or GetFailed).
	go r.deliver(ch, m)
}

// deliver waits until the chain takes m, or the router closes.
func (r *Router) deliver(ch Chain, m Message) {
	if err := ch.Deliver(r.ctx, m); err != nil {
		r.d.Log.Debug("message dropped at close", "err", err)
	}
}

// expect records a request in flight; its failure is delivered if no answer comes within the
// timeout.
func (r *Router) expect(k requestKey) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if old, ok := r.pending[k]; ok {
		// A request ID used twice: the first one's answer now answers the second.
		old.Stop()
	}
	r.pending[k] = r.d.Clock.AfterFunc(r.cfg.Timeout, func() { r.expire(k, true) })
}

// fail delivers k's failure at once: the request could not be sent.
func (r *Router) fail(k requestKey) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failLocked(k)
}

// failLocked delivers k's failure at once, unless its timeout fired already; the failure is not
// the peer's timeout. Assumes r.mu is held.
func (r *Router) failLocked(k requestKey) {
	if t, ok := r.pending[k]; ok && t.Stop() {
		go r.expire(k, false)
	}
}

// probe delivers k's failure at once, as the peer is benched on k's chain, and keeps k as a
// probe until its answer or its timeout, which the benchlist counts as for any request.
func (r *Router) probe(k requestKey) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if t, ok := r.pending[k]; !ok || !t.Stop() {
		return // its chain is gone
	}
	delete(r.pending, k)
	if old, ok := r.probes[k]; ok {
		old.Stop()
	}
	r.probes[k] = r.d.Clock.AfterFunc(r.cfg.Timeout, func() { r.probeTimedOut(k) })
	if ch, ok := r.chains[k.chainID]; ok {
		r.metrics.timeouts.WithLabelValues(k.reply.String()).Inc()
		// The engine's goroutine sends the request: it cannot wait for its own queue.
		go r.deliver(ch, failure(k))
	}
}

// probeTimedOut counts the timeout of probe k, unless its answer came first.
func (r *Router) probeTimedOut(k requestKey) {
	r.mu.Lock()
	_, ok := r.probes[k]
	delete(r.probes, k)
	r.mu.Unlock()
	if ok {
		r.observe(k.chainID, k.nodeID, true)
	}
}

// expire delivers the failure of a request that got no answer: in time (timedOut, which counts
// against the peer on the benchlist) or at all (it could not be sent, or the peer left).
func (r *Router) expire(k requestKey, timedOut bool) {
	r.mu.Lock()
	if _, ok := r.pending[k]; !ok {
		r.mu.Unlock()
		return // answered, or its chain is gone
	}
	delete(r.pending, k)
	ch, ok := r.chains[k.chainID]
	r.mu.Unlock()
	if !ok {
		return
	}
	r.metrics.timeouts.WithLabelValues(k.reply.String()).Inc()
	if timedOut {
		r.observe(k.chainID, k.nodeID, true)
	}
	r.deliver(ch, failure(k))
}

// observe records the outcome of a request to a peer on the benchlist, and tells chainID when
// the peer is benched there (Disconnected) or unbenched (Connected, if it still is). Requests to
// this node itself are not measured.
func (r *Router) observe(chainID ids.ID, nodeID ids.NodeID, timedOut bool) {
	if nodeID == r.cfg.NodeID {
		return
	}
	switch r.bench.observe(chainID, nodeID, timedOut, r.unbenched) {
	case 1:
		r.metrics.benched.Inc()
		r.d.Log.Info("peer benched", "chainID", chainID.String(), "nodeID", nodeID)
		r.tellChain(chainID, nodeID, false)
	case -1:
		r.unbenched(chainID, nodeID)
	}
}

// unbenched tells chainID that nodeID, no longer benched there, is connected, if it is.
func (r *Router) unbenched(chainID ids.ID, nodeID ids.NodeID) {
	r.d.Log.Info("peer unbenched", "chainID", chainID.String(), "nodeID", nodeID)
	r.tellChain(chainID, nodeID, true)
}

// tellChain tells chainID, if it implements Connections, that nodeID connected (if it still is)
// or disconnected; a disconnection also fails its requests in flight to nodeID on chainID.
func (r *Router) tellChain(chainID ids.ID, nodeID ids.NodeID, connected bool) {
	r.connMu.Lock()
	defer r.connMu.Unlock()
	r.mu.Lock()
	ch, ok := r.chains[chainID]
	if connected && !r.connected[nodeID] {
		ok = false
	}
	if !connected {
		for k := range r.pending {
			if k.nodeID == nodeID && k.chainID == chainID {
				r.failLocked(k)
			}
		}
	}
	r.mu.Unlock()
	conn, isConn := ch.(Connections)
	if !ok || !isConn {
		return
	}
	var err error
	if connected {
		err = conn.Connected(r.ctx, nodeID)
	} else {
		err = conn.Disconnected(r.ctx, nodeID)
	}
	if err != nil {
		r.d.Log.Debug("connection news dropped", "chainID", chainID.String(), "err", err)
	}
}

// Benched returns the chains on which nodeID is benched (info.peers' benched), in no order.
func (r *Router) Benched(nodeID ids.NodeID) []ids.ID { return r.bench.benchedOn(nodeID) }

// message is the call of h's method for op.
func message(from ids.NodeID, op wire.Op, c *wire.Chain) Message {
	id := c.RequestID
	switch op {
	case wire.OpPushQuery:
		return func(ctx context.Context, h Handler) error {
			return h.PushQuery(ctx, from, id, c.Container, c.RequestedHeight)
		}
	case wire.OpPullQuery:
		return func(ctx context.Context, h Handler) error {
			return h.PullQuery(ctx, from, id, c.ContainerID, c.RequestedHeight)
		}
	case wire.OpChits:
		return func(ctx context.Context, h Handler) error {
			return h.Chits(ctx, from, id, c.PreferredID, c.PreferredIDAtHeight, c.AcceptedID, c.AcceptedHeight)
		}
	case wire.OpGet:
		return func(ctx context.Context, h Handler) error { return h.Get(ctx, from, id, c.ContainerID) }
	case wire.OpPut:
		return func(ctx context.Context, h Handler) error { return h.Put(ctx, from, id, c.Container) }
	case wire.OpGetAncestors:
		return func(ctx context.Context, h Handler) error { return h.GetAncestors(ctx, from, id, c.ContainerID) }
	case wire.OpGetAcceptedFrontier:
		return func(ctx context.Context, h Handler) error { return h.GetAcceptedFrontier(ctx, from, id) }
	case wire.OpGetAccepted:
		return func(ctx context.Context, h Handler) error { return h.GetAccepted(ctx, from, id, c.ContainerIDs) }
	case wire.OpAcceptedFrontier:
		return bootstrapping(func(ctx context.Context, b Bootstrapper) error {
			return b.AcceptedFrontier(ctx, from, id, c.ContainerID)
		})
	case wire.OpAccepted:
		return bootstrapping(func(ctx context.Context, b Bootstrapper) error {
			return b.Accepted(ctx, from, id, c.ContainerIDs)
		})
	default: // wire.OpAncestors: the chain ops end here
		return bootstrapping(func(ctx context.Context, b Bootstrapper) error {
			return b.Ancestors(ctx, from, id, c.Containers)
		})
	}
}

// failure is the call that tells k's chain that k failed.
func failure(k requestKey) Message {
	from, id := k.nodeID, k.requestID
	switch k.reply {
	case wire.OpChits:
		return func(ctx context.Context, h Handler) error { return h.QueryFailed(ctx, from, id) }
	case wire.OpPut:
		return func(ctx context.Context, h Handler) error { return h.GetFailed(ctx, from, id) }
	case wire.OpAcceptedFrontier:
		return bootstrapping(func(ctx context.Context, b Bootstrapper) error {
			return b.GetAcceptedFrontierFailed(ctx, from, id)
		})
	case wire.OpAccepted:
		return bootstrapping(func(ctx context.Context, b Bootstrapper) error {
			return b.GetAcceptedFailed(ctx, from, id)
		})
	default: // wire.OpAncestors
		return bootstrapping(func(ctx context.Context, b Bootstrapper) error {
			return b.GetAncestorsFailed(ctx, from, id)
		})
	}
}

// bootstrapping runs f if the chain's handler bootstraps; a handler that moved on to normal
// operation has no use for it.
func bootstrapping(f func(ctx context.Context, b Bootstrapper) error) Message {
	return func(ctx context.Context, h Handler) error {
		b, ok := h.(Bootstrapper)
		if !ok {
			return nil
		}
		return f(ctx, b)
	}
}

// drop counts and logs a message that is not delivered.
func (r *Router) drop(reason string, from ids.NodeID, op wire.Op, err error) {
	r.metrics.dropped.WithLabelValues(reason).Inc()
	r.d.Log.Debug("chain message dropped", "reason", reason, "nodeID", from.String(), "op", op.String(), "err", err)
}
