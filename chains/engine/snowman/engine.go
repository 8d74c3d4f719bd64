// Package snowman is the engine of a chain whose validator weight this node shares with others:
// it issues blocks into the Snowman core (consensus/snowman), polls samples of stake with
// PushQuery and PullQuery, answers the queries of others with Chits, fetches missing blocks with
// Get and Put, and applies the core's decisions through the chain's accept path
// (reference/network-consensus-warp.md §2.3–2.4). The requests of nodes that bootstrap from it
// (GetAcceptedFrontier, GetAccepted, GetAncestors) and Gets are answered by its embedded Getter
// (chains/engine/getter), the bootstrapper's too.
//
// It never imports the network: it declares the Sender it sends with and the Validators it
// samples, and the node's router calls its message methods (PullQuery, Chits, ...), injecting
// QueryFailed and GetFailed when a request times out (§1.8); every Get must end in a Put or a
// GetFailed, since votes wait on it. Those methods, Build and Gossip must be called from one
// goroutine at a time, the chain's; Runner.Run is that goroutine when messages arrive through
// Deliver.
//
// Bootstrapping comes before it in engine.Consensus, which runs the bootstrapper
// (chains/engine/bootstrap), then this engine under a Runner. Not done yet (issue #13): the
// connected-stake guard of §2.1.
package snowman

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"time"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/chains/engine/getter"
	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/consensus/sampler"
	consensus "github.com/cornice-node/cornice/consensus/snowman"
	"github.com/cornice-node/cornice/ids"
)

// A block that failed verification here is neither fetched nor verified again until its retry
// time: FailedRetry after its first failure, doubling with each further failure up to
// MaxFailedRetry. MaxFailed is how many such blocks an engine remembers (the oldest is forgotten
// first). A block that does not verify here may stay processing on the node that built it, whose
// polls name it again and again: without the memory, every query and Chits naming it would
// fetch it (Get, Put) and verify it anew, a busy loop of thousands of messages a second. The
// short first retry lets a block that failed for a passing reason in again soon: an import whose
// UTXOs the source chain here has not accepted yet, a timestamp just ahead of our clock.
const (
	FailedRetry    = 500 * time.Millisecond
	MaxFailedRetry = 30 * time.Second
	MaxFailed      = 1024
)

// failure is when a block last failed verification here, and how many times it did.
type failure struct {
	at    time.Time
	count int
}

// Sender sends this chain's consensus messages to other nodes (and to this node itself, which
// the router delivers in process, §1.8), and the answers of its Getter. Sends do not block on
// the peer and report no error: a request that gets no answer times out into QueryFailed or
// GetFailed.
type Sender interface {
	getter.Sender
	SendPushQuery(ctx context.Context, to []ids.NodeID, requestID uint32, block []byte, requestedHeight uint64)
	SendPullQuery(ctx context.Context, to []ids.NodeID, requestID uint32, blockID ids.ID, requestedHeight uint64)
	SendChits(ctx context.Context, to ids.NodeID, requestID uint32, preferredID, preferredIDAtHeight, acceptedID ids.ID, acceptedHeight uint64)
	SendGet(ctx context.Context, to ids.NodeID, requestID uint32, blockID ids.ID)
}

// Validators gives the weights of the chain's validators, which polls sample.
type Validators interface {
	// Weights returns every validator of subnetID with its weight.
	Weights(subnetID ids.ID) (map[ids.NodeID]uint64, error)
}

// Acceptor is the chain's accept path (*chains.Acceptor).
type Acceptor interface {
	Accept(ctx context.Context, blk chains.Block) error
	LastAccepted() (ids.ID, uint64)
}

// Config is what an Engine is made with.
type Config struct {
	// SubnetID is the subnet whose validators the chain's polls sample.
	SubnetID ids.ID
	// Params are the consensus parameters (config.Snow); K is capped at the validators' total
	// weight (consensus.Parameters.ForWeight).
	Params consensus.Parameters
	// MinBlockGap is the least time between two blocks this engine builds (the reference's
	// minimum block delay, §2.8); zero means none.
	MinBlockGap time.Duration
}

