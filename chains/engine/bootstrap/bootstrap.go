// Package bootstrap catches a chain up with its beacons before consensus starts
// (reference/network-consensus-warp.md §3): it asks the beacons for their accepted frontier,
// keeps the blocks that more than half of the beacon weight has accepted, fetches them and their
// ancestors newest first with GetAncestors, and executes them in height order through the
// chain's accept path (verify, then accept: index entries included, as for any accepted block).
// It repeats while a round finds new blocks, then reports that the chain is done.
//
// # Rounds
//
//  1. Start: once the connected beacon weight (this node counted as connected) reaches
//     ⌈3W/4⌉ of the beacon weight W (§3.1; Connected and Disconnected tell it), or at once when
//     there are no beacons — a lone node is bootstrapped at once.
//  2. Frontier: GetAcceptedFrontier to every beacon; the union of the answers is the candidate
//     set. The reference asks a stake-weighted sample of min(K, W) beacons; cornice asks them
//     all, which for the small networks it targets is the same set. A failed request
//     (GetAcceptedFrontierFailed, injected by the router on timeout, §1.8) counts as an empty
//     answer.
//  3. Accepted: GetAccepted with the candidates to every beacon; a candidate counts if the
//     beacons that answered it hold at least ⌊W/2⌋+1. Each beacon is counted once per
//     candidate, and IDs it was not asked about are ignored. If none counts, the bootstrapper
//     is Stalled, and its engine starts the next round (Retry) after a pause.
//  4. Fetch: each counted block we lack is asked for with GetAncestors, from the connected
//     beacons other than this node, in turn (with none connected, the blocks wait for one). An answer holds the asked block first and its ancestors newest first;
//     at most getter.MaxAncestorsContainers are read. The blocks are parsed (not verified) and
//     kept while each is the parent of the one before, one height lower, and above our last
//     accepted height; the first block that breaks the chain ends the answer. An answer whose
//     first block is not the one asked for (or empty, or failed) is retried from the next
//     beacon. When the kept blocks stop above our last accepted height, their parent is asked
//     for next, from the same beacon.
//  5. Execute: with nothing left to fetch, the kept blocks are verified and accepted one by
//     one in height order, each on its parent, the last accepted block, without waiting for each
//     to reach the disk (Acceptor.AcceptUnsynced); the run ends with one Acceptor.Sync. A block
//     that does not verify is not accepted: the blocks above it are dropped and the
//     bootstrapper is Stalled.
//  6. Repeat: as the reference, a round that executed blocks, fewer than half as many as the
//     previous round, starts another; a round that executed none (the normal end: nothing new)
//     or that did not shrink (the network builds about as fast as we catch up; consensus
//     fetches the rest) ends bootstrapping, and Done turns true.
//
// The fetched blocks are kept in memory until executed; a restart fetches them again (the
// reference keeps them on disk).
//
// # Progress
//
// Progress tells the blocks fetched, executed and known to remain, with an estimate of the time
// left; the log has a "bootstrapping" line with them at most every ProgressInterval, and the
// Metrics (bs_fetched, bs_executed, bs_eta_seconds, bs_done) count them per chain.
//
// # Concurrency
//
// A Bootstrapper is used by one goroutine at a time, the chain's engine goroutine (Start, the
// message methods, Progress, Done); it calls the VM, the Acceptor and the Sender from there.
// The byte slices it is handed belong to it afterwards.
package bootstrap

import (
	"context"
	"errors"
	"log/slog"
	"maps"
	"math"
	"slices"
	"time"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/chains/engine/getter"
	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
)

// ProgressInterval is how often, at most, the progress line is logged.
const ProgressInterval = 5 * time.Second

// Sender sends the bootstrapper's requests, and the answers of its Getter. Sends do not block
// on the peer and report no error: a request that gets no answer comes back as its Failed
// message.
type Sender interface {
	getter.Sender
	SendGetAcceptedFrontier(ctx context.Context, to []ids.NodeID, requestID uint32)
	SendGetAccepted(ctx context.Context, to []ids.NodeID, requestID uint32, blockIDs []ids.ID)
	SendGetAncestors(ctx context.Context, to ids.NodeID, requestID uint32, blockID ids.ID)
}

