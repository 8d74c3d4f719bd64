package exchange

import (
	"context"
	"fmt"
	"time"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
	"github.com/cornice-node/cornice/vms/components/utxo"
	"github.com/cornice-node/cornice/vms/exchange/txs"
	"github.com/cornice-node/cornice/vms/internal/chainstate"
	"github.com/cornice-node/cornice/vms/internal/mempool"
	"github.com/cornice-node/cornice/vms/internal/processing"
)

// MaxFutureBlockTime is how far ahead of the node's clock a block's time may be (§6.1).
const MaxFutureBlockTime = 10 * time.Second

// Block is a StandardBlock as the acceptance pipeline sees it: a chains.Block, and a
// chains.TxLister for the X-Chain's tx index. It is used by the pipeline goroutine only.
type Block struct {
	vm  *VM
	blk *txs.StandardBlock
	// Verified holds the effects of the block's txs once verified (the builder verifies the
	// blocks it builds).
	processing.Verified[*effects]
	// built is the builder's overlay of a built block until it is verified.
	built *overlay
}

var (
	_ chains.Block    = (*Block)(nil)
	_ chains.TxLister = (*Block)(nil)
)

// ID implements chains.Block: sha256 of the block bytes.
func (b *Block) ID() ids.ID { return b.blk.ID() }

// Parent implements chains.Block.
func (b *Block) Parent() ids.ID { return b.blk.Parent() }

// Height implements chains.Block.
func (b *Block) Height() uint64 { return b.blk.Height() }

// TxCount is the number of transactions in the block, for the node's log line of each
// accepted block.
func (b *Block) TxCount() int { return len(b.blk.Txs()) }

// Timestamp implements chains.Block: the block's time, in whole seconds.
func (b *Block) Timestamp() time.Time { return time.Unix(int64(b.blk.Time()), 0).UTC() }

// Bytes implements chains.Block. The caller must not modify them.
func (b *Block) Bytes() []byte { return b.blk.Bytes() }

// Standard returns the block's wire form.
func (b *Block) Standard() *txs.StandardBlock { return b.blk }

// Txs implements chains.TxLister: the block's txs in order, with their signed bytes.
func (b *Block) Txs() []chains.Container {
	txs := b.blk.Txs()
	out := make([]chains.Container, len(txs))
	for i, tx := range txs {
		out[i] = chains.Container{ID: tx.ID(), Bytes: tx.Bytes()}
	}
	return out
}

// Verify implements chains.Block: the block extends the last accepted block or a processing one
// by one height, at a
// time no earlier than its parent's and at most MaxFutureBlockTime ahead, with an empty merkle
// root and at least one tx (§6.1); then every tx is verified in order, each on the UTXOs the
// earlier ones leave, so a UTXO is spent at most once in a block and across blocks.
func (b *Block) Verify(ctx context.Context) error {
	vm := b.vm
	blk := b.blk
	parent, view, err := vm.VerifyParent(b)
	if err != nil {
		return err
	}
	now := vm.clock.Now()
	switch {
	case blk.MerkleRoot() != ids.Empty:
		return ErrMerkleRoot
	case len(blk.Txs()) == 0:
		return ErrNoTxs
	case blk.Time() < parent.blk.Time() || blk.Time() > uint64(now.Add(MaxFutureBlockTime).Unix()):
		return fmt.Errorf("%w: %d, parent %d, now %d", ErrBlockTime, blk.Time(), parent.blk.Time(), now.Unix())
	}
	if b.built != nil && b.VerifiedOn(parent.ID()) {
		// Built on parent, and verified by the builder.
		vm.processed(b, view, b.built)
		b.built = nil
		return nil
	}
	ov := newOverlay(view)
	seen := make(map[ids.ID]struct{}, len(blk.Txs()))
	effs, err := processing.VerifyTxs(ctx, blk.Txs(), func(tx *txs.Tx) (*effects, error) {
		return vm.verifyTx(tx, ov, view, blk.Time(), seen)
	}, ov.Apply)
	if err != nil {
		return err
	}
	b.Effs, b.On = effs, parent.ID()
	vm.processed(b, view, ov)
	return nil
}

// Accept implements chains.Block: it stages the block's txs, the UTXOs they spend (deleted) and
// create (written, unless a later tx of the block spends them), what they export to and import
// from shared memory, and the block itself into batch.
func (b *Block) Accept(ctx context.Context, batch *storage.Batch) error {
	if err := b.EnsureVerified(ctx, b.blk.Parent(), b.Verify); err != nil {
		return err
	}
	w := writer{b: b.vm.state.DB().Wrap(batch)}
	for _, tx := range b.blk.Txs() {
		if err := w.putTx(tx); err != nil {
			return err
		}
	}
	requests, err := atomicRequests(b.blk.Txs())
	if err != nil {
		return err
	}
	deleted, written := utxo.Diff(b.Effs)
	if err := chainstate.StageUTXOs(batch, b.vm.state.Shared(), deleted, written, w.deleteUTXO, w.putUTXO, requests); err != nil {
		return err
	}
	return w.putBlock(b.blk)
}

// verifyTx checks tx for inclusion on src at chain time now: not twice in seen (the block's txs
// so far, recorded here), syntactic and semantic checks, and not in known already (accepted, or
// in a processing ancestor).
func (vm *VM) verifyTx(tx *txs.Tx, src utxoSource, known chainView, now uint64, seen map[ids.ID]struct{}) (*effects, error) {
	if _, dup := seen[tx.ID()]; dup {
		return nil, mempool.ErrDuplicateTx
	}
	seen[tx.ID()] = struct{}{}
	kind, err := vm.rules.syntactic(tx)
	if err != nil {
		return nil, err
	}
	eff, err := vm.rules.semantic(tx, kind, src, now)
	if err != nil {
		// An accepted tx issued again fails here, on its spent inputs, as in the reference
		// (§6.5).
		return nil, err
	}
	// Only a tx that spends nothing (possible only without fees) gets this far twice, and only
	// such a tx is looked up.
	if err := mempool.NotKnown(known, eff); err != nil {
		return nil, err
	}
	return eff, nil
}
