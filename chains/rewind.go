package chains

import (
	"context"
	"fmt"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
)

// Rewind is a roll-back of a chain to one of its accepted blocks: what a developer's evm_revert
// or anvil_reset asks (issue #16 §2). Accepted-is-final does not hold on such a chain: the
// blocks after To are dropped, from the VM, the index and the last-accepted pointer, in one
// batch.
type Rewind struct {
	// To and Height name the block that becomes the last accepted one.
	To     ids.ID
	Height uint64
	// FirstDropped is the ID of the block at Height+1, the first one dropped: the index is cut
	// from its entry on.
	FirstDropped ids.ID
	// Stage writes into batch what the VM drops (its blocks, receipts, lookups, head pointers).
	Stage func(batch *storage.Batch) error
}

// Truncater is implemented by an Indexer that can drop a chain's entries from one block on
// (package index): Rewind needs it on an indexed chain.
type Truncater interface {
	// Truncate stages into batch the removal of chainID's block index entries from block from
	// on, and returns how many it removes; none when from is not in the index.
	Truncate(ctx context.Context, batch *storage.Batch, chainID ids.ID, from ids.ID) (int, error)
}

// Rewind rolls the chain back to r.To, which must be an accepted block below the last one: the
// VM's drops (r.Stage), the index's truncation and the new last-accepted pointer go into one
// batch, committed atomically. It must be called by the chain's engine goroutine, between
// blocks (the VM calls it from BuildBlock), so that no block is in flight. The roll-back is
// logged, with the number of index entries removed.
func (a *Acceptor) Rewind(ctx context.Context, r Rewind) error {
	lastID, height, halted := a.status()
	switch {
	case halted != nil:
		return fmt.Errorf("%w: %w", ErrHalted, halted)
	case r.Height >= height:
		return fmt.Errorf("rewind chain %s to height %d: not below the last accepted height %d", a.chainID, r.Height, height)
	}
	to, err := a.vm.GetBlock(ctx, r.To)
	if err != nil {
		return fmt.Errorf("rewind chain %s to block %s: %w", a.chainID, r.To, err)
	}
	batch := a.m.db.NewBatch()
	defer batch.Close() // no-op once committed
	if err := r.Stage(batch); err != nil {
		return fmt.Errorf("rewind chain %s to height %d: %w", a.chainID, r.Height, err)
	}
	removed := 0
	if a.indexed {
		t, ok := a.m.indexer.(Truncater)
		if !ok {
			return fmt.Errorf("rewind chain %s: its index cannot be truncated", a.chainID)
		}
		var err error
		if removed, err = t.Truncate(ctx, batch, a.chainID, r.FirstDropped); err != nil {
			return fmt.Errorf("rewind chain %s to height %d: %w", a.chainID, r.Height, err)
		}
	}
	if err := a.m.store.Wrap(batch).Put(lastAcceptedKey(a.chainID), encodePointer(r.To, r.Height)); err != nil {
		return fmt.Errorf("rewind chain %s to height %d: %w", a.chainID, r.Height, err)
	}
	if err := a.m.commit(batch); err != nil {
		return fmt.Errorf("rewind chain %s to height %d: %w", a.chainID, r.Height, err)
	}
	a.mu.Lock()
	a.lastID, a.height, a.lastTime = r.To, r.Height, to.Timestamp()
	a.mu.Unlock()
	a.log.Warn("chain rolled back: later blocks dropped, index truncated", "from", lastID.String(), "fromHeight", height,
		"to", r.To.String(), "height", r.Height, "indexEntriesRemoved", removed)
	return nil
}
