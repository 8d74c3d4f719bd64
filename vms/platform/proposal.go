package platform

import (
	"errors"
	"fmt"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/internal/chainstate"
	"github.com/cornice-node/cornice/vms/platform/txs"
)

// Staker rewards (§4.1, §4.10). When chain time reaches the end of the first staker to leave,
// the builder makes a BanffProposalBlock at that time holding a RewardValidatorTx for it, and
// then, on it, the option block: a BanffCommitBlock if the staker's validator was up at least
// UptimeRequirement of the time (this node counts itself always up), otherwise a
// BanffAbortBlock. The reference's consensus decides between the two options of a processing
// proposal block; on cornice the proposal block is accepted on its own (it changes what any
// standard block at its time changes: the fees and the L1 validators that ran out) and the
// option block after it makes the decision's changes (rewardEffects). The outcome, the stored
// blocks and their bytes are the reference's. No block may pass a staker's end time before its
// proposal is decided, so a standard block's time is capped at the next end.

// Proposal errors.
var (
	// ErrRemoveWrongStaker refuses a proposal rewarding a staker that is not the first to
	// leave.
	ErrRemoveWrongStaker = errors.New("attempting to remove a staker that is not the next staker to remove")
	// ErrRemoveStakerTooEarly refuses a proposal before (or after) its staker's end time.
	ErrRemoveStakerTooEarly = errors.New("attempting to remove staker before their end time")
	// ErrOptionParent refuses an option block whose parent is not a proposal block, and a block
	// other than an option on a proposal block.
	ErrOptionParent = errors.New("an option block must follow a proposal block, and only it")
)

// timed is a block with a time: every block but the genesis.
type timed interface{ Time() uint64 }

// nextStakerEnd returns the end time of the first staker of view to leave; ok is false when
// there is none.
func nextStakerEnd(view stakerSource) (end uint64, ok bool, err error) {
	first, err := view.firstStakers(1)
	if err != nil || len(first) == 0 {
		return 0, false, err
	}
	return first[0].end, true, nil
}

// verifyProposal verifies a proposal block on parent, whose view is view, at the block's time
// now: the time checks of every block, then the reward tx for the first staker to leave, whose
// end time is the block's.
func (b *chainBlock) verifyProposal(pb *txs.ProposalBlock, parent *chainBlock, view chainView) error {
	vm := b.vm
	if len(pb.Decisions()) != 0 {
		return fmt.Errorf("%w: proposal block with decision txs", ErrUnsupportedTx)
	}
	if _, ok := pb.Tx().Unsigned().(*txs.RewardValidatorTx); !ok || len(pb.Tx().Creds()) != 0 {
		return fmt.Errorf("%w: proposal tx %T", ErrWrongBlockType, pb.Tx().Unsigned())
	}
	rv := pb.Tx().Unsigned().(*txs.RewardValidatorTx)
	first, err := view.firstStakers(1)
	switch {
	case err != nil:
		return err
	case len(first) == 0 || first[0].txID != rv.TxID:
		return fmt.Errorf("%w: %s", ErrRemoveWrongStaker, rv.TxID)
	case first[0].end != pb.Time():
		return fmt.Errorf("%w: end %d, block time %d", ErrRemoveStakerTooEarly, first[0].end, pb.Time())
	}
	if next, ok, err := vm.nextEviction(view, parent.fees); err != nil {
		return err
	} else if ok && pb.Time() > next {
		return fmt.Errorf("%w: %d, after the next L1 validator eviction at %d", ErrBlockTime, pb.Time(), next)
	}
	fees, evicted, err := vm.advance(view, parent.fees, pb.Time())
	if err != nil {
		return err
	}
	ov := newOverlay(view)
	ov.Apply(&effects{l1Validators: evicted})
	b.Effs, b.On, b.evicted, b.fees = []*effects{}, parent.ID(), evicted, fees
	vm.processed(b, view, ov)
	return nil
}

