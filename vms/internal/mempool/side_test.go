package mempool_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/internal/mempool"
)

// TestSide: Issue verifies a new tx against the pool's view and adds it; a pending tx is refused
// with what the pending hook says, else ErrDuplicateTx; Accepted runs the VM's bookkeeping and
// drops the accepted txs and their conflicts.
func TestSide(t *testing.T) {
	t.Parallel()
	var s mempool.Side[*tx, *effects, *view]
	s.Init(&view{spent: make(map[ids.ID]ids.ID)})
	tx1, eff1 := newTx(1, 10, 'a')
	tx2, eff2 := newTx(2, 10, 'a')
	verify := func(eff *effects) func(*view) (*effects, error) {
		return func(v *view) (*effects, error) {
			for _, id := range eff.spends {
				if _, ok := v.SpentBy(id); ok {
					return nil, errors.New("conflict")
				}
			}
			return eff, nil
		}
	}
	require.NoError(t, s.Issue(tx1, nil, verify(eff1)))
	require.EqualError(t, s.Issue(tx2, nil, verify(eff2)), "conflict")
	require.ErrorIs(t, s.Issue(tx1, nil, verify(eff1)), mempool.ErrDuplicateTx)
	require.ErrorIs(t, s.Issue(tx1, func() error { return nil }, verify(eff1)), mempool.ErrDuplicateTx)
	committed := errors.New("committed")
	require.ErrorIs(t, s.Issue(tx1, func() error { return committed }, verify(eff1)), committed)

	marked := false
	require.Equal(t, 0, s.Accepted([]*effects{eff2}, func() { marked = true }))
	require.True(t, marked)
	require.NoError(t, s.Issue(tx2, nil, verify(eff2)), "the accepted conflict left the view")
}
