package exchange

import (
	"context"
	"fmt"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/exchange/txs"
	"github.com/cornice-node/cornice/vms/internal/processing"
)

// issue adds tx to the mempool for the VM's Intake: verified against the accepted state and
// the pending txs, it fails if tx is pending or accepted already, too large, invalid, or
// conflicts with a pending tx.
func (vm *VM) issue(tx *txs.Tx) error {
	verify := func(src utxoSource) (*effects, error) {
		return vm.verifyTx(tx, src, vm.state, vm.now(), make(map[ids.ID]struct{}, 1))
	}
	return vm.side.Issue(tx, vm.state,
		func() (*effects, error) { return verify(vm.state) },
		func(pending *overlay) (*effects, error) { return verify(pending) })
}

// BuildBlock implements chains.Builder: a block on the preferred block, at the later of now and
// the parent's time, with the pending txs in arrival order up to about 128 KiB. A pending tx
// that no longer verifies is dropped from the mempool. It reads the preferred block's view and
// the accepted state without vm.side.Mu, as Verify does: only the engine goroutine, which calls
// both, changes them (mempool.Side.Pick).
func (vm *VM) BuildBlock(context.Context) (chains.Block, error) {
	parent, view := vm.Preferred()
	t := max(vm.now(), parent.blk.Time())
	ov := newOverlay(view)
	seen := make(map[ids.ID]struct{})
	picked, effs := vm.side.Pick(vm.log,
		func(id ids.ID) bool { return processing.InProcessing(view, id) },
		func(tx *txs.Tx) (*effects, error) { return vm.verifyTx(tx, ov, view, t, seen) },
		func(eff *effects) bool { ov.Apply(eff); return true })
	if len(picked) == 0 {
		return nil, chains.ErrNoWork
	}
	blk, err := txs.NewStandardBlock(parent.ID(), parent.Height()+1, t, picked)
	if err != nil {
		return nil, fmt.Errorf("build block: %w", err)
	}
	return &Block{vm: vm, blk: blk, Verified: processing.Verified[*effects]{Effs: effs, On: parent.ID()}, built: ov}, nil
}