// Acceptor is the chain's accept path (*chains.Acceptor). The bootstrapper accepts blocks
// without waiting for each to reach the disk (AcceptUnsynced), and syncs once after each run of
// executions (Sync).
type Acceptor interface {
	Accept(ctx context.Context, blk chains.Block) error
	AcceptUnsynced(ctx context.Context, blk chains.Block) error
	Sync() error
	LastAccepted() (ids.ID, uint64)
}

// VM is what the bootstrapper needs of the chain's VM.
type VM interface {
	chains.Getter
	chains.Parser
}

// Config is what a Bootstrapper is made with.
type Config struct {
	// Self is this node: it counts as connected, and is asked like any beacon if it is one
	// (the router delivers its own requests in process, §1.8).
	Self ids.NodeID
	// Beacons are the nodes to bootstrap from, with their weights: the --bootstrap-ids, each of
	// weight 1, for the P-Chain; the subnet's validators for the other chains (§3.1). Nil or
	// empty: the chain is bootstrapped at once.
	Beacons map[ids.NodeID]uint64
}

// Deps are the Bootstrapper's collaborators; Metrics may be nil.
type Deps struct {
	VM       VM
	Acceptor Acceptor
	Sender   Sender
	Clock    clock.Clock
	Log      *slog.Logger
	Metrics  *ChainMetrics
}

type phase uint8

const (
	waiting  phase = iota // for Start, or for enough connected beacon weight
	frontier              // GetAcceptedFrontier sent
	accepted              // GetAccepted sent
	fetching              // GetAncestors in flight
	done
)

// fetch is one GetAncestors in flight.
type fetch struct {
	from    ids.NodeID
	blockID ids.ID
}

// Bootstrapper is one chain's bootstrapper. Its embedded Getter answers other nodes'
// GetAcceptedFrontier, GetAccepted, GetAncestors and Get meanwhile.
type Bootstrapper struct {
	*getter.Getter

	self    ids.NodeID
	beacons map[ids.NodeID]uint64
	// order lists the beacons sorted, total is their weight.
	order []ids.NodeID
	total uint64
	d     Deps

	phase     phase
	started   bool
	connected map[ids.NodeID]bool
	// nextRequestID numbers every request.
	nextRequestID uint32

	// The poll of the current frontier or accepted phase: its request ID, the beacons yet to
	// answer, the candidates (frontier) and the weight that accepted each (accepted).
	pollID     uint32
	pending    map[ids.NodeID]bool
	candidates map[ids.ID]bool
	votes      map[ids.ID]uint64

	// fetches are the GetAncestors in flight, by request ID; turn picks the next beacon;
	// parked are the blocks to fetch while no beacon is connected.
	fetches map[uint32]fetch
	turn    int
	parked  []ids.ID
	// stalled is set when a round ended without progress, until Retry.
	stalled bool
	// byID and byHeight hold the fetched blocks not yet executed, all above the last accepted
	// height. Invariant: byHeight[b.Height()] == b for every b in byID.
	byID     map[ids.ID]chains.Block
	byHeight map[uint64]chains.Block

	// prevExecuted is what the previous round executed (MaxInt before the first).
	prevExecuted int
	progress     progress
}

// New returns the bootstrapper of the chain whose VM and accept path are given; Start starts it.
func New(cfg Config, d Deps) *Bootstrapper {
	b := &Bootstrapper{
		Getter:       getter.New(d.VM, d.Acceptor, d.Sender),
		self:         cfg.Self,
		beacons:      maps.Clone(cfg.Beacons),
		d:            d,
		connected:    map[ids.NodeID]bool{cfg.Self: true},
		fetches:      make(map[uint32]fetch),
		byID:         make(map[ids.ID]chains.Block),
		byHeight:     make(map[uint64]chains.Block),
		prevExecuted: math.MaxInt,
	}
	for id, w := range b.beacons {
		if w == 0 {
			delete(b.beacons, id)
			continue
		}
		b.total += w
	}
	b.order = slices.SortedFunc(maps.Keys(b.beacons), ids.NodeID.Compare)
	b.progress.start = d.Clock.Now()
	b.progress.lastLog = b.progress.start
	return b
}

