package evm

import (
	"errors"
	"fmt"
	"sync"

	"github.com/ethereum/go-ethereum/ethdb"

	"github.com/cornice-node/cornice/storage"
)

// kvStore is go-ethereum's ethdb.KeyValueStore over the VM's storage.View.
//
// Reads go to the database. Writes go only into the sink batch set with
// setSink (the acceptance pipeline's batch during Block.Accept); with no
// sink, every write fails with errNoSink, so nothing go-ethereum writes can
// land outside a block's batch.
type kvStore struct {
	view *storage.View

	mu sync.Mutex // guards sink
	// sink receives every write, relative to view; nil refuses writes.
	sink *storage.Batch
}

var _ ethdb.KeyValueStore = (*kvStore)(nil)

func newKVStore(view *storage.View) *kvStore { return &kvStore{view: view} }

// setSink makes b (a batch of any view) receive the store's writes until
// clearSink.
func (s *kvStore) setSink(b *storage.Batch) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sink = s.view.Wrap(b)
}

func (s *kvStore) clearSink() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sink = nil
}

// writer returns the sink, or errNoSink.
func (s *kvStore) writer() (*storage.Batch, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sink == nil {
		return nil, errNoSink
	}
	return s.sink, nil
}

// Has implements ethdb.KeyValueReader.
func (s *kvStore) Has(key []byte) (bool, error) { return s.view.Has(key) }

// Get implements ethdb.KeyValueReader; a missing key is an error wrapping
// storage.ErrNotFound, as go-ethereum's stores return one of their own.
func (s *kvStore) Get(key []byte) ([]byte, error) { return s.view.Get(key) }

// Put implements ethdb.KeyValueWriter, into the sink.
func (s *kvStore) Put(key, value []byte) error {
	w, err := s.writer()
	if err != nil {
		return err
	}
	return w.Put(key, value)
}

// Delete implements ethdb.KeyValueWriter, into the sink.
func (s *kvStore) Delete(key []byte) error {
	w, err := s.writer()
	if err != nil {
		return err
	}
	return w.Delete(key)
}

// DeleteRange implements ethdb.KeyValueRangeDeleter: it deletes, in the
// sink, every key in [start, end) that the database holds.
func (s *kvStore) DeleteRange(start, end []byte) error {
	w, err := s.writer()
	if err != nil {
		return err
	}
	it, err := s.view.NewIterator(nil, start)
	if err != nil {
		return fmt.Errorf("delete range: %w", err)
	}
	for it.Next() {
		k := it.Key()
		if end != nil && string(k) >= string(end) {
			break
		}
		if err := w.Delete(k); err != nil {
			return errors.Join(err, it.Close())
		}
	}
	return errors.Join(it.Err(), it.Close())
}

// Stat implements ethdb.KeyValueStater; the node reports database
// statistics itself.
func (s *kvStore) Stat() (string, error) { return "", nil }

// SyncKeyValue implements ethdb.KeyValueSyncer: every commit is synced.
func (s *kvStore) SyncKeyValue() error { return nil }

// Compact implements ethdb.Compacter; Pebble compacts by itself.
func (s *kvStore) Compact(start, limit []byte) error { return nil }

// Close implements io.Closer; the node owns the database.
func (s *kvStore) Close() error { return nil }

// NewBatch implements ethdb.Batcher.
func (s *kvStore) NewBatch() ethdb.Batch { return &kvBatch{store: s} }

// NewBatchWithSize implements ethdb.Batcher: size is the expected bytes of
// keys and values.
func (s *kvStore) NewBatchWithSize(size int) ethdb.Batch {
	return &kvBatch{store: s, data: make([]byte, 0, size)}
}

// newBatchFor returns a batch with room for ops writes of size bytes of keys and values in all,
// for a caller that knows them ahead: the buffers then grow not once.
func (s *kvStore) newBatchFor(ops, size int) *kvBatch {
	return &kvBatch{store: s, ops: make([]kvOp, 0, ops), data: make([]byte, 0, size)}
}

// NewIterator implements ethdb.Iteratee.
func (s *kvStore) NewIterator(prefix, start []byte) ethdb.Iterator {
	it, err := s.view.NewIterator(prefix, start)
	if err != nil {
		return &kvIterator{err: err}
	}
	return &kvIterator{it: it}
}

// kvOp is one buffered write: a put, or a delete when del is set. Its key
// and value are data[off:off+klen] and data[off+klen:off+klen+vlen] of
// its batch.
type kvOp struct {
	off, klen, vlen int
	del             bool
}

// kvBatch buffers writes and hands them to the store's sink on Write. Keys
// and values are copied into one growing buffer, so a write allocates only
// when the buffer grows (a block's batch of trie nodes and chain data
// would otherwise cost two allocations a write).
type kvBatch struct {
	store *kvStore
	ops   []kvOp
	data  []byte
	// size is go-ethereum's ValueSize: keys and values, deletes' keys.
	size int
}

func (b *kvBatch) Put(key, value []byte) error {
	b.ops = append(b.ops, kvOp{off: len(b.data), klen: len(key), vlen: len(value)})
	b.data = append(append(b.data, key...), value...)
	b.size += len(key) + len(value)
	return nil
}

func (b *kvBatch) Delete(key []byte) error {
	b.ops = append(b.ops, kvOp{off: len(b.data), klen: len(key), del: true})
	b.data = append(b.data, key...)
	b.size += len(key)
	return nil
}

// DeleteRange applies at once: it needs the database's keys.
func (b *kvBatch) DeleteRange(start, end []byte) error { return b.store.DeleteRange(start, end) }

func (b *kvBatch) ValueSize() int { return b.size }

// Write hands the writes to the store's sink; an empty batch writes
// nothing and needs none (go-ethereum flushes its empty preimage store at
// close).
func (b *kvBatch) Write() error {
	if len(b.ops) == 0 {
		return nil
	}
	w, err := b.store.writer()
	if err != nil {
		return err
	}
	return b.Replay(w)
}

func (b *kvBatch) Reset() {
	b.ops = b.ops[:0]
	b.data = b.data[:0]
	b.size = 0
}

// Replay hands every write to w, in order. The key and value slices w gets
// are the batch's: w must copy what it keeps (every ethdb writer does).
func (b *kvBatch) Replay(w ethdb.KeyValueWriter) error {
	for _, op := range b.ops {
		key := b.data[op.off : op.off+op.klen : op.off+op.klen]
		var err error
		if op.del {
			err = w.Delete(key)
		} else {
			err = w.Put(key, b.data[op.off+op.klen:op.off+op.klen+op.vlen:op.off+op.klen+op.vlen])
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (b *kvBatch) Close() { b.Reset() }

// kvIterator is ethdb.Iterator over a storage.Iterator.
type kvIterator struct {
	it  *storage.Iterator
	err error
}

func (i *kvIterator) Next() bool { return i.it != nil && i.it.Next() }

func (i *kvIterator) Error() error {
	if i.err != nil || i.it == nil {
		return i.err
	}
	return i.it.Err()
}

func (i *kvIterator) Key() []byte {
	if i.it == nil {
		return nil
	}
	return i.it.Key()
}

func (i *kvIterator) Value() []byte {
	if i.it == nil {
		return nil
	}
	return i.it.Value()
}

func (i *kvIterator) Release() {
	if i.it != nil {
		if err := i.it.Close(); err != nil && i.err == nil {
			i.err = err
		}
	}
}
