// Package chainstest is a fake VM for the tests of chains, its engines, the index and the node:
// small, but real. Its state is a key/value store on the chain's storage.View; a transaction
// writes one key; a block holds the transactions of one Submit call on top of its parent. It
// keeps processing blocks as the VM contract asks (verify on a processing parent, Reject,
// SetPreference, GetBlock of processing blocks), serves a "kv" JSON-RPC service, and lets a test
// change any step through function fields, as avalanchego's blocktest does.
//
// Wire formats, all integers big-endian, canonical (one encoding per value, so decoding and
// encoding round-trip):
//
//	tx    = u32 len(key) ‖ key ‖ u32 len(value) ‖ value        ID = SHA-256(tx)
//	block = parent ID (32) ‖ height u64 ‖ timestamp i64 (unix ns) ‖ u32 count ‖ count × (u32 len ‖ tx)
//	                                                             ID = SHA-256(block)
//
// The genesis block is height 0, parent the zero ID, timestamp 0, with one transaction writing
// the chain's genesis bytes under the key "genesis". It is derived from the genesis bytes at every
// start and never written, so a VM that accepted nothing leaves the database untouched.
//
// Key space, under the VM's storage.View (the Key functions give each key):
//
//	's' ‖ key         → value              (state)
//	't' ‖ tx ID       → height u64         (accepted transactions)
//	'b' ‖ block ID    → block bytes
//	'h' ‖ height u64  → block ID
//	'l'               → last accepted block ID (absent: genesis)
//
// Block.Accept stages all of a block's writes into the accept path's batch; the VM's memory (last
// accepted block, processing blocks) changes only in Accepted, after the commit.
//
// Concurrency: as chains.VM says; the function fields are set before the VM is handed to the
// manager, or while the engine is idle (a later Submit orders the write before the engine's read).
package chainstest

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/chains/engine/solo"
	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
)

// Errors of the VM. Those of put reach clients of the "kv" service as they are.
var (
	ErrEmptyKey     = errors.New("empty key")
	ErrKnownTx      = errors.New("transaction already known")
	ErrNoBlock      = errors.New("block not found")
	ErrMalformed    = errors.New("malformed encoding")
	ErrClosed       = errors.New("vm closed")
	ErrWrongParent  = errors.New("block does not extend the last accepted block or a processing one")
	ErrEmptyBlock   = errors.New("block has no transactions")
	ErrTimeBackward = errors.New("block timestamp before its parent's")
	ErrDuplicateTx  = errors.New("transaction appears twice")
	ErrNotMine      = errors.New("block is not this VM's")
	ErrNotVerified  = errors.New("block is not processing")
)

// Keys of the VM's key space.
const (
	keyState  = 's'
	keyTx     = 't'
	keyBlock  = 'b'
	keyHeight = 'h'
	keyLast   = 'l'
)

// StateKey, TxKey, BlockKey, HeightKey and LastKey return the keys of the VM's key space.
func StateKey(key string) []byte { return append([]byte{keyState}, key...) }

// TxKey is the key of an accepted transaction.
func TxKey(id ids.ID) []byte { return append([]byte{keyTx}, id[:]...) }

// BlockKey is the key of an accepted block's bytes.
func BlockKey(id ids.ID) []byte { return append([]byte{keyBlock}, id[:]...) }

// HeightKey is the key of the accepted block at height.
func HeightKey(h uint64) []byte { return binary.BigEndian.AppendUint64([]byte{keyHeight}, h) }

// LastKey is the key of the last accepted block's ID.
func LastKey() []byte { return []byte{keyLast} }

// Factory makes VMs; it is a chains.Factory. Setup, if set, adjusts each VM before the manager
// sees it (to set function fields).
type Factory struct {
	Setup func(vm *VM)
}

// New implements chains.Factory.
func (f Factory) New(_ context.Context, c chains.Context) (chains.VM, error) {
	vm, err := New(c)
	if err != nil {
		return nil, err
	}
	if f.Setup != nil {
		f.Setup(vm)
	}
	return vm, nil
}

