package chains

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
)

// testVM is a small VM for the pipeline's tests: a block is a list of
// key/value writes, its state lives under the VM's View, and BuildBlock
// takes one entry of a pending queue per block.
//
// Its key space:
//
//	"s" key          -> value (the state)
//	"b" block ID     -> block bytes
//	"h" height (8)   -> block ID
//	"last"           -> the last accepted block ID
type testVM struct {
	db    *storage.View
	clock clock.Clock
	work  chan struct{}

	// Hooks, set before the VM is used; nil means no effect.
	//
	// build runs at the start of BuildBlock (outside mu).
	build func(ctx context.Context) error
	// verify is Verify's result.
	verify func(blk *testBlock) error
	// accept runs in Block.Accept after the block's writes are staged.
	accept func(ctx context.Context, blk *testBlock) error
	// accepted is VM.Accepted's result.
	accepted func(blk *testBlock) error
	// mangle may change a built block (to break its parent or height).
	mangle func(d *blockData)

	mu sync.Mutex // guards the fields below
	// pending holds the writes of each block still to build.
	pending [][]kv
	lastID  ids.ID
	height  uint64
	// acceptedHeights lists the heights VM.Accepted was called with.
	acceptedHeights []uint64
	closed          bool
}

// kv is one write of a block.
type kv struct {
	Key   string `json:"k"`
	Value string `json:"v"`
}

// blockData is a block's encoded form.
type blockData struct {
	Parent ids.ID `json:"parent"`
	Height uint64 `json:"height"`
	Time   int64  `json:"time"`
	Writes []kv   `json:"writes"`
}

type testBlock struct {
	vm    *testVM
	id    ids.ID
	data  blockData
	bytes []byte
}

var (
	_ Block     = (*testBlock)(nil)
	_ TxLister  = (*testBlock)(nil)
	_ VM        = (*testVM)(nil)
	_ Recoverer = (*recoveringVM)(nil)
)

// newTestVM opens the VM over c.DB, writing its genesis block on a new
// chain; c.Genesis becomes the genesis block's one write.
func newTestVM(c Context) (*testVM, error) {
	vm := &testVM{db: c.DB, clock: c.Clock, work: make(chan struct{}, 1)}
	last, err := vm.db.Get([]byte("last"))
	switch {
	case errors.Is(err, storage.ErrNotFound):
		gen := vm.newBlock(blockData{Writes: []kv{{Key: "genesis", Value: string(c.Genesis)}}})
		b := vm.db.NewBatch()
		defer b.Close()
		if err := vm.stage(b, gen); err != nil {
			return nil, err
		}
		if err := b.Commit(); err != nil {
			return nil, err
		}
		vm.lastID = gen.id
	case err != nil:
		return nil, err
	default:
		id, err := ids.ToID(last)
		if err != nil {
			return nil, err
		}
		blk, err := vm.GetBlock(context.Background(), id)
		if err != nil {
			return nil, err
		}
		vm.lastID, vm.height = id, blk.Height()
	}
	return vm, nil
}

func (vm *testVM) newBlock(d blockData) *testBlock {
	b, err := json.Marshal(d)
	if err != nil {
		panic(err) // cannot fail for this type
	}
	return &testBlock{vm: vm, id: sha256.Sum256(b), data: d, bytes: b}
}

func heightKey(h uint64) []byte { return binary.BigEndian.AppendUint64([]byte("h"), h) }

// stage writes blk's changes into b, through the VM's view.
func (vm *testVM) stage(b *storage.Batch, blk *testBlock) error {
	w := vm.db.Wrap(b)
	for _, e := range blk.data.Writes {
		if err := w.Put([]byte("s"+e.Key), []byte(e.Value)); err != nil {
			return err
		}
	}
	return errors.Join(
		w.Put(append([]byte("b"), blk.id[:]...), blk.bytes),
		w.Put(heightKey(blk.data.Height), blk.id[:]),
		w.Put([]byte("last"), blk.id[:]),
	)
}

// submit queues one block's writes and signals work.
func (vm *testVM) submit(writes ...kv) {
	vm.mu.Lock()
	vm.pending = append(vm.pending, writes)
	vm.mu.Unlock()
	select {
	case vm.work <- struct{}{}:
	default:
	}
}

// state reads a key of the VM's state from disk.
func (vm *testVM) state(key string) (string, error) {
	v, err := vm.db.Get([]byte("s" + key))
	return string(v), err
}

func (vm *testVM) heights() []uint64 {
	vm.mu.Lock()
	defer vm.mu.Unlock()
	return append([]uint64(nil), vm.acceptedHeights...)
}

