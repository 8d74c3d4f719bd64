package atomic_test

import (
	"log/slog"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains/atomic"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
)

var (
	chainX = ids.ID{'x'}
	chainP = ids.ID{'p'}
	chainC = ids.ID{'c'}
	alice  = ids.ShortID{'a'}
	bob    = ids.ShortID{'b'}
)

func openMemory(t *testing.T) (*storage.DB, *atomic.Memory) {
	t.Helper()
	db, err := storage.Open(t.TempDir(), slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, db.Close()) })
	return db, atomic.New(db.Prefixed(storage.PrefixAtomic))
}

// apply applies requests of chain sm in a batch of its own and commits it.
func apply(t *testing.T, db *storage.DB, sm *atomic.SharedMemory, requests map[ids.ID]*atomic.Requests) error {
	t.Helper()
	b := db.NewBatch()
	defer b.Close()
	if err := sm.Apply(b, requests); err != nil {
		return err
	}
	return b.Commit()
}

func TestExportImport(t *testing.T) {
	t.Parallel()
	db, mem := openMemory(t)
	x, p, c := mem.For(chainX), mem.For(chainP), mem.For(chainC)
	k1, k2, k3 := ids.ID{1}, ids.ID{2}, ids.ID{3}

	// X exports k1 (alice), k2 (alice, bob) to P and k3 to C.
	require.NoError(t, apply(t, db, x, map[ids.ID]*atomic.Requests{
		chainP: {Put: []atomic.Element{
			{Key: k2, Value: []byte("two"), Traits: []ids.ShortID{alice, bob}},
			{Key: k1, Value: []byte("one"), Traits: []ids.ShortID{alice}},
		}},
		chainC: {Put: []atomic.Element{{Key: k3, Value: []byte("three"), Traits: []ids.ShortID{bob}}}},
	}))

	got, err := p.Get(chainX, []ids.ID{k1, k2})
	require.NoError(t, err)
	require.Equal(t, [][]byte{[]byte("one"), []byte("two")}, got)
	_, err = p.Get(chainX, []ids.ID{k3})
	require.ErrorIs(t, err, atomic.ErrNotFound, "k3 went to C, not P")
	_, err = x.Get(chainP, []ids.ID{k1})
	require.ErrorIs(t, err, atomic.ErrNotFound, "X sees what P exported to it, not what it exported")
	got, err = c.Get(chainX, []ids.ID{k3})
	require.NoError(t, err)
	require.Equal(t, [][]byte{[]byte("three")}, got)

	keys, err := p.Keys(chainX, alice, ids.Empty, 10)
	require.NoError(t, err)
	require.Equal(t, []ids.ID{k1, k2}, keys)
	keys, err = p.Keys(chainX, alice, k1, 10)
	require.NoError(t, err)
	require.Equal(t, []ids.ID{k2}, keys, "paging resumes after start")
	keys, err = p.Keys(chainX, alice, ids.Empty, 1)
	require.NoError(t, err)
	require.Equal(t, []ids.ID{k1}, keys, "at most n")
	keys, err = p.Keys(chainX, bob, ids.Empty, 10)
	require.NoError(t, err)
	require.Equal(t, []ids.ID{k2}, keys)

	// P imports k2: its value and both trait entries go.
	require.NoError(t, apply(t, db, p, map[ids.ID]*atomic.Requests{chainX: {Remove: []ids.ID{k2}}}))
	_, err = p.Get(chainX, []ids.ID{k2})
	require.ErrorIs(t, err, atomic.ErrNotFound)
	keys, err = p.Keys(chainX, alice, ids.Empty, 10)
	require.NoError(t, err)
	require.Equal(t, []ids.ID{k1}, keys)
	keys, err = p.Keys(chainX, bob, ids.Empty, 10)
	require.NoError(t, err)
	require.Empty(t, keys)

	// Importing it again is refused and changes nothing.
	err = apply(t, db, p, map[ids.ID]*atomic.Requests{chainX: {Remove: []ids.ID{k1, k2}}})
	require.ErrorIs(t, err, atomic.ErrNotFound)
	_, err = p.Get(chainX, []ids.ID{k1})
	require.NoError(t, err, "the refused batch was not committed")
}

