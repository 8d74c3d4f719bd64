package mempool

import (
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

// Issue adds tx to the pool under Mu. It fails with ErrDuplicateTx if tx is pending (or with
// what pending, if not nil, returns then), as the pool's limits refuse it, or as verify, given
// the pending txs' view, does.
func (s *Side[T, E, V]) Issue(tx T, pending func() error, verify func(V) (E, error)) error {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	if s.Pool.Has(tx.ID()) {
		if pending != nil {
			if err := pending(); err != nil {
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

// NotKnown fails with ErrDuplicateTx if known, the state a tx is verified on, holds tx id already,
// or with the error reading it gave.
func NotKnown(known interface{ HasTx(id ids.ID) (bool, error) }, id ids.ID) error {
	switch has, err := known.HasTx(id); {
	case err != nil:
		return err
	case has:
		return ErrDuplicateTx
	}
	return nil
}