// Done reports whether the chain has caught up: the engine may hand over to consensus.
func (b *Bootstrapper) Done() bool { return b.phase == done }

// Start starts the first round once enough beacon weight is connected (at once with no
// beacons).
func (b *Bootstrapper) Start(ctx context.Context) error {
	b.started = true
	return b.maybeStart(ctx)
}

// Connected tells that nodeID connected; Disconnected that it left. The router calls Connected
// for every peer already connected when the engine starts, then on each change.
func (b *Bootstrapper) Connected(ctx context.Context, nodeID ids.NodeID) error {
	b.connected[nodeID] = true
	if b.phase == fetching && len(b.parked) > 0 {
		parked := b.parked
		b.parked = nil
		for _, id := range parked {
			b.fetchNext(ctx, id)
		}
	}
	return b.maybeStart(ctx)
}

// Stalled reports whether the last round ended without progress (no frontier block held a
// majority, or a fetched block did not verify): Retry starts the next one. The engine retries
// after a pause, so that beacons that disagree or cannot be reached are not asked in a tight
// loop.
func (b *Bootstrapper) Stalled() bool { return b.stalled }

// Retry starts a new round after a stall.
func (b *Bootstrapper) Retry(ctx context.Context) error {
	if !b.stalled {
		return nil
	}
	b.stalled = false
	b.startRound(ctx)
	return nil
}

// Disconnected: see Connected. Requests in flight to nodeID fail through the router.
func (b *Bootstrapper) Disconnected(_ context.Context, nodeID ids.NodeID) error {
	if nodeID != b.self {
		delete(b.connected, nodeID)
	}
	return nil
}

// maybeStart starts the first round if Start was called, it has not started, and at least
// ⌈3W/4⌉ of the beacon weight is connected (§3.1's (3W+3)/4).
func (b *Bootstrapper) maybeStart(ctx context.Context) error {
	if !b.started || b.phase != waiting {
		return nil
	}
	if b.total == 0 {
		return b.finish()
	}
	var up uint64
	for id, w := range b.beacons {
		if b.connected[id] {
			up += w
		}
	}
	if up < (3*b.total+3)/4 {
		return nil
	}
	b.d.Log.Info("bootstrapping started", "beacons", len(b.beacons), "beaconWeight", b.total)
	b.startRound(ctx)
	return nil
}

// startRound asks every beacon for its accepted frontier (step 2).
func (b *Bootstrapper) startRound(ctx context.Context) {
	b.phase = frontier
	b.stalled = false
	b.candidates = make(map[ids.ID]bool)
	b.poll()
	b.d.Sender.SendGetAcceptedFrontier(ctx, b.order, b.pollID)
}

// poll starts a poll of every beacon under a new request ID.
func (b *Bootstrapper) poll() {
	b.nextRequestID++
	b.pollID = b.nextRequestID
	b.pending = make(map[ids.NodeID]bool, len(b.order))
	for _, id := range b.order {
		b.pending[id] = true
	}
}

// answered reports whether from's answer to requestID is one the current poll in phase p
// waits for, and marks it answered.
func (b *Bootstrapper) answered(p phase, from ids.NodeID, requestID uint32) bool {
	if b.phase != p || requestID != b.pollID || !b.pending[from] {
		return false // not asked, answered already, or an old round's (§1.8: dropped)
	}
	delete(b.pending, from)
	return true
}

// AcceptedFrontier is from's answer to GetAcceptedFrontier: its last accepted block.
func (b *Bootstrapper) AcceptedFrontier(ctx context.Context, from ids.NodeID, requestID uint32, blockID ids.ID) error {
	if !b.answered(frontier, from, requestID) {
		return nil
	}
	b.candidates[blockID] = true
	b.frontierDone(ctx)
	return nil
}

// GetAcceptedFrontierFailed counts from's GetAcceptedFrontier as an empty answer.
func (b *Bootstrapper) GetAcceptedFrontierFailed(ctx context.Context, from ids.NodeID, requestID uint32) error {
	if b.answered(frontier, from, requestID) {
		b.frontierDone(ctx)
	}
	return nil
}

