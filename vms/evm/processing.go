package evm

import (
	"context"
	"fmt"
	"sync"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	gethvm "github.com/ethereum/go-ethereum/core/vm"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/internal/processing"
)

// Processing blocks (chains.Block's contract): a verified block that is neither accepted nor
// rejected keeps its execution (the state after it, in memory), so that a child is verified
// against its parent's state root: the child runs on a copy of the parent's state, with the
// parent's rules and block gas cost, and BLOCKHASH sees the processing ancestors. Nothing of a
// processing block reaches the trie database before its Accept.

// processingSet holds the processing blocks and the preference.
type processingSet struct {
	mu  sync.Mutex // guards set
	set processing.Set[*Block]
}

// processingBlock returns processing block h.
func (vm *VM) processingBlock(h common.Hash) (*Block, bool) {
	vm.proc.mu.Lock()
	defer vm.proc.mu.Unlock()
	return vm.proc.set.Get(ids.ID(h))
}

// processed records verified block b as processing.
func (vm *VM) processed(b *Block) {
	vm.proc.mu.Lock()
	defer vm.proc.mu.Unlock()
	vm.proc.set.Add(b.ID(), b)
}

// decided forgets b as processing (accepted or rejected).
func (vm *VM) decided(b *Block) {
	vm.proc.mu.Lock()
	defer vm.proc.mu.Unlock()
	vm.proc.set.Decided(b.ID(), b.Parent())
}

// preferredParent returns the block to build on: the preferred block if it is processing (proc
// is then that block), else the last accepted block (proc nil).
func (vm *VM) preferredParent() (parent *types.Block, proc *Block) {
	vm.proc.mu.Lock()
	p, ok := vm.proc.set.Preferred()
	vm.proc.mu.Unlock()
	if ok {
		return p.eth, p
	}
	return vm.currentHead(), nil
}

// SetPreference implements chains.Builder.
func (vm *VM) SetPreference(_ context.Context, id ids.ID) error {
	h := common.Hash(id)
	if _, ok := vm.processingBlock(h); !ok && h != vm.currentHead().Hash() {
		return fmt.Errorf("prefer block %s: %w", h, chains.ErrBlockNotFound)
	}
	vm.proc.mu.Lock()
	defer vm.proc.mu.Unlock()
	vm.proc.set.Prefer(id)
	return nil
}

// childRulesFor returns the rules of parent's children; proc is parent when it is processing,
// nil when it is the last accepted block.
func (vm *VM) childRulesFor(parent *types.Block, proc *Block) (*childRules, error) {
	if proc == nil {
		return vm.childRulesOf(parent)
	}
	r, err := vm.computeChildRules(parent.Header(), parent.Hash(), proc.result.state)
	if err != nil {
		return nil, err
	}
	if vm.hasGasCostRecord(parent.NumberU64(), parent.Time()) {
		// Not recorded before its Accept: the cost its verification found.
		cost := proc.gasCost
		r.parentGasCost = &cost
	}
	return r, nil
}

// executorFor returns an executor of header's block on parent; proc is parent when it is
// processing (the executor then runs on a copy of its state), nil when it is the last accepted
// block.
func (vm *VM) executorFor(parent *types.Header, proc *Block, header *types.Header) (*executor, error) {
	if proc == nil {
		return vm.newExecutor(parent, header)
	}
	return vm.newExecutorOn(parent, proc.result.state.Copy(), header, vm.getHashOn(proc, header.Number.Uint64()))
}

// getHashOn answers BLOCKHASH for a block at height number on processing block proc: the
// hashes of proc and its processing ancestors, then the canonical ones.
func (vm *VM) getHashOn(proc *Block, number uint64) gethvm.GetHashFunc {
	hashes := make(map[uint64]common.Hash)
	for p, ok := proc, true; ok; p, ok = vm.processingBlock(p.eth.ParentHash()) {
		hashes[p.eth.NumberU64()] = p.eth.Hash()
	}
	canonical := vm.getHashFn(number)
	return func(n uint64) common.Hash {
		if h, ok := hashes[n]; ok && n < number && number-n <= 256 {
			return h
		}
		return canonical(n)
	}
}

// Verify implements chains.Block: the header follows the chain's rules on its parent, the last
// accepted block or a processing one, and executing the transactions on the parent's state gives
// the header's state root, gas used, receipts and bloom. A block this VM built was made by those
// rules and executed already, so only its parent is checked; a block from elsewhere, or one
// parsed after a restart, is checked and executed in full. The block is then processing.
func (b *Block) Verify(ctx context.Context) error {
	var err error
	if p, ok := b.vm.processingBlock(b.eth.ParentHash()); ok {
		err = b.verifyOn(ctx, p)
	} else {
		err = b.verifyOnHead(ctx)
	}
	if err != nil {
		return err
	}
	b.vm.processed(b)
	return nil
}

// verifyOn is Verify of a block whose parent p is processing.
func (b *Block) verifyOn(ctx context.Context, p *Block) error {
	vm := b.vm
	r, err := vm.childRulesFor(p.eth, p)
	if err != nil {
		return err
	}
	cost := vm.childGasCost(r, b.eth.Time())
	if b.built && b.result != nil {
		if b.gasCost != cost {
			return blockGasCostError(b.gasCost, cost)
		}
		return nil
	}
	h := b.eth.Header()
	fees, desired, err := vm.verifyHeader(p.eth.Header(), r, h, b)
	if err != nil {
		return err
	}
	e, err := vm.executorFor(p.eth.Header(), p, types.CopyHeader(h))
	if err != nil {
		return err
	}
	return b.execute(ctx, e, cost, fees, desired)
}

// Reject implements chains.Block: the block and its execution are dropped; its transactions stay
// in the mempool, which they leave once a block with them is accepted.
func (b *Block) Reject(context.Context) error {
	b.vm.decided(b)
	b.vm.built.CompareAndSwap(b, nil)
	b.result = nil
	return nil
}
