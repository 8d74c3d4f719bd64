package chains

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/cornice-node/cornice/ids"
)

// pipeline is one chain's acceptance pipeline: a goroutine that builds,
// verifies and accepts the chain's blocks, one at a time, in height order.
type pipeline struct {
	m       *Manager
	chainID ids.ID
	vm      VM
	gap     time.Duration
	indexed bool
	log     *slog.Logger
	// cancel stops run; set before run starts.
	cancel context.CancelFunc

	// lastAt is when the last block was accepted, zero before the first
	// one of this run. Used by the run goroutine only.
	lastAt time.Time

	mu sync.Mutex // guards the fields below, written by run only
	// lastID and height name the last block whose batch is committed.
	// Invariant: they equal the chain's stored last-accepted pointer, or
	// the VM's genesis block when there is none.
	lastID ids.ID
	height uint64
	// halted is why the pipeline stopped accepting, nil while it runs.
	halted error
}

// status returns the last accepted block and why the pipeline halted.
func (p *pipeline) status() (ids.ID, uint64, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.lastID, p.height, p.halted
}

// run builds and accepts blocks whenever the VM signals work, until ctx is
// done or an acceptance fails.
func (p *pipeline) run(ctx context.Context) {
	work := p.vm.WorkReady()
	// Work may have been pending before the pipeline started.
	for p.buildAll(ctx) {
		select {
		case <-ctx.Done():
			return
		case <-work:
		}
	}
}

// buildAll builds and accepts blocks until the VM has no more work. It
// returns false when the pipeline must stop: ctx is done, or the chain
// halted.
func (p *pipeline) buildAll(ctx context.Context) bool {
	for {
		if !p.waitGap(ctx) {
			return false
		}
		blk, err := p.vm.BuildBlock(ctx)
		switch {
		case ctx.Err() != nil:
			return false
		case errors.Is(err, ErrNoWork):
			return true
		case err != nil:
			// The work stays with the VM; it signals again when it wants
			// another try.
			p.log.Warn("block building failed", "err", err)
			return true
		}
		lastID, height, _ := p.status()
		if blk.Parent() != lastID || blk.Height() != height+1 {
			p.halt(blockOrderError(blk.ID(), blk.Parent(), blk.Height(), lastID, height))
			return false
		}
		if err := blk.Verify(ctx); err != nil {
			if ctx.Err() != nil {
				return false
			}
			// Building again at once would give the same block: wait for
			// the VM's next signal.
			p.log.Warn("built block failed verification, dropped",
				"blockID", blk.ID().String(), "height", blk.Height(), "err", err)
			return true
		}
		// From here on the block is accepted whole, even if Close cancels
		// ctx: a commit is never cancelled halfway (STYLE.md rule 5).
		if err := p.accept(context.WithoutCancel(ctx), blk); err != nil {
			p.halt(err)
			return false
		}
	}
}

// waitGap waits until the chain's minimum block gap has passed since the
// last accepted block; false if ctx is done first.
func (p *pipeline) waitGap(ctx context.Context) bool {
	if p.gap <= 0 || p.lastAt.IsZero() {
		return ctx.Err() == nil
	}
	wait := p.lastAt.Add(p.gap).Sub(p.m.clock.Now())
	if wait <= 0 {
		return ctx.Err() == nil
	}
	t := p.m.clock.NewTimer(wait)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// txCounter is a block that says how many transactions it holds, for its log line; a block that
// is not one counts its indexed transactions.
type txCounter interface{ TxCount() int }

// accept writes blk's changes, its index entries and the chain's new
// last-accepted pointer in one batch, commits it, then tells the VM and
// the subscribers. If it fails before the commit, nothing of blk is
// written; after the commit, blk is accepted on disk and only the VM's
// memory may lag (VM.Accepted failed), which a restart repairs.
func (p *pipeline) accept(ctx context.Context, blk Block) error {
	blkID, height := blk.ID(), blk.Height()
	batch := p.m.db.NewBatch()
	defer batch.Close() // no-op once committed

	if err := blk.Accept(ctx, batch); err != nil {
		return fmt.Errorf("accept block %s at height %d: %w", blkID, height, err)
	}
	var txs []Container
	if p.indexed {
		if l, ok := blk.(TxLister); ok {
			txs = l.Txs()
		}
		c := Container{ID: blkID, Bytes: blk.Bytes()}
		if err := p.m.acceptor.Accept(ctx, batch, p.chainID, c, txs); err != nil {
			return fmt.Errorf("index block %s at height %d: %w", blkID, height, err)
		}
	}
	if err := p.m.store.Wrap(batch).Put(lastAcceptedKey(p.chainID), encodePointer(blkID, height)); err != nil {
		return fmt.Errorf("record last accepted block %s at height %d: %w", blkID, height, err)
	}
	if err := p.m.commit(batch); err != nil {
		return fmt.Errorf("commit block %s at height %d: %w", blkID, height, err)
	}

	p.mu.Lock()
	p.lastID, p.height = blkID, height
	p.mu.Unlock()
	p.lastAt = p.m.clock.Now()
	if p.log.Enabled(ctx, slog.LevelInfo) {
		// One line per block at info, so that a user sees the chain move; a block holds many
		// transactions under load, so this costs little (docs/benchmarks.md).
		n := len(txs)
		if c, ok := blk.(txCounter); ok {
			n = c.TxCount()
		}
		p.log.Info("block accepted", "height", height, "blockID", blkID.String(), "txs", n,
			"time", blk.Timestamp().UTC().Format(time.RFC3339))
	}

	// The block is on disk: subscribers hear of it even if the VM fails
	// to take it in, which halts the chain.
	vmErr := p.vm.Accepted(ctx, blk)
	for _, s := range p.m.subscribers(p.chainID) {
		if !s.off.Load() {
			s.fn(blk)
		}
	}
	if vmErr != nil {
		return fmt.Errorf("VM accepted block %s at height %d: %w", blkID, height, vmErr)
	}
	return nil
}

// halt stops the chain's acceptance for good (until a restart): err is
// logged for the operator and reported by the chain's health check.
func (p *pipeline) halt(err error) {
	p.mu.Lock()
	p.halted = err
	p.mu.Unlock()
	p.log.Error("chain halted: no more blocks are accepted until the node restarts", "err", err)
}
