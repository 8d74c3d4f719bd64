package chains

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
)

// Rewind is a roll-back of a chain to one of its accepted blocks: what a developer's evm_revert
// or anvil_reset asks (issue #16 §2). Accepted-is-final does not hold on such a chain: the
// blocks after To are dropped, from the VM, the index and the last-accepted pointer, in one
// batch whose size need not grow with the number of blocks dropped (docs/decisions.md,
// "Roll-back"): what the batch leaves behind is removed later through Purge.
type Rewind struct {
	// To is the accepted block that becomes the last accepted one. The VM, which has it at
	// hand, passes it, so that the roll-back does not read it again.
	To Block
	// FirstDropped is the ID of the block at To's height + 1, the first one dropped: the index
	// is cut from its entry on.
	FirstDropped ids.ID
	// Stage writes into batch what the VM drops (its head pointers, its blocks or a record of
	// what is left to remove) and returns the IDs of the dropped blocks whose index entries go
	// in the same batch; the others' go through a later Purge.
	Stage func(batch *storage.Batch) (dropped []ids.ID, err error)
	// Unsynced answers the roll-back once its batch is staged (storage.Batch.CommitDeferred),
	// before its commit and its sync: Rewind returns then, and the batch is applied by the
	// first read, commit or Sync of the database that comes after (on any goroutine: every read
	// that begins once Rewind has returned sees the roll-back), by the background sync within
	// RewindSyncDelay at the latest, which also makes it durable. The roll-back's log line is
	// written when it is applied, so before any later line of the chain (the next block's
	// commit applies it first). A crash before then leaves the chain as it was before the
	// roll-back or after it, whole, never a mix (one batch). An application that fails halts
	// the chain, by the background sync at the latest. Only for a chain whose developer methods
	// are on (docs/decisions.md, "A roll-back answers before its commit").
	Unsynced bool
	// Later, with Unsynced, takes what Rewind leaves until its caller has answered: the arming
	// of the timer that applies and syncs the batch (about 2 µs, a timer that wakes the
	// runtime's poller, a tenth of a 1-block revert's work before its answer). The caller must
	// run it right after its answer, whatever that answer: RewindSyncDelay counts from then.
	// Nil: Rewind arms the timer itself.
	Later func(arm func())
}

// RewindSyncDelay bounds how long a roll-back made with Rewind.Unsynced may stay unapplied and
// off the disk: the background timer applies and syncs it this long after the roll-back is
// answered (after Rewind returns, or after its Later's arm runs), unless a read or a synced
// commit (the next block's) has applied and covered it by then. A test suite reverts between
// tests and its next transaction's block syncs first, so the timer then has nothing to do.
const RewindSyncDelay = 5 * time.Millisecond

// Truncater is implemented by an Indexer that can drop a chain's entries from one block on
// (package index): Rewind and Purge need it on an indexed chain.
type Truncater interface {
	// Truncate stages into batch the removal of chainID's block index entries from block from
	// on, in a number of writes that does not grow with theirs, and of the ID entries of the
	// blocks dropped (all at or after from); it returns how many entries it removes, none when
	// from is not in the index. The ID entries of the other blocks after from may stay until
	// Forget; the index's readers ignore them.
	Truncate(ctx context.Context, batch *storage.Batch, chainID ids.ID, from ids.ID, dropped []ids.ID) (int, error)
	// Forget stages into batch the removal of the ID entries that Truncate left for the
	// blocks dropped, skipping any block accepted again since.
	Forget(ctx context.Context, batch *storage.Batch, chainID ids.ID, dropped []ids.ID) error
}