// Deps are the Engine's collaborators.
type Deps struct {
	VM         chains.VM
	Acceptor   Acceptor
	Sender     Sender
	Validators Validators
	// Rand draws the samples.
	Rand sampler.Source
	Log  *slog.Logger
	// Clock times MinBlockGap; nil means clock.Real{}.
	Clock clock.Clock
}

// Engine is one chain's Snowman engine. Its embedded Getter answers GetAcceptedFrontier,
// GetAccepted, GetAncestors and Get, as the bootstrapper's does.
type Engine struct {
	*getter.Getter

	cfg Config
	d   Deps

	core  *consensus.Consensus
	polls *consensus.Polls

	// processing holds the blocks the core holds as processing.
	processing map[ids.ID]chains.Block
	// waiting holds verified-later blocks whose parent is being fetched, by parent ID.
	waiting map[ids.ID][]chains.Block
	// fetching maps the request ID of each Get in flight to the block it asks for.
	fetching map[uint32]ids.ID
	// nextRequestID numbers queries and Gets alike.
	nextRequestID uint32
	// acceptedBy is the last accepted block each validator reported in its Chits: its vote
	// when a later query to it fails (§2.4 step 3).
	acceptedBy map[ids.NodeID]ids.ID
	// parked are the Chits votes for blocks we are still getting, by block ID: each is cast
	// when its block is issued, or dropped when the block is abandoned (§2.4 step 3).
	// Invariant: every parked block is being fetched or waits in waiting, so each Get's answer
	// or failure settles it.
	parked map[ids.ID][]parkedVote
	// ready are the results of finished polls not yet recorded, oldest first; flush records
	// them.
	ready []consensus.Votes
	// builtAt is when this engine last built a block; buildAt, when not zero, is when building
	// waits for: the VM may have work, but MinBlockGap has not passed.
	builtAt, buildAt time.Time
	// failed holds when each block that failed verification last did and how often, at most
	// MaxFailed of them; failedOrder lists them oldest first, for eviction.
	failed      map[ids.ID]failure
	failedOrder []ids.ID
	// accepted are the blocks this engine accepted last: the blocks most Chits and PullQueries
	// name once they are decided, which known and coming then tell apart from unknown ones
	// without reading (and decoding) the whole block back from the VM.
	accepted recentIDs
}

// recentAccepted is how many accepted block IDs an Engine remembers: far more than the blocks a
// poll can still name (OptimalProcessing processing blocks and the peers' last accepted ones).
const recentAccepted = 256

// recentIDs is a set of the last IDs added, at most recentAccepted of them.
type recentIDs struct {
	set  map[ids.ID]struct{}
	ring [recentAccepted]ids.ID
	next int
}

// add adds id, forgetting the oldest ID once the set is full.
func (r *recentIDs) add(id ids.ID) {
	if r.set == nil {
		r.set = make(map[ids.ID]struct{}, recentAccepted)
	}
	if len(r.set) == recentAccepted {
		delete(r.set, r.ring[r.next])
	}
	r.ring[r.next] = id
	r.set[id] = struct{}{}
	r.next = (r.next + 1) % recentAccepted
}

// has reports whether id is one of the last IDs added.
func (r *recentIDs) has(id ids.ID) bool {
	_, ok := r.set[id]
	return ok
}

// parkedVote is a validator's answer to a poll, waiting for the block it names.
type parkedVote struct {
	requestID uint32
	from      ids.NodeID
}

