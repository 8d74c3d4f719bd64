package proposervm

import (
	"context"
	"crypto"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
)

// PChain is what the layer reads of the P-Chain: how high it is, the height a new block pins,
// and the validator sets at its heights.
type PChain interface {
	// PChainHeight returns the height of the P-Chain's last accepted block: a block pinned
	// above it cannot be verified yet.
	PChainHeight(ctx context.Context) (uint64, error)
	// MinimumHeight returns the P-Chain height a block built now pins, at least: one that
	// every validator has accepted by now (HeightWindow).
	MinimumHeight(ctx context.Context) (uint64, error)
	// ValidatorsAt returns subnetID's validators at P-Chain height.
	ValidatorsAt(ctx context.Context, subnetID ids.ID, height uint64) ([]Weighted, error)
}

// Config is what New needs; every field but Log, Clock, MinDelay and EpochDuration is required.
type Config struct {
	// Inner is the chain's own VM, whose blocks the layer wraps.
	Inner chains.VM
	// ChainID is the chain's ID, which signatures bind; SubnetID the subnet whose validators
	// propose.
	ChainID, SubnetID ids.ID
	// DB is the layer's own key space (the chain's, under storage.PrefixProposer).
	DB *storage.View
	// NodeID is this node's; Certificate (DER) and Key its staking identity, which signs the
	// blocks it proposes.
	NodeID      ids.NodeID
	Certificate []byte
	Key         crypto.Signer
	PChain      PChain
	// MinDelay is the least time between a block and its parent's timestamp (the reference's
	// minimum block delay: 1 s on P and X, 0 on C and L1s).
	MinDelay time.Duration
	// EpochDuration is the length of an ACP-181 epoch; zero means EpochDuration.
	EpochDuration time.Duration
	Clock         clock.Clock
	Log           *slog.Logger
}

// Keys of the layer's space.
var (
	// blockPrefix + outer ID → inner ID ‖ outer bytes, for every accepted wrapped block.
	blockPrefix = []byte{'b'}
	// heightPrefix + 8-byte height → outer ID, for every accepted wrapped block.
	heightPrefix = []byte{'h'}
	// lastKey → the last accepted wrapped block's ID.
	lastKey = []byte{'l'}
)

// VM is a chain's VM wrapped in proposer windows (chains.VM): its blocks are proposervm blocks
// around the inner VM's.
type VM struct {
	cfg   Config
	inner chains.VM
	db    *storage.View

	// work receives the inner VM's work signals and the layer's own, when a slot it waits for
	// opens.
	work chan struct{}
	stop chan struct{}
	wg   sync.WaitGroup

	mu sync.Mutex // guards the fields below, read by handlers too
	// processing holds the verified wrapped blocks not yet accepted or rejected.
	processing map[ids.ID]*block
	// lastAccepted is the last accepted wrapped block; ids.Empty while there is none, when the
	// inner VM's last accepted block is the chain's (pre-fork; it may change in Recover).
	lastAccepted ids.ID
	// preferred is what BuildBlock builds on; ids.Empty means lastAccepted.
	preferred ids.ID
	// wake fires the work signal when the next slot this node may build in opens.
	wake *time.Timer
}

var (
	_ chains.VM        = (*VM)(nil)
	_ chains.Recoverer = (*VM)(nil)
)

