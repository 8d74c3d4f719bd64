package storage

import (
	"fmt"

	"github.com/cockroachdb/pebble/v2"
)

// Iterator walks keys in ascending order. Use it as
//
//	for it.Next() { use(it.Key(), it.Value()) }
//	err := errors.Join(it.Err(), it.Close())
//
// It is not safe for concurrent use, and it holds the database open: the
// DB's Close waits for every iterator to be closed.
type Iterator struct {
	db *DB
	// pub is the published state the iterator reads, released by Close;
	// nil for an iterator of a live view.
	pub     *published
	it      *pebble.Iterator
	strip   int // bytes of view prefix to remove from keys
	started bool
	closed  bool
	err     error
}

// Next moves to the next key, the first one on the first call, and reports
// whether there is one.
func (it *Iterator) Next() bool {
	if it.closed || it.err != nil {
		return false
	}
	var ok bool
	if it.started {
		ok = it.it.Next()
	} else {
		it.started = true
		ok = it.it.First()
	}
	if !ok {
		if err := it.it.Error(); err != nil {
			it.err = fmt.Errorf("iterate: %w", err)
		}
	}
	return ok
}

// Key returns the current key, relative to the iterator's view. The slice
// belongs to the iterator and is valid until the next Next or Close; copy
// it to keep it.
func (it *Iterator) Key() []byte {
	if it.closed || !it.it.Valid() {
		return nil
	}
	return it.it.Key()[it.strip:]
}

// Value returns the current value. The slice belongs to the iterator and is
// valid until the next Next or Close; copy it to keep it.
func (it *Iterator) Value() []byte {
	if it.closed || !it.it.Valid() {
		return nil
	}
	v, err := it.it.ValueAndErr()
	if err != nil {
		it.err = fmt.Errorf("iterate: read value: %w", err)
		return nil
	}
	return v
}

// Err returns the error that ended the iteration early, if any.
func (it *Iterator) Err() error { return it.err }

// Close releases the iterator. It is idempotent.
func (it *Iterator) Close() error {
	if it.closed {
		return nil
	}
	it.closed = true
	defer it.db.inflight.Done()
	err := it.it.Close()
	if it.pub != nil {
		it.pub.release()
	}
	if err != nil {
		return fmt.Errorf("close iterator: %w", err)
	}
	return nil
}