// New returns the engine of a chain whose last accepted block is the Acceptor's.
func New(cfg Config, d Deps) (*Engine, error) {
	if d.Clock == nil {
		d.Clock = clock.Real{}
	}
	lastID, height := d.Acceptor.LastAccepted()
	core, err := consensus.New(cfg.Params, lastID, height)
	if err != nil {
		return nil, fmt.Errorf("snowman engine: %w", err)
	}
	e := &Engine{
		Getter:     getter.New(d.VM, d.Acceptor, d.Sender),
		cfg:        cfg,
		d:          d,
		core:       core,
		polls:      consensus.NewPolls(core),
		processing: make(map[ids.ID]chains.Block),
		waiting:    make(map[ids.ID][]chains.Block),
		fetching:   make(map[uint32]ids.ID),
		acceptedBy: make(map[ids.NodeID]ids.ID),
		parked:     make(map[ids.ID][]parkedVote),
		failed:     make(map[ids.ID]failure),
	}
	e.accepted.add(lastID)
	return e, nil
}

// Preference returns the block the engine prefers: the tip of the preferred chain.
func (e *Engine) Preference() ids.ID { return e.core.Preference() }

// NumProcessing returns the number of processing blocks.
func (e *Engine) NumProcessing() int { return e.core.NumProcessing() }

// Build builds and issues blocks while the VM has work and fewer than OptimalProcessing blocks
// are processing (§2.4 step 5); each is pushed to a sample of validators.
func (e *Engine) Build(ctx context.Context) error {
	if err := e.build(ctx); err != nil {
		return err
	}
	return e.flush(ctx)
}

func (e *Engine) build(ctx context.Context) error {
	e.buildAt = time.Time{}
	for e.core.NumProcessing() < e.cfg.Params.OptimalProcessing {
		if next := e.builtAt.Add(e.cfg.MinBlockGap); e.cfg.MinBlockGap > 0 && e.d.Clock.Now().Before(next) {
			e.buildAt = next
			return nil
		}
		blk, err := e.d.VM.BuildBlock(ctx)
		switch {
		case errors.Is(err, chains.ErrNoWork), ctx.Err() != nil:
			return nil
		case err != nil:
			e.d.Log.Warn("block building failed", "err", err)
			return nil
		}
		e.builtAt = e.d.Clock.Now()
		issued, err := e.issue(ctx, blk)
		if err != nil || !issued {
			return err
		}
		// A block we built is pushed: the others have not seen it (§2.4 step 2).
		if err := e.query(ctx, blk, true); err != nil {
			return err
		}
	}
	return nil
}

// BuildAt returns when Build should be called again, if building waits for MinBlockGap to
// pass.
func (e *Engine) BuildAt() (time.Time, bool) { return e.buildAt, !e.buildAt.IsZero() }

// PushQuery answers from's query with our Chits, then issues the block it carries.
func (e *Engine) PushQuery(ctx context.Context, from ids.NodeID, requestID uint32, block []byte, requestedHeight uint64) error {
	e.sendChits(ctx, from, requestID, requestedHeight)
	blk, err := e.d.VM.ParseBlock(ctx, block)
	if err != nil {
		e.d.Log.Debug("dropped a pushed block that does not parse", "nodeID", from.String(), "err", err)
		return nil
	}
	if err := e.issueFrom(ctx, from, blk); err != nil {
		return err
	}
	return e.flush(ctx)
}

// PullQuery answers from's query with our Chits, then fetches the block if we lack it.
func (e *Engine) PullQuery(ctx context.Context, from ids.NodeID, requestID uint32, blockID ids.ID, requestedHeight uint64) error {
	e.sendChits(ctx, from, requestID, requestedHeight)
	e.fetch(ctx, from, blockID)
	return nil
}

