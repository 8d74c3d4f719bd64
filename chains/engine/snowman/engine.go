// Package snowman is the engine of a chain whose validator weight this node shares with others:
// it issues blocks into the Snowman core (consensus/snowman), polls samples of stake with
// PushQuery and PullQuery, answers the queries of others with Chits, fetches missing blocks with
// Get and Put, and applies the core's decisions through the chain's accept path
// (reference/network-consensus-warp.md §2.3–2.4).
//
// It never imports the network: it declares the Sender it sends with and the Validators it
// samples, and the node's router calls its message methods (PullQuery, Chits, ...), injecting
// QueryFailed and GetFailed when a request times out (§1.8). Those methods and Build must be
// called from one goroutine at a time, the chain's; Run is that goroutine when messages arrive
// through Deliver.
//
// Not done yet (issue #13): bootstrapping (Start goes straight to normal operation), the idle
// PullQuery gossip of §2.4 step 6, the connected-stake guard of §2.1, and the wiring in node/.
package snowman

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/consensus/sampler"
	consensus "github.com/cornice-node/cornice/consensus/snowman"
	"github.com/cornice-node/cornice/ids"
)

// Sender sends this chain's consensus messages to other nodes (and to this node itself, which
// the router delivers in process, §1.8). Sends do not block on the peer and report no error: a
// request that gets no answer times out into QueryFailed or GetFailed.
type Sender interface {
	SendPushQuery(ctx context.Context, to []ids.NodeID, requestID uint32, block []byte, requestedHeight uint64)
	SendPullQuery(ctx context.Context, to []ids.NodeID, requestID uint32, blockID ids.ID, requestedHeight uint64)
	SendChits(ctx context.Context, to ids.NodeID, requestID uint32, preferredID, preferredIDAtHeight, acceptedID ids.ID, acceptedHeight uint64)
	SendGet(ctx context.Context, to ids.NodeID, requestID uint32, blockID ids.ID)
	SendPut(ctx context.Context, to ids.NodeID, requestID uint32, block []byte)
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
}

// Engine is one chain's Snowman engine.
type Engine struct {
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
}

// New returns the engine of a chain whose last accepted block is the Acceptor's.
func New(cfg Config, d Deps) (*Engine, error) {
	lastID, height := d.Acceptor.LastAccepted()
	core, err := consensus.New(cfg.Params, lastID, height)
	if err != nil {
		return nil, fmt.Errorf("snowman engine: %w", err)
	}
	return &Engine{
		cfg:        cfg,
		d:          d,
		core:       core,
		polls:      consensus.NewPolls(core),
		processing: make(map[ids.ID]chains.Block),
		waiting:    make(map[ids.ID][]chains.Block),
		fetching:   make(map[uint32]ids.ID),
	}, nil
}

// Preference returns the block the engine prefers: the tip of the preferred chain.
func (e *Engine) Preference() ids.ID { return e.core.Preference() }

// NumProcessing returns the number of processing blocks.
func (e *Engine) NumProcessing() int { return e.core.NumProcessing() }