// frontierDone asks every beacon which candidates it accepted, once every beacon answered the
// frontier poll (step 3).
func (b *Bootstrapper) frontierDone(ctx context.Context) {
	if len(b.pending) > 0 {
		return
	}
	b.phase = accepted
	b.votes = make(map[ids.ID]uint64)
	b.poll()
	ask := slices.SortedFunc(maps.Keys(b.candidates), ids.ID.Compare)
	b.d.Sender.SendGetAccepted(ctx, b.order, b.pollID, ask)
}

// Accepted is from's answer to GetAccepted: the candidates it has accepted.
func (b *Bootstrapper) Accepted(ctx context.Context, from ids.NodeID, requestID uint32, blockIDs []ids.ID) error {
	if !b.answered(accepted, from, requestID) {
		return nil
	}
	seen := make(map[ids.ID]bool, len(blockIDs))
	for _, id := range blockIDs {
		if b.candidates[id] && !seen[id] {
			seen[id] = true
			b.votes[id] += b.beacons[from]
		}
	}
	return b.acceptedDone(ctx)
}

// GetAcceptedFailed counts from's GetAccepted as an empty answer.
func (b *Bootstrapper) GetAcceptedFailed(ctx context.Context, from ids.NodeID, requestID uint32) error {
	if !b.answered(accepted, from, requestID) {
		return nil
	}
	return b.acceptedDone(ctx)
}

// acceptedDone, once every beacon answered, fetches the blocks a majority of the beacon weight
// accepted, or starts over when there are none (step 3).
func (b *Bootstrapper) acceptedDone(ctx context.Context) error {
	if len(b.pending) > 0 {
		return nil
	}
	majority := b.total/2 + 1
	var blocks []ids.ID
	for id, w := range b.votes {
		if w >= majority {
			blocks = append(blocks, id)
		}
	}
	if len(blocks) == 0 {
		b.d.Log.Debug("no accepted frontier block holds a majority of the beacon weight; asking again after a pause",
			"candidates", len(b.candidates))
		b.stalled = true
		return nil
	}
	b.phase = fetching
	slices.SortFunc(blocks, ids.ID.Compare)
	for _, id := range blocks {
		if !b.have(ctx, id) {
			b.fetchNext(ctx, id)
		}
	}
	return b.fetched(ctx)
}

// fetchNext asks the next connected beacon, in turn, for blockID and its ancestors; with no
// beacon connected but this node, the block waits in parked for one to connect.
func (b *Bootstrapper) fetchNext(ctx context.Context, blockID ids.ID) {
	var up []ids.NodeID
	for _, id := range b.order {
		if id != b.self && b.connected[id] {
			up = append(up, id)
		}
	}
	if len(up) == 0 {
		if !slices.Contains(b.parked, blockID) {
			b.parked = append(b.parked, blockID)
		}
		return
	}
	b.turn++
	b.fetch(ctx, blockID, up[b.turn%len(up)])
}

// fetch asks to for blockID and its ancestors.
func (b *Bootstrapper) fetch(ctx context.Context, blockID ids.ID, to ids.NodeID) {
	for _, f := range b.fetches {
		if f.blockID == blockID {
			return
		}
	}
	b.nextRequestID++
	b.fetches[b.nextRequestID] = fetch{from: to, blockID: blockID}
	b.d.Sender.SendGetAncestors(ctx, to, b.nextRequestID, blockID)
}

// have reports whether blockID is fetched, or is an accepted block of ours.
func (b *Bootstrapper) have(ctx context.Context, blockID ids.ID) bool {
	if _, ok := b.byID[blockID]; ok {
		return true
	}
	blk, err := b.d.VM.GetBlock(ctx, blockID)
	if err != nil {
		return false
	}
	_, lastHeight := b.d.Acceptor.LastAccepted()
	if blk.Height() > lastHeight {
		return false
	}
	at, err := b.d.VM.GetBlockIDAtHeight(ctx, blk.Height())
	return err == nil && at == blockID
}