// Chits is from's answer to our query requestID (§2.4 step 3). Its vote goes to preferredID if
// that block is processing here; if we do not have it yet, the vote waits until it is issued
// (and the block is fetched from from), or is dropped if it never is. Otherwise the vote goes to
// preferredIDAtHeight if that is processing, and from is dropped from the poll if not.
func (e *Engine) Chits(ctx context.Context, from ids.NodeID, requestID uint32, preferredID, preferredIDAtHeight, acceptedID ids.ID, _ uint64) error {
	e.acceptedBy[from] = acceptedID
	switch {
	case e.core.Processing(preferredID):
		e.vote(requestID, from, preferredID)
	case e.coming(ctx, from, preferredID):
		e.parked[preferredID] = append(e.parked[preferredID], parkedVote{requestID, from})
	case e.core.Processing(preferredIDAtHeight):
		e.vote(requestID, from, preferredIDAtHeight)
	default:
		e.drop(requestID, from)
	}
	return e.flush(ctx)
}

// QueryFailed records that from's query failed or timed out: the last accepted block from
// reported in its Chits counts as its vote if that block is still processing here; otherwise
// from is dropped from the poll (§2.4 step 3).
func (e *Engine) QueryFailed(ctx context.Context, from ids.NodeID, requestID uint32) error {
	if accepted, ok := e.acceptedBy[from]; ok && e.core.Processing(accepted) {
		e.vote(requestID, from, accepted)
	} else {
		e.drop(requestID, from)
	}
	return e.flush(ctx)
}

// Put is the answer to our Get requestID: the block is issued, or waits for its own parent. A
// block other than the one asked for settles nothing: the one asked for is abandoned.
func (e *Engine) Put(ctx context.Context, from ids.NodeID, requestID uint32, block []byte) error {
	want, ok := e.fetching[requestID]
	if !ok {
		return nil // not ours, or answered already (§1.8: unmatched replies are dropped)
	}
	delete(e.fetching, requestID)
	blk, err := e.d.VM.ParseBlock(ctx, block)
	if err != nil || blk.ID() != want {
		e.d.Log.Debug("dropped a block that does not parse or was not asked for", "nodeID", from.String(), "err", err)
		e.abandon(want)
		return e.flush(ctx)
	}
	if err := e.issueFrom(ctx, from, blk); err != nil {
		return err
	}
	return e.flush(ctx)
}

// GetFailed abandons the block the Get requestID asked for; it is asked for again when it is
// next mentioned.
func (e *Engine) GetFailed(ctx context.Context, _ ids.NodeID, requestID uint32) error {
	want, ok := e.fetching[requestID]
	if !ok {
		return nil
	}
	delete(e.fetching, requestID)
	e.abandon(want)
	return e.flush(ctx)
}

// vote and drop record an answer to a poll; the polls it finishes wait in ready for flush.
func (e *Engine) vote(requestID uint32, from ids.NodeID, blockID ids.ID) {
	e.ready = append(e.ready, e.polls.Vote(requestID, from, blockID)...)
}

func (e *Engine) drop(requestID uint32, from ids.NodeID) {
	e.ready = append(e.ready, e.polls.Drop(requestID, from)...)
}

// coming reports whether blockID is on its way: waiting for its parent, or unknown and now
// fetched from from. An accepted or processing block is not coming.
func (e *Engine) coming(ctx context.Context, from ids.NodeID, blockID ids.ID) bool {
	if e.isWaiting(blockID) {
		return true
	}
	if e.accepted.has(blockID) {
		return false
	}
	if _, err := e.d.VM.GetBlock(ctx, blockID); err == nil {
		return false
	}
	e.fetch(ctx, from, blockID)
	return e.isFetching(blockID)
}

// abandon gives up on a block we were getting: the votes parked on it are dropped, and the
// blocks waiting for it are abandoned too.
func (e *Engine) abandon(blockID ids.ID) {
	for _, v := range e.parked[blockID] {
		e.drop(v.requestID, v.from)
	}
	delete(e.parked, blockID)
	children := e.waiting[blockID]
	delete(e.waiting, blockID)
	for _, child := range children {
		e.abandon(child.ID())
	}
}