// New wraps cfg.Inner. The layer's goroutine forwards the inner VM's work signals until Close.
func New(cfg Config) (*VM, error) {
	if cfg.Inner == nil || cfg.DB == nil || cfg.PChain == nil || cfg.Key == nil || len(cfg.Certificate) == 0 {
		return nil, errors.New("proposervm: Inner, DB, PChain, Certificate and Key are required")
	}
	if cfg.Clock == nil {
		cfg.Clock = clock.Real{}
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.EpochDuration == 0 {
		cfg.EpochDuration = EpochDuration
	}
	vm := &VM{
		cfg:        cfg,
		inner:      cfg.Inner,
		db:         cfg.DB,
		work:       make(chan struct{}, 1),
		stop:       make(chan struct{}),
		processing: make(map[ids.ID]*block),
	}
	last, err := vm.db.Get(lastKey)
	switch {
	case errors.Is(err, storage.ErrNotFound):
	case err != nil:
		return nil, fmt.Errorf("proposervm: read last accepted block: %w", err)
	default:
		vm.lastAccepted = ids.ID(last)
	}
	innerWork := vm.inner.WorkReady()
	vm.wg.Go(func() {
		for {
			select {
			case <-vm.stop:
				return
			case <-innerWork:
				vm.signal()
			}
		}
	})
	return vm, nil
}

// Unwrap returns the chain's own VM, which the node asks for its capabilities (warp signing,
// the P-Chain's validator sets).
func (vm *VM) Unwrap() chains.VM { return vm.inner }

func (vm *VM) signal() {
	select {
	case vm.work <- struct{}{}:
	default:
	}
}

// WorkReady implements chains.Builder: the inner VM's signals, and the opening of a slot in
// which BuildBlock refused to build.
func (vm *VM) WorkReady() <-chan struct{} { return vm.work }

// LastAccepted implements chains.Getter.
func (vm *VM) LastAccepted(ctx context.Context) (ids.ID, error) {
	vm.mu.Lock()
	last := vm.lastAccepted
	vm.mu.Unlock()
	if last == ids.Empty {
		return vm.inner.LastAccepted(ctx)
	}
	return last, nil
}

// GetBlock implements chains.Getter: a processing or accepted wrapped block, or an accepted
// pre-fork block.
func (vm *VM) GetBlock(ctx context.Context, id ids.ID) (chains.Block, error) {
	vm.mu.Lock()
	b, ok := vm.processing[id]
	vm.mu.Unlock()
	if ok {
		return b, nil
	}
	if b, err := vm.accepted(ctx, id); !errors.Is(err, chains.ErrBlockNotFound) {
		return b, err
	}
	return vm.preFork(ctx, id)
}

// accepted returns the accepted wrapped block id.
func (vm *VM) accepted(ctx context.Context, id ids.ID) (chains.Block, error) {
	innerID, pb, err := vm.stored(id)
	if err != nil {
		return nil, err
	}
	inner, err := vm.inner.GetBlock(ctx, innerID)
	if err != nil {
		return nil, fmt.Errorf("inner block of %s: %w", id, err)
	}
	return &block{vm: vm, pb: pb, inner: inner}, nil
}

// stored reads the record of the accepted wrapped block id (Accept writes it): its inner
// block's ID and its proposervm block. chains.ErrBlockNotFound when id is no accepted wrapped
// block.
func (vm *VM) stored(id ids.ID) (ids.ID, *Block, error) {
	v, err := vm.db.Get(blockKey(id))
	switch {
	case errors.Is(err, storage.ErrNotFound):
		return ids.ID{}, nil, chains.ErrBlockNotFound
	case err != nil:
		return ids.ID{}, nil, fmt.Errorf("read accepted block %s: %w", id, err)
	case len(v) < 32:
		return ids.ID{}, nil, fmt.Errorf("read accepted block %s: short record of %d bytes", id, len(v))
	}
	pb, err := parse(v[32:], vm.cfg.ChainID, false)
	if err != nil {
		return ids.ID{}, nil, fmt.Errorf("stored block %s: %w", id, err)
	}
	return ids.ID(v[:32]), pb, nil
}

func blockKey(id ids.ID) []byte { return append(blockPrefix[:1:1], id[:]...) }

// preFork returns id if it is an inner block accepted before the chain was wrapped: accepted by
// the inner VM at a height no wrapped block holds.
func (vm *VM) preFork(ctx context.Context, id ids.ID) (chains.Block, error) {
	blk, err := vm.inner.GetBlock(ctx, id)
	if err != nil {
		return nil, err
	}
	if !vm.isPreFork(ctx, blk) {
		return nil, chains.ErrBlockNotFound
	}
	return blk, nil
}

func (vm *VM) isPreFork(ctx context.Context, blk chains.Block) bool {
	h := blk.Height()
	if id, err := vm.inner.GetBlockIDAtHeight(ctx, h); err != nil || id != blk.ID() {
		return false
	}
	has, err := vm.db.Has(heightKey(h))
	return err == nil && !has
}

// GetBlockIDAtHeight implements chains.Getter.
func (vm *VM) GetBlockIDAtHeight(ctx context.Context, height uint64) (ids.ID, error) {
	v, err := vm.db.Get(heightKey(height))
	switch {
	case errors.Is(err, storage.ErrNotFound):
		return vm.inner.GetBlockIDAtHeight(ctx, height)
	case err != nil:
		return ids.ID{}, fmt.Errorf("read block at height %d: %w", height, err)
	}
	return ids.ID(v), nil
}

func heightKey(h uint64) []byte {
	return binary.BigEndian.AppendUint64(heightPrefix[:1:1], h)
}

// ParseBlock implements chains.Parser: a proposervm block (its signature checked), or the bytes
// of a block accepted before the chain was wrapped; any other bare inner block fails with
// ErrPreForkBlock.
func (vm *VM) ParseBlock(ctx context.Context, b []byte) (chains.Block, error) {
	pb, err := Parse(b, vm.cfg.ChainID)
	if errors.Is(err, ErrNotProposerBlock) {
		inner, ierr := vm.inner.ParseBlock(ctx, b)
		if ierr != nil {
			return nil, fmt.Errorf("%w; as an inner block: %w", err, ierr)
		}
		if !vm.isPreFork(ctx, inner) {
			return nil, fmt.Errorf("%w: %s at height %d", ErrPreForkBlock, inner.ID(), inner.Height())
		}
		return inner, nil
	}
	if err != nil {
		return nil, err
	}
	vm.mu.Lock()
	known, ok := vm.processing[pb.ID()]
	vm.mu.Unlock()
	if ok {
		return known, nil
	}
	inner, err := vm.inner.ParseBlock(ctx, pb.Inner)
	if err != nil {
		return nil, fmt.Errorf("inner block of %s: %w", pb.ID(), err)
	}
	return &block{vm: vm, pb: pb, inner: inner}, nil
}

// SetPreference implements chains.Builder; the inner VM prefers the preferred block's inner
// block.
func (vm *VM) SetPreference(ctx context.Context, id ids.ID) error {
	blk, err := vm.GetBlock(ctx, id)
	if err != nil {
		return fmt.Errorf("prefer %s: %w", id, err)
	}
	vm.mu.Lock()
	vm.preferred = id
	vm.mu.Unlock()
	return vm.inner.SetPreference(ctx, innerOf(blk).ID())
}

// parentInfo is what a child is checked against: its parent's header.
type parentInfo struct {
	id           ids.ID
	innerID      ids.ID
	height       uint64
	timestamp    time.Time
	pChainHeight uint64
	epoch        Epoch
}

func infoOf(blk chains.Block) parentInfo {
	if b, ok := blk.(*block); ok {
		return parentInfo{
			id: b.ID(), innerID: b.inner.ID(), height: b.Height(),
			timestamp: b.pb.Timestamp, pChainHeight: b.pb.PChainHeight, epoch: b.pb.Epoch,
		}
	}
	// A pre-fork block pins no P-Chain height; its time counts in whole seconds, as the wire's.
	return parentInfo{
		id: blk.ID(), innerID: blk.ID(), height: blk.Height(),
		timestamp: blk.Timestamp().Truncate(time.Second),
	}
}

func innerOf(blk chains.Block) chains.Block {
	if b, ok := blk.(*block); ok {
		return b.inner
	}
	return blk
}

// windower returns the windower of the child of parent: the subnet's validators at the parent's
// P-Chain height (§2.8).
func (vm *VM) windower(ctx context.Context, parent parentInfo) (*Windower, error) {
	vs, err := vm.cfg.PChain.ValidatorsAt(ctx, vm.cfg.SubnetID, parent.pChainHeight)
	if err != nil {
		return nil, fmt.Errorf("validators of subnet %s at P-Chain height %d: %w", vm.cfg.SubnetID, parent.pChainHeight, err)
	}
	return NewWindower(vm.cfg.ChainID, parent.height+1, vs), nil
}

// BuildBlock implements chains.Builder. It builds only in a slot of this node's (or anyone's,
// for an empty validator set) and at least MinDelay after the parent; before then it returns
// chains.ErrNoWork and signals WorkReady when that time comes.
func (vm *VM) BuildBlock(ctx context.Context) (chains.Block, error) {
	vm.mu.Lock()
	parentID := vm.preferred
	vm.mu.Unlock()
	if parentID == ids.Empty {
		var err error
		if parentID, err = vm.LastAccepted(ctx); err != nil {
			return nil, err
		}
	}
	parentBlk, err := vm.GetBlock(ctx, parentID)
	if err != nil {
		return nil, fmt.Errorf("parent %s: %w", parentID, err)
	}
	parent := infoOf(parentBlk)
	w, err := vm.windower(ctx, parent)
	if err != nil {
		return nil, err
	}
	now := vm.cfg.Clock.Now()
	ts := now.Truncate(time.Second)
	if ts.Before(parent.timestamp) {
		ts = parent.timestamp
	}
	delay, err := w.MinDelay(vm.cfg.NodeID, Slot(parent.timestamp, ts))
	if err != nil {
		// Not ours for the next hour: look again then (the set may change).
		delay = time.Duration(Slot(parent.timestamp, ts)+MaxLookAheadSlots) * WindowDuration
	}
	if start := parent.timestamp.Add(max(delay, vm.cfg.MinDelay)); now.Before(start) {
		vm.cfg.Log.Debug("building waits for this node's slot", "parent", parent.id.String(), "parentTime", parent.timestamp, "at", start)
		vm.wakeAt(start.Sub(now))
		return nil, chains.ErrNoWork
	} else if ts.Before(start) {
		ts = start
	}
	pHeight, err := vm.cfg.PChain.MinimumHeight(ctx)
	if err != nil {
		return nil, fmt.Errorf("P-Chain height: %w", err)
	}
	pHeight = max(pHeight, parent.pChainHeight)

	inner, err := vm.inner.BuildBlock(ctx)
	if err != nil {
		return nil, err
	}
	h := Header{
		Parent:       parent.id,
		Timestamp:    ts,
		PChainHeight: pHeight,
		Epoch:        NextEpoch(parent.pChainHeight, parent.epoch, parent.timestamp, vm.cfg.EpochDuration),
		Granite:      true,
	}
	var key crypto.Signer
	if !w.Empty() {
		key = vm.cfg.Key
	}
	pb, err := Build(h, inner.Bytes(), vm.cfg.ChainID, vm.cfg.Certificate, key)
	if err != nil {
		return nil, err
	}
	return &block{vm: vm, pb: pb, inner: inner}, nil
}

// wakeAt signals WorkReady after d, replacing an earlier wake-up.
func (vm *VM) wakeAt(d time.Duration) {
	vm.mu.Lock()
	defer vm.mu.Unlock()
	if vm.wake != nil {
		vm.wake.Stop()
	}
	vm.wake = vm.cfg.Clock.AfterFunc(d, vm.signal)
}

// Accepted implements chains.Lifecycle.
func (vm *VM) Accepted(ctx context.Context, blk chains.Block) error {
	b, ok := blk.(*block)
	if !ok {
		return vm.inner.Accepted(ctx, blk)
	}
	vm.mu.Lock()
	delete(vm.processing, b.ID())
	vm.lastAccepted = b.ID()
	if vm.preferred == b.ID() {
		vm.preferred = ids.Empty
	}
	vm.mu.Unlock()
	return vm.inner.Accepted(ctx, b.inner)
}

// Handlers implements chains.Lifecycle: the inner VM's.
func (vm *VM) Handlers(ctx context.Context) (map[string]http.Handler, error) {
	return vm.inner.Handlers(ctx)
}

// Close implements chains.Lifecycle: it stops the layer's goroutine, then closes the inner VM.
func (vm *VM) Close() error {
	close(vm.stop)
	vm.wg.Wait()
	vm.mu.Lock()
	if vm.wake != nil {
		vm.wake.Stop()
	}
	vm.mu.Unlock()
	return vm.inner.Close()
}

// Recover implements chains.Recoverer for an inner VM that has it: the stored pointer names a
// wrapped block, whose inner block the inner VM recovers to.
func (vm *VM) Recover(ctx context.Context, lastAccepted ids.ID, height uint64) error {
	r, ok := vm.inner.(chains.Recoverer)
	if !ok {
		return nil
	}
	innerID, _, err := vm.stored(lastAccepted)
	switch {
	case errors.Is(err, chains.ErrBlockNotFound):
		innerID = lastAccepted // a pre-fork block: the inner VM's own
	case err != nil:
		return err
	}
	return r.Recover(ctx, innerID, height)
}

// BlockHeader is the proposervm header of an accepted or processing block, as APIs and warp
// verification read it.
type BlockHeader struct {
	Header
	Proposer ids.NodeID
	// Wrapped is false for a block accepted before the chain was wrapped, which has no header
	// (its P-Chain height reads 0, as the reference's pre-fork blocks).
	Wrapped bool
}

// HeaderOf returns the header of block id. It is safe for concurrent use.
func (vm *VM) HeaderOf(ctx context.Context, id ids.ID) (BlockHeader, error) {
	vm.mu.Lock()
	b, ok := vm.processing[id]
	vm.mu.Unlock()
	var pb *Block
	if ok {
		pb = b.pb
	} else {
		var err error
		_, pb, err = vm.stored(id)
		if errors.Is(err, chains.ErrBlockNotFound) {
			if _, err := vm.preFork(ctx, id); err != nil {
				return BlockHeader{}, err
			}
			return BlockHeader{}, nil
		}
		if err != nil {
			return BlockHeader{}, err
		}
	}
	return BlockHeader{Header: pb.Header, Proposer: pb.Proposer(), Wrapped: true}, nil
}

// WarpPChainHeight returns the P-Chain height at which warp messages in block id are verified
// (network-consensus-warp.md §4.4): its epoch's height (Granite), 0 for a pre-fork block. It is
// safe for concurrent use.
func (vm *VM) WarpPChainHeight(ctx context.Context, id ids.ID) (uint64, error) {
	h, err := vm.HeaderOf(ctx, id)
	if err != nil {
		return 0, err
	}
	if h.Granite {
		return h.Epoch.PChainHeight, nil
	}
	return h.PChainHeight, nil
}

// ProposedHeight returns the P-Chain height a block built now on the last accepted block would
// pin (proposervm.getProposedHeight).
func (vm *VM) ProposedHeight(ctx context.Context) (uint64, error) {
	last, err := vm.lastHeader(ctx)
	if err != nil {
		return 0, err
	}
	minimum, err := vm.cfg.PChain.MinimumHeight(ctx)
	if err != nil {
		return 0, err
	}
	return max(minimum, last.PChainHeight), nil
}

// NextEpoch returns the epoch ACP-181 gives a child of the last accepted block
// (proposervm.getCurrentEpoch).
func (vm *VM) NextEpoch(ctx context.Context) (Epoch, error) {
	last, err := vm.lastHeader(ctx)
	if err != nil {
		return Epoch{}, err
	}
	return NextEpoch(last.PChainHeight, last.Epoch, last.Timestamp, vm.cfg.EpochDuration), nil
}

// lastHeader returns the last accepted block's header; for a pre-fork block, its time.
func (vm *VM) lastHeader(ctx context.Context) (Header, error) {
	id, err := vm.LastAccepted(ctx)
	if err != nil {
		return Header{}, err
	}
	h, err := vm.HeaderOf(ctx, id)
	if err != nil {
		return Header{}, err
	}
	if !h.Wrapped {
		blk, err := vm.inner.GetBlock(ctx, id)
		if err != nil {
			return Header{}, err
		}
		h.Timestamp = blk.Timestamp().Truncate(time.Second)
	}
	return h.Header, nil
}