// Ancestors is from's answer to our GetAncestors requestID (step 4).
func (b *Bootstrapper) Ancestors(ctx context.Context, from ids.NodeID, requestID uint32, blocks [][]byte) error {
	f, ok := b.fetches[requestID]
	if !ok || f.from != from || b.phase != fetching {
		return nil // not ours, or answered already (§1.8: dropped)
	}
	delete(b.fetches, requestID)
	if b.have(ctx, f.blockID) {
		return b.fetched(ctx) // fetched meanwhile through another block's ancestors
	}
	if len(blocks) > getter.MaxAncestorsContainers {
		b.d.Log.Debug("ignored the blocks of an Ancestors answer beyond the cap", "nodeID", from.String(),
			"blocks", len(blocks), "cap", getter.MaxAncestorsContainers)
		blocks = blocks[:getter.MaxAncestorsContainers]
	}
	lastID, lastHeight := b.d.Acceptor.LastAccepted()
	want := f.blockID
	var kept []chains.Block
	for _, raw := range blocks {
		if b.have(ctx, want) {
			break
		}
		blk, err := b.d.VM.ParseBlock(ctx, raw)
		if err != nil || blk.ID() != want || blk.Height() <= lastHeight ||
			(len(kept) > 0 && blk.Height()+1 != kept[len(kept)-1].Height()) {
			break // the rest does not chain on what we asked for
		}
		kept = append(kept, blk)
		want = blk.Parent()
	}
	if len(kept) == 0 {
		b.d.Log.Debug("GetAncestors answer without the block asked for; asking another beacon",
			"nodeID", from.String(), "blockID", f.blockID.String(), "blocks", len(blocks))
		b.fetchNext(ctx, f.blockID)
		return nil
	}
	if oldest := kept[len(kept)-1]; oldest.Height() == lastHeight+1 && want != lastID {
		// The blocks do not chain on our last accepted block: a beacon that lies (the
		// majority accepted the top block, so its ancestors are ours).
		b.d.Log.Warn("GetAncestors answer does not extend the last accepted block; asking another beacon",
			"nodeID", from.String(), "blockID", f.blockID.String())
		b.fetchNext(ctx, f.blockID)
		return nil
	}
	b.progress.target = max(b.progress.target, kept[0].Height())
	for _, blk := range kept {
		if _, ok := b.byHeight[blk.Height()]; ok {
			continue // two blocks at one height: only a lie can give that; execution checks
		}
		b.byID[blk.ID()] = blk
		b.byHeight[blk.Height()] = blk
		b.progress.fetched++
	}
	b.d.Metrics.fetched(len(kept))
	if !b.have(ctx, want) {
		b.fetch(ctx, want, from)
	}
	b.logProgress()
	return b.fetched(ctx)
}

// GetAncestorsFailed asks another beacon for what the failed request asked for.
func (b *Bootstrapper) GetAncestorsFailed(ctx context.Context, from ids.NodeID, requestID uint32) error {
	f, ok := b.fetches[requestID]
	if !ok || f.from != from || b.phase != fetching {
		return nil
	}
	delete(b.fetches, requestID)
	b.fetchNext(ctx, f.blockID)
	return nil
}

// fetched executes the fetched blocks once nothing is in flight (step 5), then decides
// whether to go round again (step 6).
func (b *Bootstrapper) fetched(ctx context.Context) error {
	if len(b.fetches) > 0 || len(b.parked) > 0 {
		return nil
	}
	n, err := b.execute(ctx)
	switch {
	case errors.Is(err, errUnverified):
		b.stalled = true
		return nil
	case err != nil:
		return err
	case ctx.Err() != nil:
		return nil
	}
	prev := b.prevExecuted
	b.prevExecuted = n
	if n > 0 && n < prev/2 {
		b.startRound(ctx)
		return nil
	}
	return b.finish()
}

// errUnverified ends an execution at a block that does not verify.
var errUnverified = errors.New("fetched block does not verify")

