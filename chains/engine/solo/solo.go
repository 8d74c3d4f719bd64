// Package solo is the engine of a chain whose validator weight this node holds alone: it
// builds a block the moment the VM has work, verifies it and accepts it at once, since no other
// validator needs to be asked (DESIGN.md decision 5; reference/network-consensus-warp.md §2.7).
//
// An Engine runs on one goroutine, its Run's; the VM's WorkReady is the only other thing it
// listens to.
package solo

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/clock"
)

// VM is what solo needs of a chain's VM: a builder.
type VM = chains.Builder

// Acceptor is the chain's accept path (*chains.Acceptor).
type Acceptor interface {
	Accept(ctx context.Context, blk chains.Block) error
	AcceptUnsynced(ctx context.Context, blk chains.Block) error
}

// SyncDeferrer is implemented by a block that may be accepted without waiting for its batch to
// reach the disk (Acceptor.AcceptUnsynced) when DeferSync says so: a block of a developer's
// request to mine many, whose answer waits for the request's last block, accepted with a sync
// that makes every block before it durable too (Pebble's log is synced in order). A crash
// before that loses a suffix of the request's blocks, never part of one, and never a block
// anyone was answered for; readers may see such a block before it is durable.
type SyncDeferrer interface {
	DeferSync() bool
}

// Engine is one chain's solo engine.
type Engine struct {
	vm       VM
	acceptor Acceptor
	setState func(chains.State) error
	gap      time.Duration
	clock    clock.Clock
	log      *slog.Logger

	// lastAt is when the last block was accepted, zero before the first one of this run. Used by
	// the Run goroutine only.
	lastAt time.Time
}

var _ chains.Engine = (*Engine)(nil)

// New returns the solo engine of chain c.
func New(c chains.EngineContext) *Engine {
	return &Engine{
		vm:       c.VM,
		acceptor: c.Acceptor,
		setState: c.SetState,
		gap:      c.MinBlockGap,
		clock:    c.Clock,
		log:      c.Log,
	}
}

// Factory makes solo engines for every chain, whatever its validators: for tests and tools
// that run chains without a node (the node's factory is package engine's).
type Factory struct{}

var _ chains.EngineFactory = Factory{}

// NewEngine implements chains.EngineFactory.
func (Factory) NewEngine(_ context.Context, c chains.EngineContext) (chains.Engine, error) {
	return New(c), nil
}

// Start implements chains.Engine: with no other validator there is nothing to catch up, so the
// chain goes through Bootstrapping to NormalOperation at once (§3.1 "No beacons").
func (e *Engine) Start(context.Context) error {
	for _, s := range []chains.State{chains.Bootstrapping, chains.NormalOperation} {
		if err := e.setState(s); err != nil {
			return fmt.Errorf("enter %s: %w", s, err)
		}
	}
	return nil
}

// Run implements chains.Engine: it builds and accepts blocks whenever the VM signals work, until
// ctx is done or an acceptance fails.
func (e *Engine) Run(ctx context.Context) error {
	work := e.vm.WorkReady()
	// Work may have been pending before the engine started.
	for {
		if err := e.buildAll(ctx); err != nil || ctx.Err() != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return nil
		case <-work:
		}
	}
}

// buildAll builds and accepts blocks until the VM has no more work or ctx is done. It returns
// the error that stops the chain.
func (e *Engine) buildAll(ctx context.Context) error {
	for {
		if !e.waitGap(ctx) {
			return nil
		}
		blk, err := e.vm.BuildBlock(ctx)
		switch {
		case ctx.Err() != nil:
			return nil
		case errors.Is(err, chains.ErrNoWork):
			return nil
		case err != nil:
			// The work stays with the VM; it signals again when it wants another try.
			e.log.Warn("block building failed", "err", err)
			return nil
		}
		if err := blk.Verify(ctx); err != nil {
			if ctx.Err() != nil {
				return nil
			}
			// Building again at once would give the same block: wait for the VM's next signal.
			e.log.Warn("built block failed verification, dropped",
				"blockID", blk.ID().String(), "height", blk.Height(), "err", err)
			return nil
		}
		// The block is decided the moment it is verified: no one else votes.
		if err := e.vm.SetPreference(ctx, blk.ID()); err != nil {
			return fmt.Errorf("prefer block %s: %w", blk.ID(), err)
		}
		accept := e.acceptor.Accept
		if d, ok := blk.(SyncDeferrer); ok && d.DeferSync() {
			accept = e.acceptor.AcceptUnsynced
		}
		if err := accept(ctx, blk); err != nil {
			return err
		}
		e.lastAt = e.clock.Now()
	}
}

// waitGap waits until the chain's minimum block gap has passed since the last accepted block;
// false if ctx is done first.
func (e *Engine) waitGap(ctx context.Context) bool {
	if e.gap <= 0 || e.lastAt.IsZero() {
		return ctx.Err() == nil
	}
	wait := e.lastAt.Add(e.gap).Sub(e.clock.Now())
	if wait <= 0 {
		return ctx.Err() == nil
	}
	t := e.clock.NewTimer(wait)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
