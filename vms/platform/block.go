package platform

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
	"github.com/cornice-node/cornice/vms/components/utxo"
	"github.com/cornice-node/cornice/vms/internal/chainstate"
	"github.com/cornice-node/cornice/vms/internal/mempool"
	"github.com/cornice-node/cornice/vms/internal/processing"
	"github.com/cornice-node/cornice/vms/platform/txs"
)

// MaxFutureBlockTime is how far ahead of the node's clock a block's time may be: the reference's
// sync bound (reference/platform-exchange.md §4.1).
const MaxFutureBlockTime = 10 * time.Second

// verifyTx checks tx for inclusion on src at chain time now and gas price: not twice in seen
// (the block's txs so far, recorded here), syntactic checks, its warp message's signature at
// at (l1warp.go), semantic checks, and not in known already (committed,
// or in a processing ancestor).
func (vm *VM) verifyTx(tx *txs.Tx, src utxoSource, known chainView, now, price, accrued uint64, at warpAt, seen map[ids.ID]struct{}) (*effects, error) {
	if _, dup := seen[tx.ID()]; dup {
		return nil, mempool.ErrDuplicateTx
	}
	seen[tx.ID()] = struct{}{}
	if err := vm.rules.syntactic(tx); err != nil {
		return nil, err
	}
	if err := vm.verifyWarp(tx, at); err != nil {
		return nil, err
	}
	eff, err := vm.rules.semantic(tx, src, now, price, accrued)
	if errors.Is(err, mempool.ErrConflictsWithOtherTx) {
		return nil, err // a mempool conflict, not a failed execution (issueError)
	}
	if err != nil {
		// A committed tx issued again fails here, on its spent inputs, as in the reference.
		return nil, executionError(tx.ID(), err)
	}
	// Only a tx that spends nothing gets this far twice, and only such a tx is looked up.
	if err := mempool.NotKnown(known, eff); err != nil {
		return nil, err
	}
	return eff, nil
}

// maxEvictionWait bounds how far ahead nextEviction looks, in seconds.
const maxEvictionWait = 1 << 32

// nextEviction returns the chain time at which the first active L1 validator of view, whose
// fee state is parent, runs out of balance; ok is false when none is active (§4.7).
func (vm *VM) nextEviction(view chainView, parent feeState) (t uint64, ok bool, err error) {
	active, err := view.activeL1Validators()
	if err != nil || len(active) == 0 {
		return 0, false, err
	}
	if active[0].endFee <= parent.accrued {
		return parent.time, true, nil
	}
	s := vm.rules.validatorFees.secondsUntil(uint64(len(active)), parent.validatorExcess,
		active[0].endFee-parent.accrued, maxEvictionWait)
	return satAdd(parent.time, s), true, nil
}

// advance returns the fee state parent (view's) advanced to time t ≥ parent.time:
// the dynamic fee state (§4.8) and the continuous fee, which every active L1 validator pays for
// each second; and the active validators that ran out by then, deactivated (§4.7).
func (vm *VM) advance(view chainView, parent feeState, t uint64) (feeState, []*l1Validator, error) {
	fees := parent.advance(&vm.rules.fees, t)
	if t <= parent.time {
		return fees, nil, nil
	}
	active, err := view.activeL1Validators()
	if err != nil {
		return fees, nil, err
	}
	cost, excess := vm.rules.validatorFees.cost(uint64(len(active)), parent.validatorExcess, t-parent.time)
	fees.validatorExcess = excess
	fees.accrued = satAdd(parent.accrued, cost)
	var evicted []*l1Validator
	for _, a := range active {
		if a.endFee > fees.accrued {
			break
		}
		v, found, err := view.l1Validator(a.validationID)
		switch {
		case err != nil:
			return fees, nil, err
		case !found:
			return fees, nil, fmt.Errorf("platform: active L1 validator %s is missing", a.validationID)
		}
		v.endFee = 0
		evicted = append(evicted, v)
	}
	return fees, evicted, nil
}

