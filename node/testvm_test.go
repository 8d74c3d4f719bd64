package node_test

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
	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/jsonrpc"
	"github.com/cornice-node/cornice/storage"
)

// kvVM is the VM of the node's integration tests: small, but real. Its state is a key/value store;
// a transaction writes one key; a block lists transactions on top of its parent. It stands in for
// every chain of a test node (X, P, C and L1s) and, being a chains.TxLister, for the X-Chain's
// transaction index.
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
// Key space, under the VM's storage.View:
//
//	's' ‖ key         → value              (state)
//	't' ‖ tx ID       → height u64         (accepted transactions)
//	'b' ‖ block ID    → block bytes
//	'h' ‖ height u64  → block ID
//	'l'               → last accepted block ID (absent: genesis)
//
// Block.Accept stages all of a block's writes into the pipeline's batch; the VM's memory (last
// accepted block, state, mempool) changes only in Accepted, after the commit.
type kvVM struct {
	db      *storage.View
	clock   clock.Clock
	log     *slog.Logger
	work    chan struct{}
	genesis *kvBlock

	mu sync.Mutex // guards the fields below; the pipeline and the handlers share them
	// last is the last accepted block. Invariant: it is the block 'l' names, or genesis.
	last *kvBlock
	// state is the whole key/value state as of last.
	state map[string]string
	// pending holds the transactions not yet accepted, in arrival order; pendingIDs their IDs.
	pending    []*kvTx
	pendingIDs map[ids.ID]struct{}
	closed     bool
}

// kvTx is one transaction: write value at key.
type kvTx struct {
	key, value string
	bytes      []byte
	id         ids.ID
}

// kvBlock is one block of a kvVM.
type kvBlock struct {
	vm     *kvVM
	parent ids.ID
	height uint64
	time   int64 // unix nanoseconds
	txs    []*kvTx
	bytes  []byte
	id     ids.ID
}

var (
	_ chains.VM       = (*kvVM)(nil)
	_ chains.Block    = (*kvBlock)(nil)
	_ chains.TxLister = (*kvBlock)(nil)
)

// Keys of the kvVM's key space.
const (
	kvKeyState  = 's'
	kvKeyTx     = 't'
	kvKeyBlock  = 'b'
	kvKeyHeight = 'h'
	kvKeyLast   = 'l'
)

// Texts of the kvVM's errors (test-only; they reach clients of the "kv" service).
var (
	errKVEmptyKey     = errors.New("empty key")
	errKVKnownTx      = errors.New("transaction already known")
	errKVNoBlock      = errors.New("block not found")
	errKVMalformed    = errors.New("malformed encoding")
	errKVClosed       = errors.New("vm closed")
	errKVWrongParent  = errors.New("block does not extend the last accepted block")
	errKVEmptyBlock   = errors.New("block has no transactions")
	errKVTimeBackward = errors.New("block timestamp before its parent's")
	errKVDuplicateTx  = errors.New("transaction appears twice")
)

// kvFactory makes kvVMs: it is the chains.Factory of every test chain.
var kvFactory chains.Factory = chains.FactoryFunc(func(_ context.Context, c chains.Context) (chains.VM, error) {
	return newKVVM(c)
})

// newKVVM opens a kvVM over c.DB: at its genesis on a new chain, else at its last accepted block
// with its state loaded into memory. It writes nothing.
func newKVVM(c chains.Context) (*kvVM, error) {
	vm := &kvVM{
		db:         c.DB,
		clock:      c.Clock,
		log:        c.Log,
		work:       make(chan struct{}, 1),
		pendingIDs: make(map[ids.ID]struct{}),
	}
	vm.genesis = vm.newBlock(ids.Empty, 0, 0, []*kvTx{newKVTx("genesis", string(c.Genesis))})
	vm.last = vm.genesis
	vm.state = map[string]string{"genesis": string(c.Genesis)}

	last, err := vm.db.Get([]byte{kvKeyLast})
	switch {
	case errors.Is(err, storage.ErrNotFound):
		return vm, nil
	case err != nil:
		return nil, fmt.Errorf("read last accepted block: %w", err)
	}
	lastID, err := ids.ToID(last)
	if err != nil {
		return nil, fmt.Errorf("read last accepted block: %w", err)
	}
	blk, err := vm.getBlock(lastID)
	if err != nil {
		return nil, fmt.Errorf("read last accepted block %s: %w", lastID, err)
	}
	vm.last = blk

	it, err := vm.db.NewIterator([]byte{kvKeyState}, nil)
	if err != nil {
		return nil, fmt.Errorf("load state: %w", err)
	}
	for it.Next() {
		vm.state[string(it.Key()[1:])] = string(it.Value())
	}
	if err := errors.Join(it.Err(), it.Close()); err != nil {
		return nil, fmt.Errorf("load state: %w", err)
	}
	return vm, nil
}

