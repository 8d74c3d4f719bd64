package mempool_test

import (
	"errors"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/internal/mempool"
)

// TestSide: Issue verifies a new tx against the pool's view and adds it; a pending tx is refused
// with ErrDuplicateTx, or, when the accepted state holds it already, with what verifying it on
// that state gives; Accepted runs the VM's bookkeeping and drops the accepted txs and their
// conflicts.
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
	spent := errors.New("spent")
	reverify := func(err error) func() (*effects, error) {
		return func() (*effects, error) { return nil, err }
	}
	none := known{}
	require.NoError(t, s.Issue(tx1, none, reverify(spent), verify(eff1)))
	require.EqualError(t, s.Issue(tx2, none, reverify(spent), verify(eff2)), "conflict")
	require.ErrorIs(t, s.Issue(tx1, none, reverify(spent), verify(eff1)), mempool.ErrDuplicateTx,
		"pending, not committed: the state is not verified on")
	committed := known{tx1.id: true}
	require.ErrorIs(t, s.Issue(tx1, committed, reverify(nil), verify(eff1)), mempool.ErrDuplicateTx)
	require.ErrorIs(t, s.Issue(tx1, committed, reverify(spent), verify(eff1)), spent)
	readErr := errors.New("read")
	require.ErrorIs(t, s.Issue(tx1, failing{readErr}, reverify(spent), verify(eff1)), readErr)

	marked := false
	require.Equal(t, 0, s.Accepted([]*effects{eff2}, func() { marked = true }))
	require.True(t, marked)
	require.NoError(t, s.Issue(tx2, none, reverify(spent), verify(eff2)), "the accepted conflict left the view")
}

// TestSidePickWithoutLock: Pick verifies the pending txs without Mu, so a tx issued meanwhile is
// added at once; it waits for the next block, and a tx that failed is dropped only after the verification, with Mu.
func TestSidePickWithoutLock(t *testing.T) {
	t.Parallel()
	var s mempool.Side[*tx, *effects, *view]
	s.Init(&view{spent: make(map[ids.ID]ids.ID)})
	tx1, eff1 := newTx(1, 10, 'a')
	tx2, eff2 := newTx(2, 10, 'b')
	tx3, eff3 := newTx(3, 10, 'c')
	s.Pool.Add(tx1, eff1)
	s.Pool.Add(tx2, eff2)
	add := func(eff *effects) func(*view) (*effects, error) {
		return func(*view) (*effects, error) { return eff, nil }
	}
	picked, _ := s.Pick(slog.New(slog.DiscardHandler),
		func(ids.ID) bool { return false },
		func(x *tx) (*effects, error) {
			if x == tx1 {
				require.True(t, s.Mu.TryLock(), "Pick verifies with Mu held")
				s.Mu.Unlock()
				require.NoError(t, s.Issue(tx3, known{}, nil, add(eff3)))
				return eff1, nil
			}
			return nil, errors.New("stale")
		},
		func(*effects) bool { return true })
	require.Equal(t, []*tx{tx1}, picked, "tx3 came after Pick took the pending txs")
	require.Equal(t, []byte{1, 3}, pending(s.Pool), "tx2 dropped, tx3 pending")
	_, ok := s.View.SpentBy(ids.ID{0xff, 'b'})
	require.False(t, ok, "the dropped tx's effects left the view")
}

// TestNotKnown: a tx that spends nothing is looked up in the state; one that spends a UTXO is
// not (it cannot be there), so a state that holds it, or fails to read, is never asked.
func TestNotKnown(t *testing.T) {
	t.Parallel()
	_, spends := newTx(1, 10, 'a')
	_, spendsNothing := newTx(2, 10)
	holds := known{spends.txID: true, spendsNothing.txID: true}
	require.ErrorIs(t, mempool.NotKnown(holds, spendsNothing), mempool.ErrDuplicateTx)
	require.NoError(t, mempool.NotKnown(known{}, spendsNothing))
	readErr := errors.New("read")
	require.ErrorIs(t, mempool.NotKnown(failing{readErr}, spendsNothing), readErr)
	require.NoError(t, mempool.NotKnown(holds, spends))
	require.NoError(t, mempool.NotKnown(failing{readErr}, spends))
}

// known is a state holding the txs it maps to true.
type known map[ids.ID]bool

func (k known) HasTx(id ids.ID) (bool, error) { return k[id], nil }

// failing is a state whose reads fail with err.
type failing struct{ err error }

func (f failing) HasTx(ids.ID) (bool, error) { return false, f.err }