// VM is the fake VM. Its function fields, nil by default, change one step each.
type VM struct {
	// BuildBlockF replaces BuildBlock; Build is the default it may call.
	BuildBlockF func(ctx context.Context) (chains.Block, error)
	// VerifyF replaces the checks of Block.Verify (a block that passes becomes processing).
	VerifyF func(ctx context.Context, b *Block) error
	// AcceptF runs in Block.Accept after the block's writes are staged; an error fails it.
	AcceptF func(ctx context.Context, b *Block) error
	// AcceptedF runs at the end of Accepted and gives its result.
	AcceptedF func(ctx context.Context, b *Block) error
	// RecoverF is Recover's work; nil does nothing.
	RecoverF func(ctx context.Context, lastAccepted ids.ID, height uint64) error
	// DeferSync, set before the chain is created (Env.Setup), makes the solo engine accept
	// every block without waiting for the disk (Block.DeferSync), as a developer's request
	// to mine many does on an EVM chain.
	DeferSync bool

	db      *storage.View
	clock   clock.Clock
	log     *slog.Logger
	work    chan struct{}
	genesis *Block

	mu sync.Mutex // guards the fields below; the engine and the handlers share them
	// last is the last accepted block. Invariant: it is the block 'l' names, or genesis.
	last *Block
	// processing holds the verified blocks neither accepted nor rejected, by ID.
	processing map[ids.ID]*Block
	// preferred is the block BuildBlock builds on.
	preferred ids.ID
	// pending holds the transactions of each block still to build, in Submit order;
	// pendingIDs their IDs.
	pending    [][]*Tx
	pendingIDs map[ids.ID]struct{}
	// accepted lists the heights Accepted was called with; rejected the rejected blocks' IDs.
	accepted []uint64
	rejected []ids.ID
	closed   bool
}

var (
	_ chains.VM        = (*VM)(nil)
	_ chains.Recoverer = (*VM)(nil)
	_ chains.Block     = (*Block)(nil)
	_ chains.TxLister  = (*Block)(nil)

	_ solo.SyncDeferrer = (*Block)(nil)
)

// New opens a VM over c.DB: at its genesis on a new chain, else at its last accepted block. It
// writes nothing.
func New(c chains.Context) (*VM, error) {
	vm := &VM{
		db:         c.DB,
		clock:      c.Clock,
		log:        c.Log,
		work:       make(chan struct{}, 1),
		processing: make(map[ids.ID]*Block),
		pendingIDs: make(map[ids.ID]struct{}),
	}
	vm.genesis = vm.NewBlock(ids.Empty, 0, 0, []*Tx{NewTx("genesis", string(c.Genesis))})
	vm.last = vm.genesis
	last, err := vm.db.Get(LastKey())
	switch {
	case errors.Is(err, storage.ErrNotFound):
	case err != nil:
		return nil, fmt.Errorf("read last accepted block: %w", err)
	default:
		if err := vm.Rewind(ids.ID(last)); err != nil {
			return nil, err
		}
	}
	vm.preferred = vm.last.id
	return vm, nil
}

// Rewind makes the accepted block id the last accepted one, on disk and in memory, as a VM that
// writes outside the accept path would: tests of recovery use it.
func (vm *VM) Rewind(id ids.ID) error {
	blk, err := vm.getAccepted(id)
	if err != nil {
		return fmt.Errorf("read last accepted block %s: %w", id, err)
	}
	if blk != vm.genesis {
		if err := vm.db.Put(LastKey(), id[:]); err != nil {
			return err
		}
	}
	vm.mu.Lock()
	defer vm.mu.Unlock()
	vm.last, vm.preferred = blk, id
	return nil
}

// Follow makes the accepted block blk the last accepted one in memory only, as a VM whose
// roll-back writes its pointer in the batch that chains' Rewind stages (Rewind.Stage).
func (vm *VM) Follow(blk *Block) {
	vm.mu.Lock()
	defer vm.mu.Unlock()
	vm.last, vm.preferred = blk, blk.id
}

// View is the VM's key space.
func (vm *VM) View() *storage.View { return vm.db }

// Genesis is the VM's genesis block.
func (vm *VM) Genesis() *Block { return vm.genesis }

// Tx is one transaction: write Value at Key.
type Tx struct {
	Key, Value string
	bytes      []byte
	id         ids.ID
}

