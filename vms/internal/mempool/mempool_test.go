package mempool_test

import (
	"errors"
	"iter"
	"log/slog"
	"maps"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/internal/mempool"
)

// tx is a pending tx of size bytes.
type tx struct {
	id   ids.ID
	size int
}

func (t *tx) ID() ids.ID { return t.id }
func (t *tx) Size() int  { return t.size }

// effects spends the UTXOs spends.
type effects struct {
	txID   ids.ID
	spends []ids.ID
}

func (e *effects) TxID() ids.ID { return e.txID }

func (e *effects) Spent() iter.Seq[ids.ID] { return slices.Values(e.spends) }

// view records who spends what, as the VMs' overlays do.
type view struct{ spent map[ids.ID]ids.ID }

func (v *view) Apply(e *effects) {
	for _, id := range e.spends {
		v.spent[id] = e.txID
	}
}

func (v *view) Revert(e *effects) {
	for _, id := range e.spends {
		if v.spent[id] == e.txID {
			delete(v.spent, id)
		}
	}
}

func (v *view) SpentBy(id ids.ID) (ids.ID, bool) {
	by, ok := v.spent[id]
	return by, ok
}

func newTx(n byte, size int, spends ...byte) (*tx, *effects) {
	t := &tx{id: ids.ID{n}, size: size}
	e := &effects{txID: t.id}
	for _, s := range spends {
		e.spends = append(e.spends, ids.ID{0xff, s})
	}
	return t, e
}

func pending(p *mempool.Pool[*tx, *effects]) []byte {
	var out []byte
	for t := range p.Txs() {
		out = append(out, t.id[0])
	}
	return out
}

func TestPool(t *testing.T) {
	t.Parallel()
	// Txs 1–4 arrive in order; 1 spends UTXO a, 2 spends b, 3 spends c and 4 spends d.
	type step struct {
		remove   []byte
		accepted [][]byte // each accepted tx: its ID, then the UTXOs it spends
	}
	tests := []struct {
		name        string
		step        step
		wantPending []byte
		wantSize    int
		wantSpent   map[byte]byte
	}{
		{
			name:        "nothing",
			wantPending: []byte{1, 2, 3, 4},
			wantSize:    100,
			wantSpent:   map[byte]byte{'a': 1, 'b': 2, 'c': 3, 'd': 4},
		},
		{
			name:        "remove keeps the order and ignores unknown IDs",
			step:        step{remove: []byte{2, 9}},
			wantPending: []byte{1, 3, 4},
			wantSize:    80,
			wantSpent:   map[byte]byte{'a': 1, 'c': 3, 'd': 4},
		},
		{
			name:        "accepted drops its txs",
			step:        step{accepted: [][]byte{{1, 'a'}, {3, 'c'}}},
			wantPending: []byte{2, 4},
			wantSize:    60,
			wantSpent:   map[byte]byte{'b': 2, 'd': 4},
		},
		{
			name:        "accepted drops the pending txs spending what it spent",
			step:        step{accepted: [][]byte{{7, 'b', 'x'}, {8, 'd'}}},
			wantPending: []byte{1, 3},
			wantSize:    40,
			wantSpent:   map[byte]byte{'a': 1, 'c': 3},
		},
		{
			name:        "accepted without pending txs",
			step:        step{accepted: [][]byte{{7, 'x'}}},
			wantPending: []byte{1, 2, 3, 4},
			wantSize:    100,
			wantSpent:   map[byte]byte{'a': 1, 'b': 2, 'c': 3, 'd': 4},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			v := &view{spent: make(map[ids.ID]ids.ID)}
			p := mempool.New[*tx](v)
			for i, u := range []byte{'a', 'b', 'c', 'd'} {
				tx, eff := newTx(byte(i+1), 10*(i+1), u)
				require.False(t, p.Has(tx.id))
				p.Add(tx, eff)
				require.True(t, p.Has(tx.id))
			}
			if tt.step.remove != nil {
				gone := make(map[ids.ID]struct{})
				for _, n := range tt.step.remove {
					gone[ids.ID{n}] = struct{}{}
				}
				p.Remove(gone)
			}
			if tt.step.accepted != nil {
				var effs []*effects
				for _, a := range tt.step.accepted {
					_, eff := newTx(a[0], 1, a[1:]...)
					effs = append(effs, eff)
				}
				p.Accepted(effs)
			}
			require.Equal(t, tt.wantPending, pending(p))
			require.Equal(t, len(tt.wantPending), p.Len())
			require.Equal(t, tt.wantSize, p.Size())
			spent := make(map[byte]byte)
			for id, by := range maps.All(v.spent) {
				spent[id[1]] = by[0]
			}
			require.Equal(t, tt.wantSpent, spent)
		})
	}
}