// chainBlock is a P-Chain block as the acceptance pipeline sees it. It is used by the pipeline
// goroutine only, and is immutable once accepted.
type chainBlock struct {
	vm  *VM
	blk txs.Block
	// Verified holds the effects of the block's txs, and fees the fee state after the block,
	// once verified (the builder verifies the blocks it builds). For an accepted block loaded
	// from the state only fees is set, and only for the last one.
	processing.Verified[*effects]
	// evicted are the L1 validators that ran out of balance by the block's time, deactivated
	// (§4.7), once verified.
	evicted []*l1Validator
	// decision is what an option block changes, once verified (proposal.go).
	decision *effects
	fees     feeState
	// built is the builder's overlay of a built block until it is verified.
	built *overlay
}

var _ chains.Block = (*chainBlock)(nil)

// ID implements chains.Block: sha256 of the block bytes.
func (b *chainBlock) ID() ids.ID { return b.blk.ID() }

// Parent implements chains.Block.
func (b *chainBlock) Parent() ids.ID { return b.blk.Parent() }

// Height implements chains.Block.
func (b *chainBlock) Height() uint64 { return b.blk.Height() }

// TxCount is the number of transactions in the block (none in the genesis), for the node's log
// line of each accepted block.
func (b *chainBlock) TxCount() int { return len(b.blk.Txs()) }

// Timestamp implements chains.Block: the block's time; the genesis block, which has none, is at
// the genesis time.
func (b *chainBlock) Timestamp() time.Time {
	if tb, ok := b.blk.(timed); ok {
		return time.Unix(int64(tb.Time()), 0).UTC()
	}
	return time.Unix(int64(b.vm.validator.start), 0).UTC()
}

// Bytes implements chains.Block. The caller must not modify them.
func (b *chainBlock) Bytes() []byte { return b.blk.Bytes() }

// Verify implements chains.Block: a block that extends the last accepted block or a processing
// one by one height, at a time no earlier than its parent's, at most MaxFutureBlockTime ahead of
// the node's clock, and no later than the next L1 validator eviction or staker end (§4.1, §4.7);
// a proposal block's child must be one of its options and only they follow one (proposal.go).
func (b *chainBlock) Verify(ctx context.Context) error {
	vm := b.vm
	blk := b.blk
	tb, ok := blk.(timed)
	if !ok {
		return fmt.Errorf("%w: %T", txs.ErrWrongBlockType, blk)
	}
	parent, view, err := vm.VerifyParent(b)
	if err != nil {
		return err
	}
	now := vm.clock.Now()
	switch {
	case tb.Time() < parent.fees.time || tb.Time() > uint64(now.Add(MaxFutureBlockTime).Unix()):
		return fmt.Errorf("%w: %d, parent %d, now %d", ErrBlockTime, tb.Time(), parent.fees.time, now.Unix())
	}
	_, afterProposal := parent.blk.(*txs.ProposalBlock)
	switch blk := blk.(type) {
	case *txs.CommitBlock:
		return b.verifyOption(blk.Time(), true, parent, view)
	case *txs.AbortBlock:
		return b.verifyOption(blk.Time(), false, parent, view)
	case *txs.ProposalBlock:
		if afterProposal {
			return fmt.Errorf("%w: proposal block on proposal block %s", ErrOptionParent, parent.ID())
		}
		return b.verifyProposal(blk, parent, view)
	case *txs.StandardBlock:
		if afterProposal {
			return fmt.Errorf("%w: standard block on proposal block %s", ErrOptionParent, parent.ID())
		}
		return b.verifyStandard(ctx, blk, parent, view)
	}
	return fmt.Errorf("%w: %T", txs.ErrWrongBlockType, blk)
}

