package evm

import (
	"log/slog"
	"testing"

	"github.com/ethereum/go-ethereum/ethdb"
	"github.com/ethereum/go-ethereum/ethdb/memorydb"
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

// TestKVBatchReplay checks that the batch keeps its own copies of keys and
// values, replays puts and deletes in order, and starts empty after Reset.
func TestKVBatchReplay(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		batch ethdb.Batch
	}{
		{name: "NewBatch", batch: (&kvStore{}).NewBatch()},
		{name: "NewBatchWithSize", batch: (&kvStore{}).NewBatchWithSize(4)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b := tt.batch
			key, val := []byte("k1"), []byte("v1")
			require.NoError(t, b.Put(key, val))
			key[1], val[1] = '9', '9' // the caller may reuse its slices
			require.NoError(t, b.Put([]byte("k2"), nil))
			require.NoError(t, b.Delete([]byte("k1")))
			require.NoError(t, b.Put([]byte("k3"), []byte("a longer value")))
			require.Equal(t, 2+2+2+0+2+2+14, b.ValueSize())

			mem := memorydb.New()
			require.NoError(t, mem.Put([]byte("k1"), []byte("old")))
			rec := &recordingWriter{}
			require.NoError(t, b.Replay(rec))
			require.Equal(t, []string{"put k1=v1", "put k2=", "del k1", "put k3=a longer value"}, rec.ops)
			require.NoError(t, b.Replay(mem))
			ok, err := mem.Has([]byte("k1"))
			require.NoError(t, err)
			require.False(t, ok)
			v, err := mem.Get([]byte("k3"))
			require.NoError(t, err)
			require.Equal(t, []byte("a longer value"), v)

			b.Reset()
			require.Zero(t, b.ValueSize())
			rec = &recordingWriter{}
			require.NoError(t, b.Replay(rec))
			require.Empty(t, rec.ops)
			require.NoError(t, b.Put([]byte("k4"), []byte("v4")))
			require.NoError(t, b.Replay(rec))
			require.Equal(t, []string{"put k4=v4"}, rec.ops)
		})
	}
}

// recordingWriter records the writes it gets.
type recordingWriter struct{ ops []string }

func (w *recordingWriter) Put(key, value []byte) error {
	w.ops = append(w.ops, "put "+string(key)+"="+string(value))
	return nil
}

func (w *recordingWriter) Delete(key []byte) error {
	w.ops = append(w.ops, "del "+string(key))
	return nil
}