func (vm *testVM) isClosed() bool {
	vm.mu.Lock()
	defer vm.mu.Unlock()
	return vm.closed
}

func (vm *testVM) LastAccepted(context.Context) (ids.ID, error) {
	vm.mu.Lock()
	defer vm.mu.Unlock()
	return vm.lastID, nil
}

func (vm *testVM) GetBlock(ctx context.Context, id ids.ID) (Block, error) {
	b, err := vm.db.Get(append([]byte("b"), id[:]...))
	if errors.Is(err, storage.ErrNotFound) {
		return nil, ErrBlockNotFound
	}
	if err != nil {
		return nil, err
	}
	return vm.ParseBlock(ctx, b)
}

func (vm *testVM) GetBlockIDAtHeight(_ context.Context, height uint64) (ids.ID, error) {
	b, err := vm.db.Get(heightKey(height))
	if errors.Is(err, storage.ErrNotFound) {
		return ids.ID{}, ErrBlockNotFound
	}
	if err != nil {
		return ids.ID{}, err
	}
	return ids.ToID(b)
}

func (vm *testVM) ParseBlock(_ context.Context, b []byte) (Block, error) {
	var d blockData
	if err := json.Unmarshal(b, &d); err != nil {
		return nil, fmt.Errorf("parse block: %w", err)
	}
	blk := vm.newBlock(d)
	return blk, nil
}

func (vm *testVM) BuildBlock(ctx context.Context) (Block, error) {
	if vm.build != nil {
		if err := vm.build(ctx); err != nil {
			return nil, err
		}
	}
	vm.mu.Lock()
	if len(vm.pending) == 0 {
		vm.mu.Unlock()
		return nil, ErrNoWork
	}
	writes := vm.pending[0]
	vm.pending = vm.pending[1:]
	d := blockData{Parent: vm.lastID, Height: vm.height + 1, Time: vm.clock.Now().UnixNano(), Writes: writes}
	vm.mu.Unlock()
	if vm.mangle != nil {
		vm.mangle(&d)
	}
	return vm.newBlock(d), nil
}

func (vm *testVM) WorkReady() <-chan struct{} { return vm.work }

func (vm *testVM) Accepted(_ context.Context, blk Block) error {
	tb := blk.(*testBlock)
	vm.mu.Lock()
	vm.lastID, vm.height = tb.id, tb.data.Height
	vm.acceptedHeights = append(vm.acceptedHeights, tb.data.Height)
	vm.mu.Unlock()
	if vm.accepted != nil {
		return vm.accepted(tb)
	}
	return nil
}

func (vm *testVM) Handlers(context.Context) (map[string]http.Handler, error) {
	ok := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) })
	return map[string]http.Handler{"": ok, "/rpc": ok}, nil
}

func (vm *testVM) Close() error {
	vm.mu.Lock()
	defer vm.mu.Unlock()
	if vm.closed {
		return errors.New("closed twice")
	}
	vm.closed = true
	return nil
}

func (b *testBlock) ID() ids.ID           { return b.id }
func (b *testBlock) Parent() ids.ID       { return b.data.Parent }
func (b *testBlock) Height() uint64       { return b.data.Height }
func (b *testBlock) Timestamp() time.Time { return time.Unix(0, b.data.Time) }
func (b *testBlock) Bytes() []byte        { return b.bytes }

func (b *testBlock) Verify(context.Context) error {
	if b.vm.verify != nil {
		return b.vm.verify(b)
	}
	return nil
}

func (b *testBlock) Accept(ctx context.Context, batch *storage.Batch) error {
	if err := b.vm.stage(batch, b); err != nil {
		return err
	}
	if b.vm.accept != nil {
		return b.vm.accept(ctx, b)
	}
	return nil
}

// Txs lists each write as a transaction whose bytes are its key.
func (b *testBlock) Txs() []Container {
	txs := make([]Container, 0, len(b.data.Writes))
	for _, w := range b.data.Writes {
		txs = append(txs, Container{ID: sha256.Sum256([]byte(w.Key + "=" + w.Value)), Bytes: []byte(w.Key)})
	}
	return txs
}

// recoveringVM is a testVM that implements Recoverer by moving its
// "last" record back to the block it is given.
type recoveringVM struct {
	*testVM
	recovered []uint64
}

func (vm *recoveringVM) Recover(_ context.Context, lastAccepted ids.ID, height uint64) error {
	if err := vm.db.Put([]byte("last"), lastAccepted[:]); err != nil {
		return err
	}
	vm.mu.Lock()
	defer vm.mu.Unlock()
	vm.lastID, vm.height = lastAccepted, height
	vm.recovered = append(vm.recovered, height)
	return nil
}