func TestPoolTxsStops(t *testing.T) {
	t.Parallel()
	p := mempool.New[*tx](&view{spent: make(map[ids.ID]ids.ID)})
	for n := range byte(3) {
		p.Add(newTx(n, 1))
	}
	var seen int
	for range p.Txs() {
		seen++
		break
	}
	require.Equal(t, 1, seen)
}

func TestLimits(t *testing.T) {
	t.Parallel()
	p := mempool.New[*tx](&view{spent: make(map[ids.ID]ids.ID)})
	small, _ := newTx(1, mempool.MaxTxSize)
	require.NoError(t, p.CheckLimits(small))
	large, _ := newTx(2, mempool.MaxTxSize+1)
	err := p.CheckLimits(large)
	require.ErrorIs(t, err, mempool.ErrTxTooLarge)
	require.EqualError(t, err, "tx too large: "+large.ID().String()+" size (65537) > max size (65536)")

	// The pending txs' sizes are the pool's to add up, whatever each one's.
	almost, eff := newTx(3, mempool.MaxSize-1)
	p.Add(almost, eff)
	last, _ := newTx(4, 1)
	require.NoError(t, p.CheckLimits(last), "MaxSize bytes may be pending")
	one, _ := newTx(5, 2)
	require.ErrorIs(t, p.CheckLimits(one), mempool.ErrFull)
}

// TestPick: the builder's choice keeps arrival order, passes over a tx in a processing block
// (it stays), drops one that no longer verifies, stops at the first tx whose effects do not fit
// (it stays) and at about TargetBlockSize bytes, always taking a first tx whatever its size.
func TestPick(t *testing.T) {
	t.Parallel()
	errStale := errors.New("stale")
	tests := []struct {
		name     string
		sizes    []int // txs 1, 2, …
		inBlock  byte
		invalid  byte
		tooBig   byte // take refuses its effects
		picked   []byte
		remained []byte
	}{
		{name: "all", sizes: []int{10, 10, 10}, picked: []byte{1, 2, 3}, remained: []byte{1, 2, 3}},
		{name: "in a processing block", sizes: []int{10, 10, 10}, inBlock: 2, picked: []byte{1, 3}, remained: []byte{1, 2, 3}},
		{name: "no longer valid", sizes: []int{10, 10, 10}, invalid: 2, picked: []byte{1, 3}, remained: []byte{1, 3}},
		{name: "does not fit", sizes: []int{10, 10, 10}, tooBig: 2, picked: []byte{1}, remained: []byte{1, 2, 3}},
		{name: "block size", sizes: []int{mempool.TargetBlockSize - 5, 10, 5}, picked: []byte{1}, remained: []byte{1, 2, 3}},
		{name: "a large first tx", sizes: []int{mempool.TargetBlockSize + 1, 1}, picked: []byte{1}, remained: []byte{1, 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var s mempool.Side[*tx, *effects, *view]
			s.Init(&view{spent: make(map[ids.ID]ids.ID)})
			for i, size := range tt.sizes {
				x, e := newTx(byte(i+1), size, byte(i+1))
				s.Pool.Add(x, e)
			}
			var took []byte
			picked, effs := s.Pick(slog.New(slog.DiscardHandler),
				func(id ids.ID) bool { return id[0] == tt.inBlock },
				func(x *tx) (*effects, error) {
					if x.id[0] == tt.invalid {
						return nil, errStale
					}
					return &effects{txID: x.id}, nil
				},
				func(e *effects) bool {
					if e.txID[0] == tt.tooBig {
						return false
					}
					took = append(took, e.txID[0])
					return true
				})
			var got []byte
			for i, x := range picked {
				require.Equal(t, x.id, effs[i].txID)
				got = append(got, x.id[0])
			}
			require.Equal(t, tt.picked, got)
			require.Equal(t, tt.picked, took)
			require.Equal(t, tt.remained, pending(s.Pool))
		})
	}
}
