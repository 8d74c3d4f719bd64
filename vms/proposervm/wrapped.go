package proposervm

import (
	"context"
	"fmt"
	"time"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
)

// block is a wrapped block as the engine sees it: the proposervm block's ID, parent, time and
// bytes, the inner block's height, transactions and state changes.
type block struct {
	vm    *VM
	pb    *Block
	inner chains.Block
}

var (
	_ chains.Block    = (*block)(nil)
	_ chains.TxLister = (*block)(nil)
)

func (b *block) ID() ids.ID           { return b.pb.ID() }
func (b *block) Parent() ids.ID       { return b.pb.Parent }
func (b *block) Height() uint64       { return b.inner.Height() }
func (b *block) Timestamp() time.Time { return b.pb.Timestamp }
func (b *block) TxCount() int         { return b.inner.TxCount() }

// Bytes is the proposervm block's: what the engine gossips and the index holds.
func (b *block) Bytes() []byte { return b.pb.Bytes() }

// Txs lists the inner block's indexed transactions (the X-Chain's), if it has any.
func (b *block) Txs() []chains.Container {
	if l, ok := b.inner.(chains.TxLister); ok {
		return l.Txs()
	}
	return nil
}

// Verify checks the header against the parent (network-consensus-warp.md §2.8), then the inner
// block; on success the block is processing.
func (b *block) Verify(ctx context.Context) error {
	vm := b.vm
	parentBlk, err := vm.GetBlock(ctx, b.pb.Parent)
	if err != nil {
		return fmt.Errorf("parent of %s: %w", b.ID(), err)
	}
	if err := vm.verifyHeader(ctx, b.pb, b.inner, infoOf(parentBlk)); err != nil {
		return fmt.Errorf("block %s: %w", b.ID(), err)
	}
	if err := b.inner.Verify(ctx); err != nil {
		return err
	}
	vm.mu.Lock()
	vm.processing[b.ID()] = b
	vm.mu.Unlock()
	return nil
}

// verifyHeader applies the rules of §2.8 to pb, whose inner block is inner, as a child of
// parent.
func (vm *VM) verifyHeader(ctx context.Context, pb *Block, inner chains.Block, parent parentInfo) error {
	if inner.Parent() != parent.innerID {
		return fmt.Errorf("%w: %s, want %s", ErrInnerParentMismatch, inner.Parent(), parent.innerID)
	}
	if pb.PChainHeight < parent.pChainHeight {
		return fmt.Errorf("%w: %d < %d", ErrPChainHeightNotMonotonic, pb.PChainHeight, parent.pChainHeight)
	}
	current, err := vm.cfg.PChain.PChainHeight(ctx)
	if err != nil {
		return fmt.Errorf("P-Chain height: %w", err)
	}
	if pb.PChainHeight > current {
		return fmt.Errorf("%w: %d > %d", ErrPChainHeightNotReached, pb.PChainHeight, current)
	}
	if pb.Timestamp.Before(parent.timestamp) {
		return fmt.Errorf("%w: %s before the parent's %s", ErrTimeNotMonotonic, pb.Timestamp, parent.timestamp)
	}
	if limit := vm.cfg.Clock.Now().Add(MaxSkew); pb.Timestamp.After(limit) {
		return fmt.Errorf("%w: %s after %s", ErrTimeTooAdvanced, pb.Timestamp, limit)
	}
	if d := pb.Timestamp.Sub(parent.timestamp); d < vm.cfg.MinDelay {
		return fmt.Errorf("%w: %s after the parent, minimum %s", ErrBlockDelayTooShort, d, vm.cfg.MinDelay)
	}
	if want := NextEpoch(parent.pChainHeight, parent.epoch, parent.timestamp, vm.cfg.EpochDuration); !pb.Granite || pb.Epoch != want {
		return fmt.Errorf("%w: %+v, want %+v", ErrEpochMismatch, pb.Epoch, want)
	}
	w, err := vm.windower(ctx, parent)
	if err != nil {
		return err
	}
	if w.Empty() {
		if pb.Signed() {
			return fmt.Errorf("%w: signed by %s, but anyone can propose", ErrUnexpectedProposer, pb.Proposer())
		}
		return nil
	}
	slot := Slot(parent.timestamp, pb.Timestamp)
	want, err := w.ExpectedProposer(slot)
	if err != nil {
		return err
	}
	if !pb.Signed() || pb.Proposer() != want {
		return fmt.Errorf("%w: slot %d is %s's, block by %q", ErrUnexpectedProposer, slot, want, pb.Proposer())
	}
	return nil
}

// Accept stages the inner block's changes and the layer's records of the block into batch.
func (b *block) Accept(ctx context.Context, batch *storage.Batch) error {
	if err := b.inner.Accept(ctx, batch); err != nil {
		return err
	}
	id, innerID := b.ID(), b.inner.ID()
	w := b.vm.db.Wrap(batch)
	record := make([]byte, 0, 32+len(b.pb.Bytes()))
	record = append(append(record, innerID[:]...), b.pb.Bytes()...)
	for _, kv := range [][2][]byte{
		{blockKey(id), record},
		{heightKey(b.Height()), id[:]},
		{lastKey, id[:]},
	} {
		if err := w.Put(kv[0], kv[1]); err != nil {
			return fmt.Errorf("record block %s: %w", id, err)
		}
	}
	return nil
}

// Reject drops the block and rejects its inner block.
func (b *block) Reject(ctx context.Context) error {
	b.vm.mu.Lock()
	delete(b.vm.processing, b.ID())
	if b.vm.preferred == b.ID() {
		b.vm.preferred = ids.Empty
	}
	b.vm.mu.Unlock()
	return b.inner.Reject(ctx)
}