// sendChits answers a query: our preference, our preferred (or accepted) block at the
// requested height, and our last accepted block (§2.3).
func (e *Engine) sendChits(ctx context.Context, to ids.NodeID, requestID uint32, requestedHeight uint64) {
	lastID, lastHeight := e.core.LastAccepted()
	pref := e.core.Preference()
	atHeight := pref
	if requestedHeight <= lastHeight {
		if id, err := e.d.VM.GetBlockIDAtHeight(ctx, requestedHeight); err == nil {
			atHeight = id
		}
	} else if id, ok := e.core.PreferenceAtHeight(requestedHeight); ok {
		atHeight = id
	}
	e.d.Sender.SendChits(ctx, to, requestID, pref, atHeight, lastID, lastHeight)
}

// fetch asks from for blockID unless we have it, already asked for it, or it failed
// verification within FailedRetry.
func (e *Engine) fetch(ctx context.Context, from ids.NodeID, blockID ids.ID) {
	if e.known(ctx, blockID) || e.isFetching(blockID) || e.failedRecently(blockID) {
		return
	}
	e.nextRequestID++
	e.fetching[e.nextRequestID] = blockID
	e.d.Sender.SendGet(ctx, from, e.nextRequestID, blockID)
}

// known reports whether blockID is processing, accepted, or waiting for its parent.
func (e *Engine) known(ctx context.Context, blockID ids.ID) bool {
	if _, ok := e.processing[blockID]; ok || e.accepted.has(blockID) || e.isWaiting(blockID) {
		return true
	}
	_, err := e.d.VM.GetBlock(ctx, blockID)
	return err == nil
}

// failedVerification records that blockID failed verification now, forgetting the oldest such
// block beyond MaxFailed.
func (e *Engine) failedVerification(blockID ids.ID) {
	f, ok := e.failed[blockID]
	if !ok {
		if len(e.failedOrder) == MaxFailed {
			delete(e.failed, e.failedOrder[0])
			e.failedOrder = e.failedOrder[1:]
		}
		e.failedOrder = append(e.failedOrder, blockID)
	}
	e.failed[blockID] = failure{at: e.d.Clock.Now(), count: f.count + 1}
}

// failedRecently reports whether blockID failed verification and its retry time has not come:
// FailedRetry after a first failure, twice as long after each further one, at most
// MaxFailedRetry.
func (e *Engine) failedRecently(blockID ids.ID) bool {
	f, ok := e.failed[blockID]
	if !ok {
		return false
	}
	wait := MaxFailedRetry
	if f.count <= 16 {
		wait = min(FailedRetry<<(f.count-1), MaxFailedRetry)
	}
	return e.d.Clock.Now().Sub(f.at) < wait
}

// isWaiting reports whether blockID waits for its parent.
func (e *Engine) isWaiting(blockID ids.ID) bool {
	for _, blocks := range e.waiting {
		if slices.ContainsFunc(blocks, func(b chains.Block) bool { return b.ID() == blockID }) {
			return true
		}
	}
	return false
}

// isFetching reports whether a Get for blockID is in flight.
func (e *Engine) isFetching(blockID ids.ID) bool {
	for _, asked := range e.fetching {
		if asked == blockID {
			return true
		}
	}
	return false
}

// issueFrom issues blk, which from sent; if its parent is missing, blk waits and the parent is
// fetched from the same node (§2.4 step 1).
func (e *Engine) issueFrom(ctx context.Context, from ids.NodeID, blk chains.Block) error {
	lastID, lastHeight := e.core.LastAccepted()
	switch parent := blk.Parent(); {
	case e.core.Processing(blk.ID()):
		return nil // issued already
	case e.failedRecently(blk.ID()):
		e.abandon(blk.ID())
		return nil
	case e.failedRecently(parent):
		e.failedVerification(blk.ID()) // it cannot verify on a parent that does not
		e.abandon(blk.ID())
		return nil
	case blk.Height() <= lastHeight:
		e.abandon(blk.ID()) // decided
		return nil
	case parent != lastID && !e.core.Processing(parent):
		if blk.Height() == lastHeight+1 {
			e.abandon(blk.ID()) // its parent conflicts with the last accepted block: rejected
			return nil
		}
		if !slices.ContainsFunc(e.waiting[parent], func(b chains.Block) bool { return b.ID() == blk.ID() }) {
			e.waiting[parent] = append(e.waiting[parent], blk)
		}
		e.fetch(ctx, from, parent)
		return nil
	}
	issued, err := e.issue(ctx, blk)
	if err != nil || !issued {
		return err
	}
	return e.repoll(ctx)
}