// verifyStandard verifies a Banff standard block on parent, whose view is view, with at least
// one tx unless it deactivates validators that ran out (§4.1, §4.7). The fee state is advanced to
// the block's time, the continuous fee charged and the validators that ran out deactivated; every
// tx is verified in order on the UTXOs the earlier ones leave (so a UTXO is spent at most once in
// a block and across blocks) and pays gas × the advanced state's price, and the block's gas must
// fit the capacity (§4.8).
func (b *chainBlock) verifyStandard(ctx context.Context, sb *txs.StandardBlock, parent *chainBlock, view chainView) error {
	vm := b.vm
	if end, ok, err := nextStakerEnd(view); err != nil {
		return err
	} else if ok && sb.Time() > end {
		return fmt.Errorf("%w: %d, after the next staker end at %d", ErrBlockTime, sb.Time(), end)
	}
	if b.built != nil && b.VerifiedOn(parent.ID()) {
		// Built on parent, and verified by the builder.
		vm.processed(b, view, b.built)
		b.built = nil
		return nil
	}
	if next, ok, err := vm.nextEviction(view, parent.fees); err != nil {
		return err
	} else if ok && sb.Time() > next {
		return fmt.Errorf("%w: %d, after the next L1 validator eviction at %d", ErrBlockTime, sb.Time(), next)
	}
	fees, evicted, err := vm.advance(view, parent.fees, sb.Time())
	if err != nil {
		return err
	}
	if len(sb.Txs()) == 0 && len(evicted) == 0 {
		return ErrNoTxs
	}
	price := fees.price(&vm.rules.fees)
	ov := newOverlay(view)
	ov.Apply(&effects{l1Validators: evicted})
	seen := make(map[ids.ID]struct{}, len(sb.Txs()))
	at := warpAt{s: vm.accepted, height: min(parent.Height(), vm.Last().Height())}
	var gas uint64
	effs, err := processing.VerifyTxs(ctx, sb.Txs(), func(tx *txs.Tx) (*effects, error) {
		return vm.verifyTx(tx, ov, view, sb.Time(), price, fees.accrued, at, seen)
	}, func(eff *effects) {
		ov.Apply(eff)
		gas = satAdd(gas, eff.gas)
	})
	if err != nil {
		return err
	}
	after, ok := fees.consume(gas)
	if !ok {
		return fmt.Errorf("%w: block gas %d > capacity %d", ErrInsufficientCapacity, gas, fees.capacity)
	}
	b.Effs, b.On, b.evicted, b.fees = effs, parent.ID(), evicted, after
	vm.processed(b, view, ov)
	return nil
}

// Accept implements chains.Block: it stages the block's txs (and the subnets, chains and stakers
// they create), the UTXOs they spend (deleted) and create (written, unless a later tx of the block
// spends them), what they export to and import from shared memory, an option block's decision,
// the block itself and the fee state after it into batch.
func (b *chainBlock) Accept(ctx context.Context, batch *storage.Batch) error {
	if err := b.EnsureVerified(ctx, b.blk.Parent(), b.Verify); err != nil {
		return err
	}
	w := writer{b: b.vm.accepted.DB().Wrap(batch), s: b.vm.accepted, written: make(map[ids.ID]*l1Validator), height: b.Height()}
	for _, v := range b.evicted {
		if err := w.putL1Validator(v); err != nil {
			return err
		}
	}
	if b.decision != nil {
		if err := b.acceptDecision(w); err != nil {
			return err
		}
	}
	if err := w.putStakers(b.vm.accepted, b.Effs); err != nil {
		return err
	}
	var blockTxs []*txs.Tx
	if sb, ok := b.blk.(*txs.StandardBlock); ok {
		blockTxs = sb.Txs() // a proposal's tx is written by its option block
	}
	for i, tx := range blockTxs {
		if err := w.putTx(tx); err != nil {
			return err
		}
		if err := w.putL1(b.Effs[i]); err != nil {
			return err
		}
		if err := w.removeSubnetValidators(b.Effs[i]); err != nil {
			return err
		}
	}
	utxoEffs := make([]*utxo.Effects[txs.UTXO, *txs.UTXO], len(b.Effs))
	for i, eff := range b.Effs {
		utxoEffs[i] = &eff.Effects
	}
	deleted, written := utxo.Diff(utxoEffs)
	if err := chainstate.StageUTXOs(batch, b.vm.state.Shared(), deleted, written, w.deleteUTXO, w.putUTXO, atomicRequests(b.Effs)); err != nil {
		return err
	}
	if err := w.pruneExpiries(b.fees.time); err != nil {
		return fmt.Errorf("prune expired registrations: %w", err)
	}
	return w.putBlock(b.blk, b.fees)
}