// NewTx returns the transaction writing value at key.
func NewTx(key, value string) *Tx {
	b := make([]byte, 0, 8+len(key)+len(value))
	b = binary.BigEndian.AppendUint32(b, uint32(len(key)))
	b = append(b, key...)
	b = binary.BigEndian.AppendUint32(b, uint32(len(value)))
	b = append(b, value...)
	return &Tx{Key: key, Value: value, bytes: b, id: sha256.Sum256(b)}
}

// ID is the SHA-256 of the transaction's bytes.
func (tx *Tx) ID() ids.ID { return tx.id }

// Bytes is the transaction's encoding; the caller must not change it.
func (tx *Tx) Bytes() []byte { return tx.bytes }

// Block is one block of a VM.
type Block struct {
	vm     *VM
	parent ids.ID
	height uint64
	time   int64 // unix nanoseconds
	txs    []*Tx
	bytes  []byte
	id     ids.ID
}

// NewBlock encodes a block of vm, unverified.
func (vm *VM) NewBlock(parent ids.ID, height uint64, ts int64, txs []*Tx) *Block {
	n := 32 + 8 + 8 + 4
	for _, tx := range txs {
		n += 4 + len(tx.bytes)
	}
	b := make([]byte, 0, n)
	b = append(b, parent[:]...)
	b = binary.BigEndian.AppendUint64(b, height)
	b = binary.BigEndian.AppendUint64(b, uint64(ts))
	b = binary.BigEndian.AppendUint32(b, uint32(len(txs)))
	for _, tx := range txs {
		b = binary.BigEndian.AppendUint32(b, uint32(len(tx.bytes)))
		b = append(b, tx.bytes...)
	}
	return &Block{vm: vm, parent: parent, height: height, time: ts, txs: txs, bytes: b, id: sha256.Sum256(b)}
}

// reader reads the canonical encoding; every read checks what is left first, so a length field
// cannot make it allocate more than the input holds.
type reader struct {
	b   []byte
	err error
}