// issue verifies blk, whose parent is processing or the last accepted block, adds it to the
// core, then issues the blocks that waited for it. It reports whether blk was added.
func (e *Engine) issue(ctx context.Context, blk chains.Block) (bool, error) {
	_, parentHeight := e.core.LastAccepted()
	if parent, ok := e.processing[blk.Parent()]; ok {
		parentHeight = parent.Height()
	}
	if blk.Height() != parentHeight+1 {
		e.d.Log.Debug("dropped a block whose height is not its parent's plus one", "blockID", blk.ID().String())
		e.abandon(blk.ID())
		return false, nil
	}
	if err := blk.Verify(ctx); err != nil {
		e.d.Log.Debug("dropped a block that fails verification", "blockID", blk.ID().String(), "err", err)
		e.failedVerification(blk.ID())
		e.abandon(blk.ID())
		return false, nil
	}
	if err := e.core.Add(consensus.Block{ID: blk.ID(), Parent: blk.Parent(), Height: blk.Height()}); err != nil {
		return false, fmt.Errorf("issue block %s: %w", blk.ID(), err)
	}
	e.processing[blk.ID()] = blk
	for _, v := range e.parked[blk.ID()] {
		e.vote(v.requestID, v.from, blk.ID())
	}
	delete(e.parked, blk.ID())
	if err := e.d.VM.SetPreference(ctx, e.core.Preference()); err != nil {
		return false, fmt.Errorf("prefer block %s: %w", e.core.Preference(), err)
	}
	children := e.waiting[blk.ID()]
	delete(e.waiting, blk.ID())
	for _, child := range children {
		if _, err := e.issue(ctx, child); err != nil {
			return false, err
		}
	}
	return true, nil
}

// query starts a poll of a sample of the validators' stake about blk: a PushQuery with its
// bytes, or a PullQuery with its ID.
func (e *Engine) query(ctx context.Context, blk chains.Block, push bool) error {
	weights, err := e.d.Validators.Weights(e.cfg.SubnetID)
	if err != nil {
		return fmt.Errorf("validators of subnet %s: %w", e.cfg.SubnetID, err)
	}
	nodes := slices.SortedFunc(maps.Keys(weights), ids.NodeID.Compare)
	ws := make([]uint64, len(nodes))
	for i, n := range nodes {
		ws[i] = weights[n]
	}
	w, err := sampler.NewWeighted(ws)
	if err != nil {
		return fmt.Errorf("sample the validators of subnet %s: %w", e.cfg.SubnetID, err)
	}
	p := e.cfg.Params.ForWeight(w.Total())
	if p.K == 0 {
		e.d.Log.Warn("no validator weight to poll", "subnetID", e.cfg.SubnetID.String())
		return nil
	}
	// The core counts votes against the quorums of the weight polled (K capped, §2.2).
	if p != e.core.Parameters() {
		if err := e.core.SetParameters(p); err != nil {
			return fmt.Errorf("consensus parameters for weight %d: %w", w.Total(), err)
		}
	}
	idx, err := w.Sample(e.d.Rand, uint64(p.K))
	if err != nil {
		return fmt.Errorf("sample the validators of subnet %s: %w", e.cfg.SubnetID, err)
	}
	sample := make(map[ids.NodeID]int)
	for _, i := range idx {
		sample[nodes[i]]++
	}
	e.nextRequestID++
	if err := e.polls.Add(e.nextRequestID, p, sample); err != nil {
		return err
	}
	to := slices.SortedFunc(maps.Keys(sample), ids.NodeID.Compare)
	_, lastHeight := e.core.LastAccepted()
	if push {
		e.d.Sender.SendPushQuery(ctx, to, e.nextRequestID, blk.Bytes(), lastHeight+1)
	} else {
		e.d.Sender.SendPullQuery(ctx, to, e.nextRequestID, blk.ID(), lastHeight+1)
	}
	return nil
}