// newKVTx returns the transaction writing value at key.
func newKVTx(key, value string) *kvTx {
	b := make([]byte, 0, 8+len(key)+len(value))
	b = binary.BigEndian.AppendUint32(b, uint32(len(key)))
	b = append(b, key...)
	b = binary.BigEndian.AppendUint32(b, uint32(len(value)))
	b = append(b, value...)
	return &kvTx{key: key, value: value, bytes: b, id: sha256.Sum256(b)}
}

// newBlock encodes a block.
func (vm *kvVM) newBlock(parent ids.ID, height uint64, ts int64, txs []*kvTx) *kvBlock {
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
	return &kvBlock{vm: vm, parent: parent, height: height, time: ts, txs: txs, bytes: b, id: sha256.Sum256(b)}
}

// kvReader reads the canonical encoding; every read checks what is left first, so a length
// field cannot make it allocate more than the input holds.
type kvReader struct {
	b   []byte
	err error
}

func (r *kvReader) next(n uint64) []byte {
	if r.err != nil || n > uint64(len(r.b)) {
		r.err = errKVMalformed
		return nil
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

func (r *kvReader) u32() uint32 {
	if b := r.next(4); b != nil {
		return binary.BigEndian.Uint32(b)
	}
	return 0
}

func (r *kvReader) u64() uint64 {
	if b := r.next(8); b != nil {
		return binary.BigEndian.Uint64(b)
	}
	return 0
}

// parseKVTx decodes a transaction; it must span all of b.
func parseKVTx(b []byte) (*kvTx, error) {
	r := &kvReader{b: b}
	key := r.next(uint64(r.u32()))
	value := r.next(uint64(r.u32()))
	if r.err != nil || len(r.b) != 0 {
		return nil, fmt.Errorf("parse transaction: %w", errKVMalformed)
	}
	return newKVTx(string(key), string(value)), nil
}

// parseKVBlock decodes a block; it must span all of b.
func (vm *kvVM) parseKVBlock(b []byte) (*kvBlock, error) {
	r := &kvReader{b: b}
	parent := r.next(32)
	height := r.u64()
	ts := r.u64()
	count := r.u32()
	if r.err != nil || uint64(count) > uint64(len(r.b))/4 {
		return nil, fmt.Errorf("parse block: %w", errKVMalformed)
	}
	txs := make([]*kvTx, 0, count)
	for range count {
		raw := r.next(uint64(r.u32()))
		if r.err != nil {
			return nil, fmt.Errorf("parse block: %w", errKVMalformed)
		}
		tx, err := parseKVTx(raw)
		if err != nil {
			return nil, fmt.Errorf("parse block: %w", err)
		}
		txs = append(txs, tx)
	}
	if len(r.b) != 0 {
		return nil, fmt.Errorf("parse block: %w: %d trailing bytes", errKVMalformed, len(r.b))
	}
	return vm.newBlock(ids.ID(parent), height, int64(ts), txs), nil
}

// signal tells the pipeline there is work, without blocking (chains.VM.WorkReady).
func (vm *kvVM) signal() {
	select {
	case vm.work <- struct{}{}:
	default:
	}
}

// submit queues tx; a transaction pending or accepted before is refused.
func (vm *kvVM) submit(tx *kvTx) error {
	if tx.key == "" {
		return errKVEmptyKey
	}
	vm.mu.Lock()
	defer vm.mu.Unlock()
	if vm.closed {
		return errKVClosed
	}
	if _, ok := vm.pendingIDs[tx.id]; ok {
		return errKVKnownTx
	}
	accepted, err := vm.db.Has(kvTxKey(tx.id))
	if err != nil {
		return fmt.Errorf("look up transaction: %w", err)
	}
	if accepted {
		return errKVKnownTx
	}
	vm.pending = append(vm.pending, tx)
	vm.pendingIDs[tx.id] = struct{}{}
	vm.signal()
	return nil
}

func kvTxKey(id ids.ID) []byte      { return append([]byte{kvKeyTx}, id[:]...) }
func kvBlockKey(id ids.ID) []byte   { return append([]byte{kvKeyBlock}, id[:]...) }
func kvHeightKey(h uint64) []byte   { return binary.BigEndian.AppendUint64([]byte{kvKeyHeight}, h) }
func kvStateKey(key string) []byte  { return append([]byte{kvKeyState}, key...) }
func kvHeightValue(h uint64) []byte { return binary.BigEndian.AppendUint64(nil, h) }

// getBlock returns an accepted block: the genesis block, or one read from disk.
func (vm *kvVM) getBlock(id ids.ID) (*kvBlock, error) {
	if id == vm.genesis.id {
		return vm.genesis, nil
	}
	b, err := vm.db.Get(kvBlockKey(id))
	if errors.Is(err, storage.ErrNotFound) {
		return nil, chains.ErrBlockNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("read block %s: %w", id, err)
	}
	return vm.parseKVBlock(b)
}

// blockIDAtHeight returns the ID of the committed block at height.
func (vm *kvVM) blockIDAtHeight(height uint64) (ids.ID, error) {
	if height == 0 {
		return vm.genesis.id, nil
	}
	b, err := vm.db.Get(kvHeightKey(height))
	if errors.Is(err, storage.ErrNotFound) {
		return ids.ID{}, chains.ErrBlockNotFound
	}
	if err != nil {
		return ids.ID{}, fmt.Errorf("read block at height %d: %w", height, err)
	}
	return ids.ToID(b)
}

func (vm *kvVM) lastAccepted() *kvBlock {
	vm.mu.Lock()
	defer vm.mu.Unlock()
	return vm.last
}

// LastAccepted implements chains.VM.
func (vm *kvVM) LastAccepted(context.Context) (ids.ID, error) { return vm.lastAccepted().id, nil }

// GetBlock implements chains.VM.
func (vm *kvVM) GetBlock(_ context.Context, id ids.ID) (chains.Block, error) {
	return vm.getBlock(id)
}

// GetBlockIDAtHeight implements chains.VM.
func (vm *kvVM) GetBlockIDAtHeight(_ context.Context, height uint64) (ids.ID, error) {
	return vm.blockIDAtHeight(height)
}

// ParseBlock implements chains.VM.
func (vm *kvVM) ParseBlock(_ context.Context, b []byte) (chains.Block, error) {
	return vm.parseKVBlock(b)
}

// BuildBlock implements chains.VM: a block of every pending transaction on the last accepted
// block. The transactions stay pending until the block is accepted.
func (vm *kvVM) BuildBlock(ctx context.Context) (chains.Block, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	vm.mu.Lock()
	defer vm.mu.Unlock()
	if len(vm.pending) == 0 {
		return nil, chains.ErrNoWork
	}
	ts := max(vm.clock.Now().UnixNano(), vm.last.time)
	return vm.newBlock(vm.last.id, vm.last.height+1, ts, slices.Clone(vm.pending)), nil
}

// WorkReady implements chains.VM.
func (vm *kvVM) WorkReady() <-chan struct{} { return vm.work }

// Accepted implements chains.VM: the block's batch is committed, so memory follows.
func (vm *kvVM) Accepted(_ context.Context, b chains.Block) error {
	blk, ok := b.(*kvBlock)
	if !ok || blk.vm != vm {
		return fmt.Errorf("accepted block %s is not this VM's", b.ID())
	}
	vm.mu.Lock()
	defer vm.mu.Unlock()
	done := make(map[ids.ID]struct{}, len(blk.txs))
	for _, tx := range blk.txs {
		vm.state[tx.key] = tx.value
		delete(vm.pendingIDs, tx.id)
		done[tx.id] = struct{}{}
	}
	vm.pending = slices.DeleteFunc(vm.pending, func(tx *kvTx) bool {
		_, ok := done[tx.id]
		return ok
	})
	vm.last = blk
	vm.log.Debug("block accepted", "blockID", blk.id.String(), "height", blk.height, "txs", len(blk.txs))
	return nil
}

// Handlers implements chains.VM: "/rpc" serves the "kv" JSON-RPC service.
func (vm *kvVM) Handlers(context.Context) (map[string]http.Handler, error) {
	s := jsonrpc.NewServer("kv", vm.log)
	jsonrpc.Register(s, "put", vm.put)
	jsonrpc.Register(s, "get", vm.get)
	jsonrpc.Register(s, "lastAccepted", vm.lastAcceptedCall)
	jsonrpc.Register(s, "block", vm.block)
	return map[string]http.Handler{"/rpc": s}, nil
}

// Close implements chains.VM.
func (vm *kvVM) Close() error {
	vm.mu.Lock()
	defer vm.mu.Unlock()
	vm.closed = true
	return nil
}

// ID implements chains.Block.
func (b *kvBlock) ID() ids.ID { return b.id }

// Parent implements chains.Block.
func (b *kvBlock) Parent() ids.ID { return b.parent }

// Height implements chains.Block.
func (b *kvBlock) Height() uint64 { return b.height }

// Timestamp implements chains.Block.
func (b *kvBlock) Timestamp() time.Time { return time.Unix(0, b.time).UTC() }

// Bytes implements chains.Block.
func (b *kvBlock) Bytes() []byte { return b.bytes }

// Verify implements chains.Block: the block extends the last accepted block, is not older than
// it, and holds at least one transaction, none of them invalid, repeated or accepted before.
func (b *kvBlock) Verify(context.Context) error {
	last := b.vm.lastAccepted()
	switch {
	case b.parent != last.id || b.height != last.height+1:
		return fmt.Errorf("verify block %s: %w", b.id, errKVWrongParent)
	case b.time < last.time:
		return fmt.Errorf("verify block %s: %w", b.id, errKVTimeBackward)
	case len(b.txs) == 0:
		return fmt.Errorf("verify block %s: %w", b.id, errKVEmptyBlock)
	}
	seen := make(map[ids.ID]struct{}, len(b.txs))
	for _, tx := range b.txs {
		if tx.key == "" {
			return fmt.Errorf("verify block %s: transaction %s: %w", b.id, tx.id, errKVEmptyKey)
		}
		if _, ok := seen[tx.id]; ok {
			return fmt.Errorf("verify block %s: transaction %s: %w", b.id, tx.id, errKVDuplicateTx)
		}
		seen[tx.id] = struct{}{}
		accepted, err := b.vm.db.Has(kvTxKey(tx.id))
		if err != nil {
			return fmt.Errorf("verify block %s: %w", b.id, err)
		}
		if accepted {
			return fmt.Errorf("verify block %s: transaction %s: %w", b.id, tx.id, errKVKnownTx)
		}
	}
	return nil
}

// Accept implements chains.Block: it stages the block's state writes and its storage into batch,
// and changes nothing else.
func (b *kvBlock) Accept(_ context.Context, batch *storage.Batch) error {
	w := b.vm.db.Wrap(batch)
	var errs []error
	for _, tx := range b.txs {
		errs = append(errs,
			w.Put(kvStateKey(tx.key), []byte(tx.value)),
			w.Put(kvTxKey(tx.id), kvHeightValue(b.height)),
		)
	}
	errs = append(errs,
		w.Put(kvBlockKey(b.id), b.bytes),
		w.Put(kvHeightKey(b.height), b.id[:]),
		w.Put([]byte{kvKeyLast}, b.id[:]),
	)
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("stage block %s: %w", b.id, err)
	}
	return nil
}

// Txs implements chains.TxLister: the block's transactions, in the order they are applied.
func (b *kvBlock) Txs() []chains.Container {
	out := make([]chains.Container, len(b.txs))
	for i, tx := range b.txs {
		out[i] = chains.Container{ID: tx.id, Bytes: tx.bytes}
	}
	return out
}

// Arguments and replies of the "kv" service.
type (
	kvPutArgs struct {
		Key   string `json:"key"`
		Value string `json:"value"`
	}
	kvPutReply struct {
		TxID ids.ID `json:"txID"`
	}
	kvGetArgs struct {
		Key string `json:"key"`
	}
	kvGetReply struct {
		Value string `json:"value"`
		Found bool   `json:"found"`
	}
	kvLastAcceptedReply struct {
		ID     ids.ID         `json:"id"`
		Height jsonrpc.Uint64 `json:"height"`
	}
	kvBlockArgs struct {
		Height jsonrpc.Uint64 `json:"height"`
	}
	kvBlockReply struct {
		ID ids.ID `json:"id"`
		// Bytes is the block in hexnc: "0x" + hex, no checksum.
		Bytes string `json:"bytes"`
	}
)

// put queues a transaction writing args.Value at args.Key: kv.put.
func (vm *kvVM) put(_ context.Context, args *kvPutArgs) (*kvPutReply, error) {
	tx := newKVTx(args.Key, args.Value)
	if err := vm.submit(tx); err != nil {
		return nil, err
	}
	return &kvPutReply{TxID: tx.id}, nil
}

// get reads a key of the state as of the last accepted block: kv.get.
func (vm *kvVM) get(_ context.Context, args *kvGetArgs) (*kvGetReply, error) {
	vm.mu.Lock()
	defer vm.mu.Unlock()
	v, ok := vm.state[args.Key]
	return &kvGetReply{Value: v, Found: ok}, nil
}

// lastAcceptedCall returns the last accepted block: kv.lastAccepted.
func (vm *kvVM) lastAcceptedCall(context.Context, *struct{}) (*kvLastAcceptedReply, error) {
	last := vm.lastAccepted()
	return &kvLastAcceptedReply{ID: last.id, Height: jsonrpc.Uint64(last.height)}, nil
}

// block returns the accepted block at args.Height: kv.block.
func (vm *kvVM) block(_ context.Context, args *kvBlockArgs) (*kvBlockReply, error) {
	id, err := vm.blockIDAtHeight(uint64(args.Height))
	if errors.Is(err, chains.ErrBlockNotFound) {
		return nil, errKVNoBlock
	}
	if err != nil {
		return nil, err
	}
	blk, err := vm.getBlock(id)
	if err != nil {
		return nil, err
	}
	enc, err := ids.HexNC.Encode(blk.bytes)
	if err != nil {
		return nil, err
	}
	return &kvBlockReply{ID: blk.id, Bytes: enc}, nil
}
