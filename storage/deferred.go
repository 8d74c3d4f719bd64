package storage

import (
	"fmt"

	"github.com/cockroachdb/pebble/v2"
)

// Deferred is a batch staged by [Batch.CommitDeferred]: applied as [Batch.CommitUnsynced]
// applies one, by the first of its owner's Apply, a read, a commit, a Sync or Close.
type Deferred struct {
	db       *DB
	pb       *pebble.Batch
	onCommit []func() // Batch.OnCommit's
	// applied and err (the application's result) are guarded by db.commitMu.
	applied bool
	err     error
}

// CommitDeferred ends the batch as CommitUnsynced does, in two steps, so that its owner can
// answer a client between them: it stages the batch now, and [Deferred.Apply] applies it. Until
// then every read that begins (Get, Has, an Iterator, a Pin, on any goroutine, a live view's
// too) and every commit, Sync and Close applies it first, on its own goroutine, and waits for
// that: no read that begins after CommitDeferred has returned sees the database without the
// batch, and a read never waits for the owner (it may wait for a commit in progress, as it
// takes the commit lock to apply the batch). Reads that began before it see the state before
// it (one published state, as for any commit). One batch is staged at a time: staging another
// applies the one before. The owner must see that it is applied within a bound (Apply, or a
// Sync, on a timer: the read or commit that applies it pays for its commit, about 40 µs), and
// must make every change in memory that goes with the batch before it answers, as a reader
// sees those at once.
//
// It is for a developer's roll-back (docs/decisions.md, "A roll-back answers before its
// commit"), answered once staged: its commit, a Pebble memtable insert and the read snapshot
// published, then runs when the next request needs the database.
func (b *Batch) CommitDeferred() (*Deferred, error) {
	if b.st.done {
		return nil, ErrBatchDone
	}
	b.st.done = true
	db := b.st.db
	if err := db.begin(); err != nil {
		_ = b.st.pb.Close() // never committed: cannot fail
		return nil, err
	}
	d := &Deferred{db: db, pb: b.st.pb, onCommit: b.st.onCommit}
	db.commitMu.Lock()
	defer db.commitMu.Unlock()
	if err := db.applyPendingLocked(); err != nil { // the one before
		_ = d.pb.Close() // never committed: cannot fail
		db.inflight.Done()
		return nil, err
	}
	db.pending.Store(d)
	return d, nil
}

// Apply applies the staged batch unless a read or commit has already, and returns the result
// of its one application. An error means the batch was not applied; its owner may already
// have told a client it was, so from then on every read and commit of the database fails with
// that error (until a restart) rather than show the database without the batch.
func (d *Deferred) Apply() error {
	d.db.commitMu.Lock()
	defer d.db.commitMu.Unlock()
	if !d.applied {
		// Not applied: it is still the pending one (staging another applies it first).
		d.db.applyPendingLocked()
	}
	return d.err
}

// Settle applies the batch staged by Batch.CommitDeferred, if any, and returns the error of
// that application. Reads do it themselves; a writer that keeps in memory what its commits
// wrote (Batch.OnCommit) calls it before it uses that, so that a staged batch's hooks have run.
func (v *View) Settle() error { return v.db.settle() }

// settle applies the staged batch, if any, before a read: the read then sees it.
func (db *DB) settle() error {
	if db.pending.Load() == nil {
		return nil // the common case: one atomic load
	}
	db.commitMu.Lock()
	defer db.commitMu.Unlock()
	return db.applyPendingLocked()
}

// applyPendingLocked applies the staged batch, if any, with commitMu held, and returns the
// result, which it also keeps for the batch's Apply. The batch is taken off pending only once
// it is published, so that a reader that finds none reads a state that has it; a batch whose
// commit failed stays there, so that every later read and commit fails with its error.
func (db *DB) applyPendingLocked() error {
	d := db.pending.Load()
	if d == nil || d.applied {
		return d.failure()
	}
	var err error
	if db.failApply != nil {
		err = db.failApply()
	} else {
		err = db.commitLocked(d.pb, pebble.NoSync)
	}
	_ = d.pb.Close() // committed or not, Close releases the batch's memory and cannot fail
	d.applied = true
	db.inflight.Done() // CommitDeferred's begin
	if err != nil {
		d.err = fmt.Errorf("apply deferred batch: %w", err)
		db.log.Error("a deferred batch could not be applied: every read and commit fails until a restart", "err", err)
		return d.err
	}
	for _, fn := range d.onCommit {
		fn()
	}
	db.pending.Store(nil) // after the hooks: a writer that finds none sees what they kept
	return nil
}

// failure is d's error, nil for no batch.
func (d *Deferred) failure() error {
	if d == nil {
		return nil
	}
	return d.err
}