// Rewind rolls the chain back to r.To, which must be an accepted block below the last one: the
// VM's drops (r.Stage), the index's truncation and the new last-accepted pointer go into one
// batch, committed atomically. It must be called by the chain's engine goroutine, between
// blocks (the VM calls it from BuildBlock), so that no block is in flight. The roll-back is
// logged once committed (applied, with r.Unsynced), with the number of index entries removed.
func (a *Acceptor) Rewind(ctx context.Context, r Rewind) error {
	toID, toHeight := r.To.ID(), r.To.Height()
	lastID, height, halted := a.status()
	switch {
	case halted != nil:
		return fmt.Errorf("%w: %w", ErrHalted, halted)
	case toHeight >= height:
		return fmt.Errorf("rewind chain %s to height %d: not below the last accepted height %d", a.chainID, toHeight, height)
	}
	batch := a.m.db.NewBatch()
	defer batch.Close() // no-op once committed
	dropped, err := r.Stage(batch)
	if err != nil {
		return fmt.Errorf("rewind chain %s to height %d: %w", a.chainID, toHeight, err)
	}
	removed := 0
	if a.indexed {
		t, err := a.truncater()
		if err != nil {
			return err
		}
		if removed, err = t.Truncate(ctx, batch, a.chainID, r.FirstDropped, dropped); err != nil {
			return fmt.Errorf("rewind chain %s to height %d: %w", a.chainID, toHeight, err)
		}
	}
	if err := a.m.store.Wrap(batch).Put(lastAcceptedKey(a.chainID), encodePointer(toID, toHeight)); err != nil {
		return fmt.Errorf("rewind chain %s to height %d: %w", a.chainID, toHeight, err)
	}
	log := func() {
		a.log.Warn("chain rolled back: later blocks dropped, index truncated", "from", lastID.String(), "fromHeight", height,
			"to", toID.String(), "height", toHeight, "indexEntriesRemoved", removed)
	}
	if r.Unsynced {
		// Answered once staged (docs/decisions.md, "A roll-back answers before its commit"),
		// applied by whatever needs the database next: the line goes with the application.
		batch.OnCommit(log)
		apply, err := a.m.stage(batch)
		if err != nil {
			return fmt.Errorf("rewind chain %s to height %d: %w", a.chainID, toHeight, err)
		}
		a.setLast(toID, toHeight, r.To.Timestamp())
		arm := func() {
			a.m.syncSoon(func() {
				if err := apply(); err != nil {
					// Told the client it is done: the chain's memory and its database now
					// disagree, so it stops here (the database fails every read from now on,
					// storage.Deferred.Apply), and a restart finds it as it was.
					a.halt(fmt.Errorf("rewind chain %s to height %d: %w", a.chainID, toHeight, err))
				}
			})
		}
		if r.Later != nil {
			r.Later(arm)
		} else {
			arm()
		}
		return nil
	}
	if err := a.m.commit(batch, true); err != nil {
		return fmt.Errorf("rewind chain %s to height %d: %w", a.chainID, toHeight, err)
	}
	a.setLast(toID, toHeight, r.To.Timestamp())
	log()
	return nil
}

// setLast records the last accepted block after a roll-back.
func (a *Acceptor) setLast(id ids.ID, height uint64, timestamp time.Time) {
	a.mu.Lock()
	a.lastID, a.height, a.lastTime = id, height, timestamp
	a.mu.Unlock()
}

// Purge commits, in one batch, what stage writes (the VM's removal of what earlier roll-backs
// left behind) with the removal of the index's ID entries of the blocks it returns, which must
// be dropped ones. Like Rewind, it must be called by the chain's engine goroutine, between
// blocks: no block accepted meanwhile can bring one of them back.
func (a *Acceptor) Purge(ctx context.Context, stage func(batch *storage.Batch) (dropped []ids.ID, err error)) error {
	if _, _, halted := a.status(); halted != nil {
		return fmt.Errorf("%w: %w", ErrHalted, halted)
	}
	batch := a.m.db.NewBatch()
	defer batch.Close() // no-op once committed
	dropped, err := stage(batch)
	if err != nil {
		return fmt.Errorf("purge chain %s: %w", a.chainID, err)
	}
	if a.indexed && len(dropped) > 0 {
		t, err := a.truncater()
		if err != nil {
			return err
		}
		if err := t.Forget(ctx, batch, a.chainID, dropped); err != nil {
			return fmt.Errorf("purge chain %s: %w", a.chainID, err)
		}
	}
	if batch.Count() == 0 {
		return nil
	}
	if err := a.m.commit(batch, true); err != nil {
		return fmt.Errorf("purge chain %s: %w", a.chainID, err)
	}
	return nil
}

// syncSoon makes sure that apply, a staged roll-back's application, then a background sync
// run within RewindSyncDelay: one timer covers every unsynced roll-back staged before it fires
// (a timer is about a twentieth of a 1-block revert's work before its answer).
func (m *Manager) syncSoon(apply func()) {
	m.syncMu.Lock()
	defer m.syncMu.Unlock()
	m.applies = append(m.applies, apply)
	if m.syncArmed {
		return // the armed timer's application and sync come after this stage
	}
	m.syncArmed = true
	m.clock.AfterFunc(RewindSyncDelay, func() {
		m.syncMu.Lock()
		m.syncArmed = false
		applies := m.applies
		m.applies = nil
		m.syncMu.Unlock()
		for _, apply := range applies {
			apply()
		}
		// Closed: the database's Close flushed what it held to disk.
		if err := m.db.Sync(); err != nil && !errors.Is(err, storage.ErrClosed) {
			m.log.Error("syncing rolled-back chains failed; the roll-backs since the last sync may be lost in a crash", "err", err)
		}
	})
}

// truncater returns the manager's Indexer as a Truncater, for an indexed chain.
func (a *Acceptor) truncater() (Truncater, error) {
	t, ok := a.m.indexer.(Truncater)
	if !ok {
		return nil, fmt.Errorf("rewind chain %s: its index cannot be truncated", a.chainID)
	}
	return t, nil
}