// execute verifies and accepts the fetched blocks in height order, each on the last accepted
// block, and drops what it cannot execute; it returns how many it accepted.
//
// Each block is accepted without waiting for the disk, and the run ends with one sync: a synced
// commit per block was most of a quiet machine's wall time beside the execution itself. A crash
// before the sync loses a run's last blocks (never part of one, nor one before an earlier
// block's loss: storage.Batch.CommitUnsynced), and bootstrapping starts again from the last
// accepted block that survived, fetching the rest again.
func (b *Bootstrapper) execute(ctx context.Context) (n int, err error) {
	defer func() {
		clear(b.byID)
		clear(b.byHeight)
		if n > 0 {
			err = errors.Join(err, b.d.Acceptor.Sync())
		}
	}()
	lastID, lastHeight := b.d.Acceptor.LastAccepted()
	for h := lastHeight + 1; ctx.Err() == nil; h++ {
		blk, ok := b.byHeight[h]
		if !ok {
			break
		}
		if blk.Parent() != lastID {
			b.d.Log.Warn("fetched block does not extend the last accepted block; dropped with the blocks above it",
				"blockID", blk.ID().String(), "height", h)
			break
		}
		if err := blk.Verify(ctx); err != nil {
			b.d.Log.Warn("fetched block fails verification; dropped with the blocks above it, bootstrapping goes round again",
				"blockID", blk.ID().String(), "height", h, "err", err)
			return n, errUnverified
		}
		if err := b.d.Acceptor.AcceptUnsynced(ctx, blk); err != nil {
			return n, err
		}
		lastID = blk.ID()
		n++
		b.progress.executed++
		b.d.Metrics.executed()
		b.logProgress()
	}
	return n, nil
}

// finish ends bootstrapping.
func (b *Bootstrapper) finish() error {
	b.phase = done
	_, height := b.d.Acceptor.LastAccepted()
	b.d.Log.Info("bootstrapping finished", "height", height, "fetched", b.progress.fetched,
		"executed", b.progress.executed, "took", b.d.Clock.Now().Sub(b.progress.start).Round(time.Millisecond).String())
	b.d.Metrics.finished()
	return nil
}

// Progress is how far bootstrapping has come, for health checks.
type Progress struct {
	// Fetched and Executed count the blocks fetched and executed so far.
	Fetched  int `json:"fetched"`
	Executed int `json:"executed"`
	// Remaining is the number of blocks known to be left to execute: up to the highest block
	// fetched.
	Remaining uint64 `json:"remaining"`
	// ETA estimates the time left, in the text of time.Duration; "" when unknown.
	ETA string `json:"eta,omitempty"`
}

// progress counts what bootstrapping did, for the log line, metrics and health.
type progress struct {
	start, lastLog    time.Time
	fetched, executed int
	// target is the height of the highest block fetched.
	target uint64
}

// Progress returns the progress so far.
func (b *Bootstrapper) Progress() Progress {
	p := Progress{Fetched: b.progress.fetched, Executed: b.progress.executed, Remaining: b.remaining()}
	if eta, ok := b.eta(); ok {
		p.ETA = eta.String()
	}
	return p
}

// remaining is the number of blocks left to execute up to the highest block fetched.
func (b *Bootstrapper) remaining() uint64 {
	_, lastHeight := b.d.Acceptor.LastAccepted()
	if b.progress.target <= lastHeight {
		return 0
	}
	return b.progress.target - lastHeight
}

// eta estimates the time left at the rate blocks were fetched and executed so far: each block
// left is fetched (unless it is already) and executed.
func (b *Bootstrapper) eta() (time.Duration, bool) {
	worked := b.progress.fetched + b.progress.executed
	elapsed := b.d.Clock.Now().Sub(b.progress.start)
	if worked == 0 || elapsed <= 0 || b.phase == done {
		return 0, false
	}
	left := b.remaining()
	work := 2*left - min(left, uint64(len(b.byID)))
	return (elapsed / time.Duration(worked) * time.Duration(work)).Round(time.Second), true
}

// logProgress logs the progress line, and updates the time-left metric, at most every
// ProgressInterval.
func (b *Bootstrapper) logProgress() {
	now := b.d.Clock.Now()
	if now.Sub(b.progress.lastLog) < ProgressInterval {
		return
	}
	b.progress.lastLog = now
	attrs := []any{"fetched", b.progress.fetched, "executed", b.progress.executed, "remaining", b.remaining()}
	if eta, ok := b.eta(); ok {
		b.d.Metrics.setETA(eta)
		attrs = append(attrs, "eta", eta.String())
	}
	b.d.Log.Info("bootstrapping", attrs...)
}