// Build builds and issues blocks while the VM has work and fewer than OptimalProcessing blocks
// are processing (§2.4 step 5); each is pushed to a sample of validators.
func (e *Engine) Build(ctx context.Context) error {
	for e.core.NumProcessing() < e.cfg.Params.OptimalProcessing {
		blk, err := e.d.VM.BuildBlock(ctx)
		switch {
		case errors.Is(err, chains.ErrNoWork):
			return nil
		case err != nil:
			e.d.Log.Warn("block building failed", "err", err)
			return nil
		}
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

// PushQuery answers from's query with our Chits, then issues the block it carries.
func (e *Engine) PushQuery(ctx context.Context, from ids.NodeID, requestID uint32, block []byte, requestedHeight uint64) error {
	e.sendChits(ctx, from, requestID, requestedHeight)
	blk, err := e.d.VM.ParseBlock(ctx, block)
	if err != nil {
		e.d.Log.Debug("dropped a pushed block that does not parse", "nodeID", from.String(), "err", err)
		return nil
	}
	return e.issueFrom(ctx, from, blk)
}

// PullQuery answers from's query with our Chits, then fetches the block if we lack it.
func (e *Engine) PullQuery(ctx context.Context, from ids.NodeID, requestID uint32, blockID ids.ID, requestedHeight uint64) error {
	e.sendChits(ctx, from, requestID, requestedHeight)
	e.fetch(ctx, from, blockID)
	return nil
}

// Chits is from's answer to our query requestID: its vote goes to the first of preferredID and
// preferredIDAtHeight that is processing here (§2.4 step 3). A vote for a block we do not have
// is dropped from the poll, and the block is fetched so that later polls can count it (the
// reference instead holds the vote until the block arrives).
func (e *Engine) Chits(ctx context.Context, from ids.NodeID, requestID uint32, preferredID, preferredIDAtHeight, _ ids.ID, _ uint64) error {
	var results []consensus.Votes
	switch {
	case e.core.Processing(preferredID):
		results = e.polls.Vote(requestID, from, preferredID)
	case e.core.Processing(preferredIDAtHeight):
		results = e.polls.Vote(requestID, from, preferredIDAtHeight)
	default:
		e.fetch(ctx, from, preferredID)
		results = e.polls.Drop(requestID, from)
	}
	return e.apply(ctx, results)
}

// QueryFailed drops from from poll requestID: its query failed or timed out.
func (e *Engine) QueryFailed(ctx context.Context, from ids.NodeID, requestID uint32) error {
	return e.apply(ctx, e.polls.Drop(requestID, from))
}

// Get answers from with the block if we have it, and with nothing if not (§2.3).
func (e *Engine) Get(ctx context.Context, from ids.NodeID, requestID uint32, blockID ids.ID) error {
	blk, err := e.d.VM.GetBlock(ctx, blockID)
	if err != nil {
		return nil
	}
	e.d.Sender.SendPut(ctx, from, requestID, blk.Bytes())
	return nil
}

// Put is the answer to our Get requestID: the block is issued, or waits for its own parent.
func (e *Engine) Put(ctx context.Context, from ids.NodeID, requestID uint32, block []byte) error {
	if _, ok := e.fetching[requestID]; !ok {
		return nil // not ours, or answered already (§1.8: unmatched replies are dropped)
	}
	delete(e.fetching, requestID)
	blk, err := e.d.VM.ParseBlock(ctx, block)
	if err != nil {
		e.d.Log.Debug("dropped a block that does not parse", "nodeID", from.String(), "err", err)
		return nil
	}
	return e.issueFrom(ctx, from, blk)
}

// GetFailed forgets the Get requestID; the block is asked for again when it is next mentioned.
func (e *Engine) GetFailed(_ context.Context, _ ids.NodeID, requestID uint32) error {
	delete(e.fetching, requestID)
	return nil
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

// fetch asks from for blockID unless we have it or already asked for it.
func (e *Engine) fetch(ctx context.Context, from ids.NodeID, blockID ids.ID) {
	if e.known(ctx, blockID) {
		return
	}
	for _, asked := range e.fetching {
		if asked == blockID {
			return
		}
	}
	e.nextRequestID++
	e.fetching[e.nextRequestID] = blockID
	e.d.Sender.SendGet(ctx, from, e.nextRequestID, blockID)
}

// known reports whether blockID is processing, accepted, or waiting for its parent.
func (e *Engine) known(ctx context.Context, blockID ids.ID) bool {
	if _, ok := e.processing[blockID]; ok {
		return true
	}
	for _, blocks := range e.waiting {
		if slices.ContainsFunc(blocks, func(b chains.Block) bool { return b.ID() == blockID }) {
			return true
		}
	}
	_, err := e.d.VM.GetBlock(ctx, blockID)
	return err == nil
}

// issueFrom issues blk, which from sent; if its parent is missing, blk waits and the parent is
// fetched from the same node (§2.4 step 1).
func (e *Engine) issueFrom(ctx context.Context, from ids.NodeID, blk chains.Block) error {
	lastID, lastHeight := e.core.LastAccepted()
	switch parent := blk.Parent(); {
	case blk.Height() <= lastHeight, e.core.Processing(blk.ID()):
		return nil // decided, or issued already
	case parent != lastID && !e.core.Processing(parent):
		if blk.Height() == lastHeight+1 {
			return nil // its parent conflicts with the last accepted block: rejected
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
		return false, nil
	}
	if err := blk.Verify(ctx); err != nil {
		e.d.Log.Debug("dropped a block that fails verification", "blockID", blk.ID().String(), "err", err)
		return false, nil
	}
	if err := e.core.Add(consensus.Block{ID: blk.ID(), Parent: blk.Parent(), Height: blk.Height()}); err != nil {
		return false, fmt.Errorf("issue block %s: %w", blk.ID(), err)
	}
	e.processing[blk.ID()] = blk
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

// apply records finished polls in order and applies their decisions: accepted blocks through
// the accept path, in order, then the rejections; then the VM's preference, and repolls.
func (e *Engine) apply(ctx context.Context, results []consensus.Votes) error {
	if len(results) == 0 {
		return nil
	}
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
	return e.Build(ctx)
}
