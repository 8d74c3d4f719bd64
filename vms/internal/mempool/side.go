package mempool

import (
	"log/slog"
	"sync"

	"github.com/cornice-node/cornice/ids"
)

// Side is the mempool side of a UTXO VM: the pool of pending txs, the view they leave on the
// accepted state, and the lock that orders issuing a tx against accepting a block, so that a
// block's spends are either in the accepted state a new tx is verified against or still pending
// in View.
type Side[T Tx, E Effects, V View[E]] struct {
	// Mu guards Pool and View, and what else the VM keeps behind it; it is taken before the
	// VM's processing.Chain lock, never after.
	Mu   sync.Mutex
	Pool *Pool[T, E]
	View V
}

// Init makes s an empty pool over view.
func (s *Side[T, E, V]) Init(view V) {
	s.View = view
	s.Pool = New[T](View[E](view))
}

// Issue adds tx to the pool under Mu: verify checks it against the pending txs' view, and the
// pool's limits may refuse it. A pending tx fails with ErrDuplicateTx, unless accepted, the
// accepted state, holds it already: its block is committed and Accepted has not run yet. It then
// fails as reverify, verifying it on accepted, does (on its spent inputs), which is what it
// fails with once Accepted has run; if reverify passes, with ErrDuplicateTx.
func (s *Side[T, E, V]) Issue(tx T, accepted Known, reverify func() (E, error), verify func(V) (E, error)) error {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	if s.Pool.Has(tx.ID()) {
		switch committed, err := accepted.HasTx(tx.ID()); {
		case err != nil:
			return err
		case committed:
			if _, err := reverify(); err != nil {
				return err
			}
		}
		return ErrDuplicateTx
	}
	if err := s.Pool.CheckLimits(tx); err != nil {
		return err
	}
	eff, err := verify(s.View)
	if err != nil {
		return err
	}
	s.Pool.Add(tx, eff)
	return nil
}

// Pick chooses the txs of a block being built, as the pending txs in arrival order allow: up to
// about TargetBlockSize bytes (the first tx always fits). A tx for which inBlock is true is in a
// processing block already and stays pending until that block is accepted. verify checks a tx
// against the block being built; a tx it refuses no longer verifies and leaves the pool, logged at
// Debug to log. take records a verified tx's effects on the block being built, so that the txs
// after it verify on top of them, or reports false when they do not fit (the P-Chain's gas
// capacity): that tx waits for the next block, and the block ends.
//
// It is called by the chain's engine goroutine without Mu, and verifies without it: only that
// goroutine removes txs from the pool (Pick, Accepted), so the txs pending when Pick starts stay
// pending, in place, until it drops those that failed (under Mu), while Issue, which only appends,
// goes on meanwhile instead of waiting for every pending tx's verification (docs/decisions.md,
// "The builder verifies without the mempool's lock"). A tx issued meanwhile waits for the next
// block. verify, inBlock and take must therefore read nothing that Mu guards.
func (s *Side[T, E, V]) Pick(log *slog.Logger, inBlock func(ids.ID) bool, verify func(T) (E, error), take func(E) bool) ([]T, []E) {
	s.Mu.Lock()
	// The entries up to len stay as they are: Add appends past them, and only this goroutine
	// removes.
	pending := s.Pool.txs
	s.Mu.Unlock()
	picked, effs, drop := pick(pending, log, inBlock, verify, take)
	if len(drop) > 0 {
		s.Mu.Lock()
		s.Pool.Remove(drop)
		s.Mu.Unlock()
	}
	return picked, effs
}

// Accepted runs mark (the VM's bookkeeping of a block whose batch is committed) and drops the
// block's txs, with effects effs, and the pending txs spending what they spent, under Mu. It
// returns how many txs stay pending.
func (s *Side[T, E, V]) Accepted(effs []E, mark func()) int {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	mark()
	s.Pool.Accepted(effs)
	return s.Pool.Len()
}

// Known is a chain state's record of its txs: the committed ones, and those of processing blocks
// for a view on one.
type Known interface {
	// HasTx reports whether the state holds tx id.
	HasTx(id ids.ID) (bool, error)
}

// NotKnown fails with ErrDuplicateTx if known, the state a tx was just verified on with effects
// eff, holds the tx already, or with the error reading it gave. A tx that spends a UTXO (its own
// chain's or an imported one) cannot be in known: the block that holds it spent that UTXO, and a
// UTXO's ID names the tx that made it, so it cannot come back. Verifying it on known has found
// the UTXO, so for such a tx NotKnown reads nothing; only a tx that spends nothing is looked up.
// This is a point read of an absent key through every table of the database, the costliest read
// of an issueTx (docs/benchmarks.md, issue #11 rows).
func NotKnown[E Effects](known Known, eff E) error {
	for range eff.Spent() {
		return nil
	}
	switch has, err := known.HasTx(eff.TxID()); {
	case err != nil:
		return err
	case has:
		return ErrDuplicateTx
	}
	return nil
}