// Gossip sends, when nothing is processing, a PullQuery for our preference to one validator
// drawn uniformly (§2.4 step 6): its Chits name its preference, which we fetch if we lack it.
// This is how a node that fell behind, or that no poll sampled, learns of newer blocks. The
// query is no poll: its Chits are not counted. The reference calls it every
// --consensus-frontier-poll-frequency (100 ms); Runner does.
func (e *Engine) Gossip(ctx context.Context) error {
	if e.core.NumProcessing() > 0 {
		return nil
	}
	weights, err := e.d.Validators.Weights(e.cfg.SubnetID)
	if err != nil {
		return fmt.Errorf("validators of subnet %s: %w", e.cfg.SubnetID, err)
	}
	if len(weights) == 0 {
		return nil
	}
	nodes := slices.SortedFunc(maps.Keys(weights), ids.NodeID.Compare)
	to := nodes[e.d.Rand.Uint64N(uint64(len(nodes)))]
	lastID, lastHeight := e.core.LastAccepted()
	e.nextRequestID++
	e.d.Sender.SendPullQuery(ctx, []ids.NodeID{to}, e.nextRequestID, lastID, lastHeight+1)
	return nil
}

// repoll keeps ConcurrentRepolls polls in flight about the preference while anything is
// processing (§2.4 step 2).
func (e *Engine) repoll(ctx context.Context) error {
	for e.core.NumProcessing() > 0 && e.polls.Len() < e.cfg.Params.ConcurrentRepolls {
		if err := e.query(ctx, e.processing[e.core.Preference()], false); err != nil {
			return err
		}
	}
	return nil
}

// flush records the finished polls in order and applies their decisions: accepted blocks
// through the accept path, in order, then the rejections; then the VM's preference, the repolls
// and building. It repeats while that finishes more polls (a block issued casts its parked
// votes).
func (e *Engine) flush(ctx context.Context) error {
	for len(e.ready) > 0 {
		results := e.ready
		e.ready = nil
		for _, votes := range results {
			res, err := e.core.RecordPoll(votes)
			if err != nil {
				return fmt.Errorf("record poll: %w", err)
			}
			for _, b := range res.Accepted {
				blk := e.processing[b.ID]
				delete(e.processing, b.ID)
				if err := e.d.Acceptor.Accept(ctx, blk); err != nil {
					return err
				}
				e.accepted.add(b.ID)
			}
			for _, b := range res.Rejected {
				blk := e.processing[b.ID]
				delete(e.processing, b.ID)
				if err := blk.Reject(ctx); err != nil {
					return fmt.Errorf("reject block %s: %w", b.ID, err)
				}
			}
		}
		// Blocks waiting for a parent at or below the last accepted height wait for nothing now.
		_, lastHeight := e.core.LastAccepted()
		for _, blocks := range e.waiting {
			for _, b := range blocks {
				if b.Height() <= lastHeight+1 {
					e.abandon(b.ID())
				}
			}
		}
		for parent, blocks := range e.waiting {
			if blocks[0].Height() <= lastHeight+1 {
				delete(e.waiting, parent)
			}
		}
		if err := e.d.VM.SetPreference(ctx, e.core.Preference()); err != nil {
			return fmt.Errorf("prefer block %s: %w", e.core.Preference(), err)
		}
		if err := e.repoll(ctx); err != nil {
			return err
		}
		if err := e.build(ctx); err != nil {
			return err
		}
	}
	return nil
}
