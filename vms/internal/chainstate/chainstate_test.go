package chainstate

import (
	"log/slog"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains/atomic"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
)

func newView(t *testing.T) *storage.View {
	t.Helper()
	db, err := storage.Open(t.TempDir(), slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, db.Close()) })
	return db.Prefixed(storage.PrefixExchange)
}

// TestKeys pins the on-disk key layout both chains share.
func TestKeys(t *testing.T) {
	t.Parallel()
	id := ids.ID{1, 2}
	pairWant := append(append([]byte{'c'}, id[:]...), make([]byte, ids.IDLen)...)
	pairWant[1+ids.IDLen] = 3
	addr := ids.ShortID{9}
	tests := []struct {
		name string
		got  []byte
		want []byte
	}{
		{"id", IDKey(KeyTx, id), append([]byte{'t'}, id[:]...)},
		{"pair", PairKey('c', id, ids.ID{3}), pairWant},
		{"height", HeightKey(0x0102), []byte{'h', 0, 0, 0, 0, 0, 0, 1, 2}},
		{"addr", AddrKey(addr, id), append(append([]byte{'a'}, addr[:]...), id[:]...)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tt.want, tt.got)
		})
	}
}

func TestUTXOIndex(t *testing.T) {
	t.Parallel()
	db := newView(t)
	a, b := ids.ShortID{1}, ids.ShortID{2}
	b1 := db.NewBatch()
	for i := byte(1); i <= 4; i++ {
		require.NoError(t, PutUTXO(b1, ids.ID{i}, []byte{i}, []ids.ShortID{a, b}))
	}
	require.NoError(t, PutBlock(b1, ids.ID{7}, 3, []byte("block"), []byte{9}))
	require.NoError(t, b1.Commit())
	b1.Close()

	got, err := UTXOIDs(db, a, ids.Empty, All)
	require.NoError(t, err)
	require.Equal(t, []ids.ID{{1}, {2}, {3}, {4}}, got)
	got, err = UTXOIDs(db, b, ids.ID{2}, 1)
	require.NoError(t, err)
	require.Equal(t, []ids.ID{{3}}, got)

	v, found, err := Get(db, IDKey(KeyUTXO, ids.ID{3}))
	require.NoError(t, err)
	require.True(t, found)
	require.Equal(t, []byte{3}, v)

	id, found, err := BlockIDAt(db, 3)
	require.NoError(t, err)
	require.True(t, found)
	require.Equal(t, ids.ID{7}, id)
	_, found, err = BlockIDAt(db, 4)
	require.NoError(t, err)
	require.False(t, found)

	b2 := db.NewBatch()
	require.NoError(t, DeleteUTXO(b2, ids.ID{2}, []ids.ShortID{a, b}))
	require.NoError(t, b2.Commit())
	b2.Close()
	got, err = UTXOIDs(db, b, ids.Empty, All)
	require.NoError(t, err)
	require.Equal(t, []ids.ID{{1}, {3}, {4}}, got)
	_, found, err = Get(db, IDKey(KeyUTXO, ids.ID{2}))
	require.NoError(t, err)
	require.False(t, found)
}

// TestStageUTXOs stages a block's UTXO diff and its exports into one batch: nothing shows before
// the commit, then the spent UTXO is gone, the created one indexed, and the peer chain finds the
// export in shared memory.
func TestStageUTXOs(t *testing.T) {
	t.Parallel()
	root, err := storage.Open(t.TempDir(), slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, root.Close()) })
	db := root.Prefixed(storage.PrefixExchange)
	self, peer, owner := ids.ID{1}, ids.ID{2}, ids.ShortID{5}
	memory := atomic.New(root.Prefixed(storage.PrefixAtomic))

	b1 := db.NewBatch()
	require.NoError(t, PutUTXO(b1, ids.ID{1}, []byte{1}, []ids.ShortID{owner}))
	require.NoError(t, b1.Commit())
	b1.Close()

	batch := db.NewBatch()
	defer batch.Close()
	w := db.Wrap(batch)
	del := func(id ids.ID) error { return DeleteUTXO(w, id, []ids.ShortID{owner}) }
	put := func(id ids.ID) error { return PutUTXO(w, id, []byte{id[0]}, []ids.ShortID{owner}) }
	exported := atomic.Element{Key: ids.ID{9}, Value: []byte{9}, Traits: []ids.ShortID{owner}}
	requests := map[ids.ID]*atomic.Requests{peer: {Put: []atomic.Element{exported}}}
	require.NoError(t, StageUTXOs(batch, memory.For(self), []ids.ID{{1}}, []ids.ID{{2}}, del, put, requests))

	got, err := UTXOIDs(db, owner, ids.Empty, All)
	require.NoError(t, err)
	require.Equal(t, []ids.ID{{1}}, got, "staged, not yet committed")
	require.NoError(t, batch.Commit())
	got, err = UTXOIDs(db, owner, ids.Empty, All)
	require.NoError(t, err)
	require.Equal(t, []ids.ID{{2}}, got)
	values, err := memory.For(peer).Get(self, []ids.ID{{9}})
	require.NoError(t, err)
	require.Equal(t, [][]byte{{9}}, values)

	// Without requests, shared memory is not asked (a chain that reads none has nil).
	b3 := db.NewBatch()
	defer b3.Close()
	w3 := db.Wrap(b3)
	put3 := func(id ids.ID) error { return PutUTXO(w3, id, []byte{id[0]}, nil) }
	require.NoError(t, StageUTXOs(b3, nil, nil, []ids.ID{{3}}, del, put3, nil))
}
