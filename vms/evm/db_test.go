package evm

import (
	"log/slog"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/storage"
)

// TestKVStoreSink checks that the ethdb adapter writes only into the sink
// batch, and that what the batch commits is read back.
func TestKVStoreSink(t *testing.T) {
	t.Parallel()
	db, err := storage.Open(t.TempDir(), slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, db.Close()) })
	kv := newKVStore(db.Prefixed(storage.PrefixEVM).Prefixed([]byte("chain")))

	require.ErrorIs(t, kv.Put([]byte("a"), []byte("1")), errNoSink)
	b := kv.NewBatch()
	require.NoError(t, b.Put([]byte("a"), []byte("1")))
	require.ErrorIs(t, b.Write(), errNoSink)

	sink := db.NewBatch()
	kv.setSink(sink)
	require.NoError(t, b.Write())
	require.NoError(t, kv.Put([]byte("b"), []byte("2")))
	require.NoError(t, kv.Put([]byte("c"), []byte("3")))
	require.NoError(t, kv.Delete([]byte("c")))
	kv.clearSink()
	ok, err := kv.Has([]byte("a"))
	require.NoError(t, err)
	require.False(t, ok, "nothing is visible before the batch commits")
	require.NoError(t, sink.Commit())

	v, err := kv.Get([]byte("a"))
	require.NoError(t, err)
	require.Equal(t, []byte("1"), v)
	_, err = kv.Get([]byte("c"))
	require.ErrorIs(t, err, storage.ErrNotFound)

	it := kv.NewIterator(nil, nil)
	var keys []string
	for it.Next() {
		keys = append(keys, string(it.Key()))
	}
	require.NoError(t, it.Error())
	it.Release()
	require.Equal(t, []string{"a", "b"}, keys)
}
