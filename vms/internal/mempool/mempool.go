// Package mempool is the part of the X- and P-Chain mempools that is the same job on both: the
// verified txs waiting for a block, in arrival order, indexed by ID, with their total size, the
// limits on a tx, the pool and a block (reference/platform-exchange.md §1.2) and the refusals
// issueTx gives for them, and which pending txs leave when a block is accepted.
//
// What a pending tx changes, and so what conflicts with it, stays with each VM: the pool keeps the
// VM's View in step with the txs it holds, and asks it who spends a UTXO. A Pool is not safe for
// concurrent use; the VM's mutex guards it. The pool keeps the txs and effects it is given; the
// caller must not modify them afterwards.
package mempool

import (
	"iter"
	"log/slog"
	"slices"

	"github.com/cornice-node/cornice/ids"
)

// Tx is what the pool needs of a pending tx.
type Tx interface {
	// ID is the tx's ID.
	ID() ids.ID
	// Size is the length of the tx's signed bytes.
	Size() int
}

// Effects is what the pool needs of what a verified tx changes.
type Effects interface {
	// TxID is the ID of the tx these are the effects of.
	TxID() ids.ID
	// Spent yields the IDs of the UTXOs the tx consumes.
	Spent() iter.Seq[ids.ID]
}

// View is the state the pending txs leave on top of the accepted one: the pool applies the
// effects of each tx it takes and reverts those of each tx it drops.
type View[E Effects] interface {
	// Apply records a verified tx's effects.
	Apply(eff E)
	// Revert forgets a tx's effects.
	Revert(eff E)
	// SpentBy returns the pending tx that spends the UTXO utxoID, if one does.
	SpentBy(utxoID ids.ID) (txID ids.ID, ok bool)
}

// entry is a pending tx and what it changes.
type entry[T Tx, E Effects] struct {
	tx  T
	eff E
}

// Pool holds the verified txs waiting for a block, in arrival order. A pending tx may depend on
// an earlier one (spend its outputs, name a subnet it creates): the builder keeps the order.
//
// Invariant: byID holds exactly the entries of txs, size is the sum of their sizes, and view has
// the effects of exactly those txs applied.
type Pool[T Tx, E Effects] struct {
	txs  []*entry[T, E]
	byID map[ids.ID]*entry[T, E]
	view View[E]
	size int
}

// New returns an empty pool that keeps view in step with its txs.
func New[T Tx, E Effects](view View[E]) *Pool[T, E] {
	return &Pool[T, E]{byID: make(map[ids.ID]*entry[T, E]), view: view}
}

// Has reports whether the tx txID is pending.
func (p *Pool[T, E]) Has(txID ids.ID) bool {
	_, ok := p.byID[txID]
	return ok
}

// Len returns the number of pending txs.
func (p *Pool[T, E]) Len() int { return len(p.txs) }

// Size returns the total size of the pending txs, in bytes.
func (p *Pool[T, E]) Size() int { return p.size }

// Txs yields the pending txs in arrival order. The pool must not change during the iteration.
func (p *Pool[T, E]) Txs() iter.Seq[T] {
	return func(yield func(T) bool) {
		for _, e := range p.txs {
			if !yield(e.tx) {
				return
			}
		}
	}
}

// Add appends tx, verified against the view, with its effects eff, and applies them to the view.
// The caller checks that tx is not pending already.
func (p *Pool[T, E]) Add(tx T, eff E) {
	e := &entry[T, E]{tx: tx, eff: eff}
	p.txs = append(p.txs, e)
	p.byID[tx.ID()] = e
	p.view.Apply(eff)
	p.size += tx.Size()
}

// Remove drops the pending txs among txIDs and reverts their effects on the view; the others
// are ignored.
func (p *Pool[T, E]) Remove(txIDs map[ids.ID]struct{}) {
	n := 0
	for id := range txIDs {
		e, ok := p.byID[id]
		if !ok {
			continue
		}
		n++
		delete(p.byID, id)
		p.view.Revert(e.eff)
		p.size -= e.tx.Size()
	}
	if n == 0 {
		return
	}
	p.txs = slices.DeleteFunc(p.txs, func(e *entry[T, E]) bool {
		_, gone := txIDs[e.tx.ID()]
		return gone
	})
}

// Accepted drops what leaves the pool once a block whose txs had the effects effs is committed:
// those txs, and every other pending tx that spends a UTXO one of them spent (it can no longer
// be accepted).
func (p *Pool[T, E]) Accepted(effs []E) {
	gone := make(map[ids.ID]struct{}, len(effs))
	for _, eff := range effs {
		gone[eff.TxID()] = struct{}{}
	}
	for _, eff := range effs {
		for id := range eff.Spent() {
			if by, ok := p.view.SpentBy(id); ok && by != eff.TxID() {
				gone[by] = struct{}{}
			}
		}
	}
	p.Remove(gone)
}

// pick is Side.Pick's choice among pending, the pending txs in arrival order; the txs that no
// longer verify are returned in drop (logged at Debug to log) for the caller to remove.
func pick[T Tx, E Effects](pending []*entry[T, E], log *slog.Logger, inBlock func(ids.ID) bool, verify func(T) (E, error), take func(E) bool) (picked []T, effs []E, drop map[ids.ID]struct{}) {
	drop = make(map[ids.ID]struct{})
	var size int
	for _, e := range pending {
		tx := e.tx
		if len(picked) > 0 && size+tx.Size() > TargetBlockSize {
			break
		}
		if inBlock(tx.ID()) {
			continue
		}
		eff, err := verify(tx)
		if err != nil {
			log.Debug("pending tx dropped", "txID", tx.ID().String(), "err", err)
			drop[tx.ID()] = struct{}{}
			continue
		}
		if !take(eff) {
			break
		}
		picked = append(picked, tx)
		effs = append(effs, eff)
		size += tx.Size()
	}
	return picked, effs, drop
}