func (r *reader) next(n uint64) []byte {
	if r.err != nil || n > uint64(len(r.b)) {
		r.err = ErrMalformed
		return nil
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

func (r *reader) u32() uint32 {
	if b := r.next(4); b != nil {
		return binary.BigEndian.Uint32(b)
	}
	return 0
}

func (r *reader) u64() uint64 {
	if b := r.next(8); b != nil {
		return binary.BigEndian.Uint64(b)
	}
	return 0
}

// ParseTx decodes a transaction; it must span all of b.
func ParseTx(b []byte) (*Tx, error) {
	r := &reader{b: b}
	key := r.next(uint64(r.u32()))
	value := r.next(uint64(r.u32()))
	if r.err != nil || len(r.b) != 0 {
		return nil, fmt.Errorf("parse transaction: %w", ErrMalformed)
	}
	return NewTx(string(key), string(value)), nil
}

// Decode decodes a block of vm (nil: of no VM, to read blocks only); it must span all of b.
func (vm *VM) Decode(b []byte) (*Block, error) {
	r := &reader{b: b}
	parent := r.next(32)
	height := r.u64()
	ts := r.u64()
	count := r.u32()
	if r.err != nil || uint64(count) > uint64(len(r.b))/4 {
		return nil, fmt.Errorf("parse block: %w", ErrMalformed)
	}
	txs := make([]*Tx, 0, count)
	for range count {
		raw := r.next(uint64(r.u32()))
		if r.err != nil {
			return nil, fmt.Errorf("parse block: %w", ErrMalformed)
		}
		tx, err := ParseTx(raw)
		if err != nil {
			return nil, fmt.Errorf("parse block: %w", err)
		}
		txs = append(txs, tx)
	}
	if len(r.b) != 0 {
		return nil, fmt.Errorf("parse block: %w: %d trailing bytes", ErrMalformed, len(r.b))
	}
	return vm.NewBlock(ids.ID(parent), height, int64(ts), txs), nil
}

// Signal tells the engine there is work, without blocking (chains.Builder.WorkReady).
func (vm *VM) Signal() {
	select {
	case vm.work <- struct{}{}:
	default:
	}
}

// Submit queues txs as the next block to build and signals work; see SubmitBlocks.
func (vm *VM) Submit(txs ...*Tx) error { return vm.SubmitBlocks(txs) }

// SubmitBlocks queues the transactions of each block to build, in order, and signals work once.
// A transaction pending or accepted before, or with an empty key, is refused, and nothing is
// queued.
func (vm *VM) SubmitBlocks(blocks ...[]*Tx) error {
	vm.mu.Lock()
	defer vm.mu.Unlock()
	if vm.closed {
		return ErrClosed
	}
	for _, txs := range blocks {
		for _, tx := range txs {
			if tx.Key == "" {
				return ErrEmptyKey
			}
			if _, ok := vm.pendingIDs[tx.id]; ok {
				return ErrKnownTx
			}
			accepted, err := vm.db.Has(TxKey(tx.id))
			if err != nil {
				return fmt.Errorf("look up transaction: %w", err)
			}
			if accepted {
				return ErrKnownTx
			}
		}
	}
	for _, txs := range blocks {
		for _, tx := range txs {
			vm.pendingIDs[tx.id] = struct{}{}
		}
		vm.pending = append(vm.pending, txs)
	}
	vm.Signal()
	return nil
}

// State reads a key of the accepted state from disk.
func (vm *VM) State(key string) (string, error) {
	v, err := vm.db.Get(StateKey(key))
	return string(v), err
}

// AcceptedHeights lists the heights Accepted was called with, in order.
func (vm *VM) AcceptedHeights() []uint64 {
	vm.mu.Lock()
	defer vm.mu.Unlock()
	return slices.Clone(vm.accepted)
}

// Rejected lists the IDs of the rejected blocks, in order.
func (vm *VM) Rejected() []ids.ID {
	vm.mu.Lock()
	defer vm.mu.Unlock()
	return slices.Clone(vm.rejected)
}

// Processing reports whether block id is processing.
func (vm *VM) Processing(id ids.ID) bool {
	vm.mu.Lock()
	defer vm.mu.Unlock()
	_, ok := vm.processing[id]
	return ok
}

// IsClosed reports whether Close was called.
func (vm *VM) IsClosed() bool {
	vm.mu.Lock()
	defer vm.mu.Unlock()
	return vm.closed
}

// LastAcceptedBlock returns the last accepted block.
func (vm *VM) LastAcceptedBlock() *Block {
	vm.mu.Lock()
	defer vm.mu.Unlock()
	return vm.last
}

// getAccepted returns an accepted block: the genesis block, or one read from disk.
func (vm *VM) getAccepted(id ids.ID) (*Block, error) {
	if id == vm.genesis.id {
		return vm.genesis, nil
	}
	b, err := vm.db.Get(BlockKey(id))
	if errors.Is(err, storage.ErrNotFound) {
		return nil, chains.ErrBlockNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("read block %s: %w", id, err)
	}
	return vm.Decode(b)
}

// LastAccepted implements chains.Getter.
func (vm *VM) LastAccepted(context.Context) (ids.ID, error) { return vm.LastAcceptedBlock().id, nil }

// GetBlock implements chains.Getter: a processing or an accepted block.
func (vm *VM) GetBlock(_ context.Context, id ids.ID) (chains.Block, error) {
	vm.mu.Lock()
	b, ok := vm.processing[id]
	vm.mu.Unlock()
	if ok {
		return b, nil
	}
	return vm.getAccepted(id)
}

// GetBlockIDAtHeight implements chains.Getter.
func (vm *VM) GetBlockIDAtHeight(_ context.Context, height uint64) (ids.ID, error) {
	if height == 0 {
		return vm.genesis.id, nil
	}
	b, err := vm.db.Get(HeightKey(height))
	if errors.Is(err, storage.ErrNotFound) {
		return ids.ID{}, chains.ErrBlockNotFound
	}
	if err != nil {
		return ids.ID{}, fmt.Errorf("read block at height %d: %w", height, err)
	}
	return ids.ToID(b)
}

// ParseBlock implements chains.Parser.
func (vm *VM) ParseBlock(_ context.Context, b []byte) (chains.Block, error) {
	blk, err := vm.Decode(b)
	if err != nil {
		return nil, err
	}
	vm.mu.Lock()
	defer vm.mu.Unlock()
	if p, ok := vm.processing[blk.id]; ok {
		return p, nil
	}
	return blk, nil
}

// BuildBlock implements chains.Builder: BuildBlockF, else Build.
func (vm *VM) BuildBlock(ctx context.Context) (chains.Block, error) {
	if vm.BuildBlockF != nil {
		return vm.BuildBlockF(ctx)
	}
	return vm.Build(ctx)
}

// Build is the default BuildBlock: a block of the first queued Submit's transactions on the
// preferred block, at the node's time (no earlier than the parent's). The transactions leave
// the queue; they come back to its front if the block is rejected.
func (vm *VM) Build(ctx context.Context) (*Block, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	vm.mu.Lock()
	defer vm.mu.Unlock()
	if len(vm.pending) == 0 {
		return nil, chains.ErrNoWork
	}
	parent, ok := vm.processing[vm.preferred]
	if !ok {
		parent = vm.last
	}
	txs := vm.pending[0]
	vm.pending = vm.pending[1:]
	ts := max(vm.clock.Now().UnixNano(), parent.time)
	return vm.NewBlock(parent.id, parent.height+1, ts, txs), nil
}

// SetPreference implements chains.Builder.
func (vm *VM) SetPreference(_ context.Context, id ids.ID) error {
	vm.mu.Lock()
	defer vm.mu.Unlock()
	if _, ok := vm.processing[id]; !ok && id != vm.last.id {
		return fmt.Errorf("prefer %s: %w", id, ErrNotVerified)
	}
	vm.preferred = id
	return nil
}

// WorkReady implements chains.Builder.
func (vm *VM) WorkReady() <-chan struct{} { return vm.work }

// Accepted implements chains.Lifecycle: the block's batch is committed, so memory follows.
func (vm *VM) Accepted(ctx context.Context, b chains.Block) error {
	blk, ok := b.(*Block)
	if !ok || blk.vm != vm {
		return fmt.Errorf("accepted block %s: %w", b.ID(), ErrNotMine)
	}
	vm.mu.Lock()
	delete(vm.processing, blk.id)
	for _, tx := range blk.txs {
		delete(vm.pendingIDs, tx.id)
	}
	vm.last = blk
	vm.accepted = append(vm.accepted, blk.height)
	vm.mu.Unlock()
	vm.log.Debug("block accepted", "blockID", blk.id.String(), "height", blk.height, "txs", len(blk.txs))
	if vm.AcceptedF != nil {
		return vm.AcceptedF(ctx, blk)
	}
	return nil
}

// Recover implements chains.Recoverer: RecoverF, or nothing.
func (vm *VM) Recover(ctx context.Context, lastAccepted ids.ID, height uint64) error {
	if vm.RecoverF != nil {
		return vm.RecoverF(ctx, lastAccepted, height)
	}
	return nil
}

// Handlers implements chains.Lifecycle: "/rpc" serves the "kv" JSON-RPC service (service.go).
func (vm *VM) Handlers(context.Context) (map[string]http.Handler, error) {
	return map[string]http.Handler{"/rpc": vm.newService()}, nil
}

// Close implements chains.Lifecycle; a second call fails.
func (vm *VM) Close() error {
	vm.mu.Lock()
	defer vm.mu.Unlock()
	if vm.closed {
		return fmt.Errorf("close: %w", ErrClosed)
	}
	vm.closed = true
	return nil
}

// ID implements chains.Block.
func (b *Block) ID() ids.ID { return b.id }

// Parent implements chains.Block.
func (b *Block) Parent() ids.ID { return b.parent }

// Height implements chains.Block.
func (b *Block) Height() uint64 { return b.height }

// Timestamp implements chains.Block.
func (b *Block) Timestamp() time.Time { return time.Unix(0, b.time).UTC() }

// Bytes implements chains.Block.
func (b *Block) Bytes() []byte { return b.bytes }

// DeferSync implements solo.SyncDeferrer: the VM's DeferSync.
func (b *Block) DeferSync() bool { return b.vm.DeferSync }

// Transactions returns the block's transactions; the caller must not change them.
func (b *Block) Transactions() []*Tx { return b.txs }

// TxCount implements chains.Block.
func (b *Block) TxCount() int { return len(b.txs) }

// Verify implements chains.Block: VerifyF if set, else the block extends the last accepted block
// or a processing one, is not older than its parent, and holds at least one transaction, none of
// them with an empty key, repeated, accepted before or in a processing ancestor. The block is
// then processing.
func (b *Block) Verify(ctx context.Context) error {
	vm := b.vm
	var err error
	if vm.VerifyF != nil {
		err = vm.VerifyF(ctx, b)
	} else {
		err = b.verify()
	}
	if err != nil {
		return fmt.Errorf("verify block %s: %w", b.id, err)
	}
	vm.mu.Lock()
	defer vm.mu.Unlock()
	vm.processing[b.id] = b
	return nil
}

func (b *Block) verify() error {
	vm := b.vm
	vm.mu.Lock()
	parent, ok := vm.processing[b.parent]
	if !ok && b.parent == vm.last.id {
		parent, ok = vm.last, true
	}
	// The transactions of the processing ancestors.
	inAncestors := make(map[ids.ID]struct{})
	if ok && parent != vm.last {
		// Up the processing blocks, to the last accepted block, which is not one.
		for p := parent; p != nil; p = vm.processing[p.parent] {
			for _, tx := range p.txs {
				inAncestors[tx.id] = struct{}{}
			}
		}
	}
	vm.mu.Unlock()
	switch {
	case !ok || b.height != parent.height+1:
		return ErrWrongParent
	case b.time < parent.time:
		return ErrTimeBackward
	case len(b.txs) == 0:
		return ErrEmptyBlock
	}
	seen := make(map[ids.ID]struct{}, len(b.txs))
	for _, tx := range b.txs {
		if tx.Key == "" {
			return fmt.Errorf("transaction %s: %w", tx.id, ErrEmptyKey)
		}
		if _, ok := seen[tx.id]; ok {
			return fmt.Errorf("transaction %s: %w", tx.id, ErrDuplicateTx)
		}
		seen[tx.id] = struct{}{}
		accepted, err := vm.db.Has(TxKey(tx.id))
		if err != nil {
			return err
		}
		if _, ok := inAncestors[tx.id]; ok || accepted {
			return fmt.Errorf("transaction %s: %w", tx.id, ErrKnownTx)
		}
	}
	return nil
}

// Accept implements chains.Block: it stages the block's state writes and its storage into batch,
// then runs AcceptF; it changes nothing else.
func (b *Block) Accept(ctx context.Context, batch *storage.Batch) error {
	w := b.vm.db.Wrap(batch)
	var errs []error
	for _, tx := range b.txs {
		errs = append(errs,
			w.Put(StateKey(tx.Key), []byte(tx.Value)),
			w.Put(TxKey(tx.id), binary.BigEndian.AppendUint64(nil, b.height)),
		)
	}
	errs = append(errs,
		w.Put(BlockKey(b.id), b.bytes),
		w.Put(HeightKey(b.height), b.id[:]),
		w.Put(LastKey(), b.id[:]),
	)
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("stage block %s: %w", b.id, err)
	}
	if b.vm.AcceptF != nil {
		return b.vm.AcceptF(ctx, b)
	}
	return nil
}

// Reject implements chains.Block: the block is no longer processing, and its transactions go
// back to the front of the queue.
func (b *Block) Reject(context.Context) error {
	vm := b.vm
	vm.mu.Lock()
	defer vm.mu.Unlock()
	if _, ok := vm.processing[b.id]; !ok {
		return fmt.Errorf("reject block %s: %w", b.id, ErrNotVerified)
	}
	delete(vm.processing, b.id)
	if vm.preferred == b.id {
		vm.preferred = b.parent
	}
	vm.pending = append([][]*Tx{b.txs}, vm.pending...)
	for _, tx := range b.txs {
		vm.pendingIDs[tx.id] = struct{}{}
	}
	vm.rejected = append(vm.rejected, b.id)
	return nil
}

// Txs implements chains.TxLister: the block's transactions, in the order they are applied.
func (b *Block) Txs() []chains.Container {
	out := make([]chains.Container, len(b.txs))
	for i, tx := range b.txs {
		out[i] = chains.Container{ID: tx.id, Bytes: tx.bytes}
	}
	return out
}
