package chains

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/cornice-node/cornice/ids"
)

// Acceptor is one chain's accept path: the only place that writes an accepted block. Whatever
// engine decided the block (solo, the bootstrapper, consensus), Accept writes the block's VM
// state, its index entries and the chain's last-accepted pointer in one batch, commits it, then
// tells the VM and the subscribers, in height order. A crash therefore leaves the whole block or
// none of it.
//
// A failed acceptance halts the chain for good (until a restart): it is logged at Error, the
// chain's health check fails with it, and every later Accept fails with ErrHalted.
//
// Accept is called by the chain's engine goroutine; LastAccepted and status are safe for
// concurrent use.
type Acceptor struct {
	m       *Manager
	chainID ids.ID
	vm      VM
	// indexed tells whether the manager's Indexer gets the chain's blocks.
	indexed bool
	log     *slog.Logger

	mu sync.Mutex // guards the fields below, written by Accept and halt only
	// lastID and height name the last block whose batch is committed.
	// Invariant: they equal the chain's stored last-accepted pointer, or
	// the VM's genesis block when there is none.
	lastID ids.ID
	height uint64
	// lastTime is that block's timestamp.
	lastTime time.Time
	// halted is why the chain stopped accepting, nil while it accepts.
	halted error
}

// LastAccepted returns the ID and height of the last block whose batch is committed.
func (a *Acceptor) LastAccepted() (ids.ID, uint64) {
	id, height, _ := a.status()
	return id, height
}

// LastAcceptedTime returns the timestamp of the last block whose batch is committed.
func (a *Acceptor) LastAcceptedTime() time.Time {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.lastTime
}

// status returns the last accepted block and why the chain halted.
func (a *Acceptor) status() (ids.ID, uint64, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.lastID, a.height, a.halted
}

// Accept accepts blk, which must extend the last accepted block by one height and have been
// verified: it writes blk's changes, its index entries and the chain's new last-accepted
// pointer in one batch, commits it, then calls VM.Accepted and the subscribers. ctx's
// cancellation is ignored: a commit is never cancelled halfway (STYLE.md rule 5).
//
// If it fails before the commit, nothing of blk is written; after the commit, blk is accepted
// on disk and only the VM's memory may lag (VM.Accepted failed), which a restart repairs.
// Either way the chain halts and the error, which wraps ErrHalted, is returned.
func (a *Acceptor) Accept(ctx context.Context, blk Block) error {
	return a.acceptWith(ctx, blk, true)
}

// AcceptUnsynced is Accept without waiting for the block's batch to reach the disk
// (storage.Batch.CommitUnsynced): the block is accepted, in memory and for readers, at once; a
// crash may lose it and the unsynced blocks accepted after it, never part of one, nor any block
// accepted before the last Sync or synced Accept, so the chain restarts from an earlier last
// accepted block, whole. It is for the blocks a bootstrapping chain executes, which its peers
// have accepted already and which a restart fetches again (docs/decisions.md); Sync makes them
// durable.
func (a *Acceptor) AcceptUnsynced(ctx context.Context, blk Block) error {
	return a.acceptWith(ctx, blk, false)
}

// Sync waits until every block accepted so far is on disk.
func (a *Acceptor) Sync() error {
	if err := a.m.db.Sync(); err != nil {
		return fmt.Errorf("sync accepted blocks: %w", err)
	}
	return nil
}

// acceptWith is Accept, waiting for the block's batch to reach the disk if synced.
func (a *Acceptor) acceptWith(ctx context.Context, blk Block, synced bool) error {
	lastID, height, halted := a.status()
	if halted != nil {
		return fmt.Errorf("%w: %w", ErrHalted, halted)
	}
	var err error
	if blk.Parent() != lastID || blk.Height() != height+1 {
		err = blockOrderError(blk.ID(), blk.Parent(), blk.Height(), lastID, height)
	} else {
		err = a.accept(context.WithoutCancel(ctx), blk, synced)
	}
	if err != nil {
		a.halt(err)
		return fmt.Errorf("%w: %w", ErrHalted, err)
	}
	return nil
}

// accept does Accept's work for a block in order.
func (a *Acceptor) accept(ctx context.Context, blk Block, synced bool) error {
	blkID, height := blk.ID(), blk.Height()
	batch := a.m.db.NewBatch()
	defer batch.Close() // no-op once committed

	if err := blk.Accept(ctx, batch); err != nil {
		return fmt.Errorf("accept block %s at height %d: %w", blkID, height, err)
	}
	var txs []Container
	if a.indexed {
		if l, ok := blk.(TxLister); ok {
			txs = l.Txs()
		}
		c := Container{ID: blkID, Bytes: blk.Bytes()}
		if err := a.m.indexer.Accept(ctx, batch, a.chainID, c, txs); err != nil {
			return fmt.Errorf("index block %s at height %d: %w", blkID, height, err)
		}
	}
	if err := a.m.store.Wrap(batch).Put(lastAcceptedKey(a.chainID), encodePointer(blkID, height)); err != nil {
		return fmt.Errorf("record last accepted block %s at height %d: %w", blkID, height, err)
	}
	if err := a.m.commit(batch, synced); err != nil {
		return fmt.Errorf("commit block %s at height %d: %w", blkID, height, err)
	}

	a.mu.Lock()
	a.lastID, a.height, a.lastTime = blkID, height, blk.Timestamp()
	a.mu.Unlock()
	if a.log.Enabled(ctx, slog.LevelInfo) {
		// One line per block at info, so that a user sees the chain move; a block holds many
		// transactions under load, so the line is per block, not per transaction.
		a.log.Info("block accepted", "height", height, "blockID", blkID.String(), "txs", blk.TxCount(),
			"time", blk.Timestamp().UTC().Format(time.RFC3339))
	}

	// The block is on disk: subscribers hear of it even if the VM fails
	// to take it in, which halts the chain.
	vmErr := a.vm.Accepted(ctx, blk)
	for _, s := range a.m.subscribers(a.chainID) {
		if !s.off.Load() {
			s.fn(blk)
		}
	}
	if vmErr != nil {
		return fmt.Errorf("VM accepted block %s at height %d: %w", blkID, height, vmErr)
	}
	return nil
}

// halt stops the chain's acceptance for good (until a restart): err is logged for the operator
// and reported by the chain's health check. Only the first error is kept.
func (a *Acceptor) halt(err error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.halted != nil {
		return
	}
	a.halted = err
	a.log.Error("chain halted: no more blocks are accepted until the node restarts", "err", err)
}
