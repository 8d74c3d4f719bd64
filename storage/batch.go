package storage

import (
	"fmt"

	"github.com/cockroachdb/pebble/v2"
)

// Batch collects writes that Commit applies atomically and durably: after a
// crash, either all of them are in the database or none is. A Batch is not
// safe for concurrent use. It copies every key and value it is given.
//
// Batches made by View.Wrap share their writes with the batch they wrap;
// Commit or Close on any of them ends all of them.
type Batch struct {
	st     *batchState
	prefix []byte
}

// batchState is shared by a batch and every Wrap of it.
type batchState struct {
	db   *DB
	pb   *pebble.Batch
	done bool
	// onCommit is what OnCommit was given, run once the writes are applied.
	onCommit []func()
}

// Put records value at key, copying both: the caller may reuse them at
// once. The empty key at the database root is refused
// with ErrEmptyKey.
func (b *Batch) Put(key, value []byte) error {
	if b.st.done {
		return ErrBatchDone
	}
	if len(b.prefix)+len(key) == 0 {
		return ErrEmptyKey
	}
	op := b.st.pb.SetDeferred(len(b.prefix)+len(key), len(value))
	copy(op.Key, b.prefix)
	copy(op.Key[len(b.prefix):], key)
	copy(op.Value, value)
	if err := op.Finish(); err != nil {
		return fmt.Errorf("batch put: %w", err)
	}
	return nil
}

// Delete records the removal of key, copying it.
func (b *Batch) Delete(key []byte) error {
	if b.st.done {
		return ErrBatchDone
	}
	if len(b.prefix)+len(key) == 0 {
		return ErrEmptyKey
	}
	op := b.st.pb.DeleteDeferred(len(b.prefix) + len(key))
	copy(op.Key, b.prefix)
	copy(op.Key[len(b.prefix):], key)
	if err := op.Finish(); err != nil {
		return fmt.Errorf("batch delete: %w", err)
	}
	return nil
}

// DeleteRange records the removal of every key in [start, end), copying both; with Pebble's
// range deletion this costs the same however many keys the range holds. start must sort before
// end. Both are relative to the batch's view and must not be empty (ErrEmptyKey), so that the
// range stays inside the view's key space.
func (b *Batch) DeleteRange(start, end []byte) error {
	if b.st.done {
		return ErrBatchDone
	}
	if len(start) == 0 || len(end) == 0 {
		return ErrEmptyKey
	}
	if string(start) >= string(end) {
		return fmt.Errorf("batch delete range: start %x not before end %x", start, end)
	}
	if err := b.st.pb.DeleteRange(concat(b.prefix, start), concat(b.prefix, end), nil); err != nil {
		return fmt.Errorf("batch delete range: %w", err)
	}
	return nil
}

// OnCommit has fn run once the batch's writes are applied: before Commit or CommitUnsynced
// returns, or when a deferred batch is applied (Deferred), in the order the calls were made;
// never when the batch is discarded or its commit fails. It is for a writer that keeps in memory
// what it stages (the index's next number): fn must be short and must not use the database,
// as it may run inside a commit, on the goroutine of a read that applies a deferred batch.
func (b *Batch) OnCommit(fn func()) {
	if !b.st.done {
		b.st.onCommit = append(b.st.onCommit, fn)
	}
}

// Count returns the number of writes recorded so far.
func (b *Batch) Count() int {
	if b.st.done {
		return 0
	}
	return int(b.st.pb.Count())
}

// Size returns the size in bytes of the writes recorded so far.
func (b *Batch) Size() int {
	if b.st.done {
		return 0
	}
	return b.st.pb.Len()
}

// Commit applies every write of the batch atomically and syncs them to
// disk before returning; no reader sees them before it returns. The batch
// cannot be used afterwards, whatever the result; a failed Commit applied
// nothing.
func (b *Batch) Commit() error {
	return b.commitWith(pebble.Sync)
}

// CommitUnsynced applies every write of the batch atomically, as Commit
// does, and makes them visible to readers at once, but does not wait for
// them to reach the disk: they are the one exception to "durable before
// visible" (package doc). A crash of the process or of the machine may lose
// them, and with them every unsynced commit made after them, never one made
// before: Pebble replays its log in order, so what survives is a prefix of
// the commits. [DB.Sync] (or any later Commit) makes them durable. It is for
// writes that a restart can lose without harm because it redoes them, such
// as the blocks a bootstrapping chain executes, or that a developer accepts
// to lose in a crash in exchange for a faster answer: the blocks of a batch
// mine but its last, a roll-back (docs/decisions.md).
func (b *Batch) CommitUnsynced() error {
	return b.commitWith(pebble.NoSync)
}

// commitWith ends the batch by applying it, synced or not (opts).
func (b *Batch) commitWith(opts *pebble.WriteOptions) error {
	if b.st.done {
		return ErrBatchDone
	}
	b.st.done = true
	db := b.st.db
	defer b.st.pb.Close()
	if err := db.begin(); err != nil {
		return err
	}
	defer db.inflight.Done()
	if err := db.commit(b.st.pb, opts); err != nil {
		return fmt.Errorf("commit batch: %w", err)
	}
	for _, fn := range b.st.onCommit {
		fn()
	}
	return nil
}

// Close discards a batch that will not be committed. It is idempotent, and
// a no-op after Commit.
func (b *Batch) Close() {
	if b.st.done {
		return
	}
	b.st.done = true
	// Closing a batch that was never committed cannot fail.
	_ = b.st.pb.Close()
}