func TestApplyRefuses(t *testing.T) {
	t.Parallel()
	db, mem := openMemory(t)
	x, p := mem.For(chainX), mem.For(chainP)
	k := ids.ID{7}
	e := atomic.Element{Key: k, Value: []byte{1}, Traits: []ids.ShortID{alice}}
	require.NoError(t, apply(t, db, x, map[ids.ID]*atomic.Requests{chainP: {Put: []atomic.Element{e}}}))

	tests := []struct {
		name     string
		sm       *atomic.SharedMemory
		requests map[ids.ID]*atomic.Requests
		wantErr  error
	}{
		{"export an existing key", x, map[ids.ID]*atomic.Requests{chainP: {Put: []atomic.Element{e}}}, atomic.ErrDuplicate},
		{"export one key twice", x, map[ids.ID]*atomic.Requests{chainP: {Put: []atomic.Element{{Key: ids.ID{8}}, {Key: ids.ID{8}}}}}, atomic.ErrDuplicate},
		{"import one key twice", p, map[ids.ID]*atomic.Requests{chainX: {Remove: []ids.ID{k, k}}}, atomic.ErrDuplicate},
		{"import what was not exported", p, map[ids.ID]*atomic.Requests{chainC: {Remove: []ids.ID{k}}}, atomic.ErrNotFound},
		{"import from itself", p, map[ids.ID]*atomic.Requests{chainP: {Remove: []ids.ID{k}}}, atomic.ErrSelf},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.ErrorIs(t, apply(t, db, tt.sm, tt.requests), tt.wantErr)
		})
	}
	got, err := p.Get(chainX, []ids.ID{k})
	require.NoError(t, err)
	require.Equal(t, [][]byte{{1}}, got)
	_, err = x.Get(chainX, nil)
	require.ErrorIs(t, err, atomic.ErrSelf)
	_, err = x.Keys(chainX, alice, ids.Empty, 1)
	require.ErrorIs(t, err, atomic.ErrSelf)
}

// TestSameBatch checks that shared memory's writes are the block's batch's: discarded with it,
// committed with the rest of it.
func TestSameBatch(t *testing.T) {
	t.Parallel()
	db, mem := openMemory(t)
	x, p := mem.For(chainX), mem.For(chainP)
	k := ids.ID{9}
	state := db.Prefixed(storage.PrefixExchange)

	b := db.NewBatch()
	require.NoError(t, state.Wrap(b).Put([]byte("utxo"), []byte("spent")))
	require.NoError(t, x.Apply(b, map[ids.ID]*atomic.Requests{chainP: {Put: []atomic.Element{{Key: k, Value: []byte{1}}}}}))
	_, err := p.Get(chainX, []ids.ID{k})
	require.ErrorIs(t, err, atomic.ErrNotFound, "not visible before the commit")
	b.Close()
	_, err = p.Get(chainX, []ids.ID{k})
	require.ErrorIs(t, err, atomic.ErrNotFound, "discarded with its batch")

	b = db.NewBatch()
	require.NoError(t, state.Wrap(b).Put([]byte("utxo"), []byte("spent")))
	require.NoError(t, x.Apply(b, map[ids.ID]*atomic.Requests{chainP: {Put: []atomic.Element{{Key: k, Value: []byte{1}}}}}))
	require.NoError(t, b.Commit())
	_, err = p.Get(chainX, []ids.ID{k})
	require.NoError(t, err)
	v, err := state.Get([]byte("utxo"))
	require.NoError(t, err)
	require.Equal(t, []byte("spent"), v)
}

func TestVerifyPeer(t *testing.T) {
	t.Parallel()
	subnets := map[ids.ID]ids.ID{chainX: ids.Empty, chainP: ids.Empty, chainC: {'s'}}
	subnetOf := func(id ids.ID) (ids.ID, bool) { s, ok := subnets[id]; return s, ok }
	require.NoError(t, atomic.VerifyPeer(chainX, ids.Empty, chainP, subnetOf))
	tests := []struct {
		name string
		peer ids.ID
		want string
	}{
		{"itself", chainX, "same chainID"},
		{"unknown", ids.ID{'?'}, `failed to get subnet of "` + ids.ID{'?'}.String() + `": not found`},
		{"another subnet", chainC, `mismatched subnetIDs; expected "` + ids.Empty.String() + `" got "` + ids.ID{'s'}.String() + `"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := atomic.VerifyPeer(chainX, ids.Empty, tt.peer, subnetOf)
			require.EqualError(t, err, tt.want)
		})
	}
}