// verifyOption verifies a commit (commit true) or abort block at time t on parent, which must be
// a proposal block at the same time.
func (b *chainBlock) verifyOption(t uint64, commit bool, parent *chainBlock, view chainView) error {
	vm := b.vm
	pb, ok := parent.blk.(*txs.ProposalBlock)
	switch {
	case !ok:
		return fmt.Errorf("%w: parent %s is a %T", ErrOptionParent, parent.ID(), parent.blk)
	case t != pb.Time():
		return fmt.Errorf("%w: %d, proposal block's %d", ErrBlockTime, t, pb.Time())
	}
	eff, err := vm.rewardEffects(view, pb.Tx(), commit)
	if err != nil {
		return err
	}
	ov := newOverlay(view)
	ov.Apply(eff)
	b.Effs, b.On, b.decision, b.fees = []*effects{}, parent.ID(), eff, parent.fees
	vm.processed(b, view, ov)
	return nil
}

// shouldCommit reports whether the reward of reward tx rt should be paid: whether the node of its
// staker's validator was up long enough (§4.10).
func (vm *VM) shouldCommit(view chainView, rt *txs.Tx) (bool, error) {
	rv, ok := rt.Unsigned().(*txs.RewardValidatorTx)
	if !ok {
		return false, fmt.Errorf("%w: proposal tx is a %T", ErrWrongBlockType, rt.Unsigned())
	}
	st, found, err := view.staker(rv.TxID)
	if err != nil || !found {
		return false, err
	}
	return vm.uptime(st.nodeID) >= float64(vm.staking.UptimeRequirement)/PercentDenominator, nil
}

// uptime returns the measured uptime of a Primary Network validator's node as a fraction of its
// validation so far: 1 for this node, which counts itself always up; otherwise what the node's
// uptime tracker measured, 0 without one.
func (vm *VM) uptime(nodeID ids.NodeID) float64 {
	switch {
	case nodeID == vm.validator.nodeID:
		return 1
	case vm.uptimes == nil:
		return 0
	}
	return min(max(vm.uptimes.Uptime(nodeID), 0), 1)
}

// connected reports whether a validator's node is connected to this one (this node always is).
func (vm *VM) connected(nodeID ids.NodeID) bool {
	return nodeID == vm.validator.nodeID || (vm.uptimes != nil && vm.uptimes.IsConnected(nodeID))
}

// buildOption builds the option block on proposal block parent: commit if the staker's
// validator was up enough, else abort.
func (vm *VM) buildOption(parent *chainBlock, pb *txs.ProposalBlock, view chainView) (*chainBlock, error) {
	commit, err := vm.shouldCommit(view, pb.Tx())
	if err != nil {
		return nil, err
	}
	var blk txs.Block = txs.NewAbortBlock(parent.ID(), parent.Height()+1, pb.Time())
	if commit {
		blk = txs.NewCommitBlock(parent.ID(), parent.Height()+1, pb.Time())
	}
	return &chainBlock{vm: vm, blk: blk}, nil
}

// buildProposal builds a proposal block at time t on parent, rewarding staker st.
func (vm *VM) buildProposal(parent *chainBlock, t uint64, st *staker) (*chainBlock, error) {
	rt, err := txs.NewTx(&txs.RewardValidatorTx{TxID: st.txID}, nil)
	if err != nil {
		return nil, fmt.Errorf("build reward tx: %w", err)
	}
	blk, err := txs.NewProposalBlock(parent.ID(), parent.Height()+1, t, nil, rt)
	if err != nil {
		return nil, fmt.Errorf("build proposal block: %w", err)
	}
	return &chainBlock{vm: vm, blk: blk}, nil
}

// acceptDecision stages an option block's decision: the reward tx (committed, or marked aborted
// too), the stakers and supply it changes, and the UTXOs it pays.
func (b *chainBlock) acceptDecision(w writer) error {
	pb, found, err := b.vm.accepted.Block(b.blk.Parent())
	switch {
	case err != nil:
		return err
	case !found:
		return fmt.Errorf("platform: proposal block %s is not accepted", b.blk.Parent())
	}
	rt := pb.Txs()[0]
	if err := w.putTx(rt); err != nil {
		return err
	}
	if _, abort := b.blk.(*txs.AbortBlock); abort {
		if err := w.b.Put(chainstate.IDKey(keyAborted, rt.ID()), nil); err != nil {
			return err
		}
	}
	if err := w.putStakers(b.vm.accepted, []*effects{b.decision}); err != nil {
		return err
	}
	for i := range b.decision.Produced {
		if err := w.putUTXO(&b.decision.Produced[i]); err != nil {
			return err
		}
	}
	return nil
}
