package storage

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/stretchr/testify/require"
)

func TestBatchCommit(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	v := db.root.Prefixed([]byte("b"))
	require.NoError(t, v.Put([]byte("gone"), []byte("x")))

	b := v.NewBatch()
	key, val := []byte("k1"), []byte("v1")
	require.NoError(t, b.Put(key, val))
	key[1], val[1] = '9', '9' // the batch copied them
	require.NoError(t, b.Put([]byte("k2"), []byte("v2")))
	require.NoError(t, b.Delete([]byte("gone")))
	require.Equal(t, 3, b.Count())
	require.Positive(t, b.Size())

	// Nothing is visible before Commit.
	_, err := v.Get([]byte("k1"))
	require.ErrorIs(t, err, ErrNotFound)
	ok, err := v.Has([]byte("gone"))
	require.NoError(t, err)
	require.True(t, ok)

	require.NoError(t, b.Commit())
	require.Equal(t, map[string]string{"k1": "v1", "k2": "v2"}, collect(t, v, nil, nil))

	require.ErrorIs(t, b.Commit(), ErrBatchDone)
	require.ErrorIs(t, b.Put([]byte("k3"), nil), ErrBatchDone)
	require.ErrorIs(t, b.Delete([]byte("k3")), ErrBatchDone)
	require.Zero(t, b.Count())
	require.Zero(t, b.Size())
	b.Close() // a no-op after Commit
}

func TestBatchClose(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	b := db.NewBatch()
	require.NoError(t, b.Put([]byte("k"), []byte("v")))
	b.Close()
	b.Close()
	require.ErrorIs(t, b.Commit(), ErrBatchDone)
	_, err := db.Get([]byte("k"))
	require.ErrorIs(t, err, ErrNotFound)
}

// TestBatchWrap writes two components' keys in one batch, as the
// acceptance pipeline does with VM state and the index entry.
func TestBatchWrap(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	vm := db.Prefixed(PrefixEVM)
	index := db.Prefixed(PrefixIndex)

	b := db.NewBatch()
	require.NoError(t, vm.Wrap(b).Put([]byte("state"), []byte("s")))
	ib := index.Wrap(b)
	require.NoError(t, ib.Put([]byte("entry"), []byte("e")))
	require.Equal(t, 2, b.Count())
	require.NoError(t, ib.Commit())
	require.ErrorIs(t, b.Commit(), ErrBatchDone, "commit through one wrap ends all")

	got, err := vm.Get([]byte("state"))
	require.NoError(t, err)
	require.Equal(t, []byte("s"), got)
	got, err = index.Get([]byte("entry"))
	require.NoError(t, err)
	require.Equal(t, []byte("e"), got)
	_, err = db.Get([]byte("state"))
	require.ErrorIs(t, err, ErrNotFound)
}

// TestBatchAtomicForReaders commits batches that rewrite every key with a
// new generation while readers check, on snapshots, that all keys always
// carry the same generation.
func TestBatchAtomicForReaders(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	v := db.root.Prefixed([]byte("g"))
	const keys, generations = 50, 30
	write := func(gen int) {
		b := v.NewBatch()
		for k := range keys {
			require.NoError(t, b.Put([]byte(fmt.Sprintf("%03d", k)), []byte(strconv.Itoa(gen))))
		}
		require.NoError(t, b.Commit())
	}
	write(0)

	var wg sync.WaitGroup
	done := make(chan struct{})
	for range 2 {
		wg.Go(func() {
			for {
				select {
				case <-done:
					return
				default:
				}
				if err := checkGenerations(v, keys); err != nil {
					t.Error(err) // not require: this is not the test's goroutine
					return
				}
			}
		})
	}
	for gen := 1; gen <= generations; gen++ {
		write(gen)
	}
	close(done)
	wg.Wait()
}

// checkGenerations reads v on one snapshot and checks that its want keys
// all hold the same value.
func checkGenerations(v *View, want int) error {
	it, err := v.NewIterator(nil, nil)
	if err != nil {
		return err
	}
	defer it.Close()
	var first []byte
	n := 0
	for it.Next() {
		if first == nil {
			first = bytes.Clone(it.Value())
		}
		if !bytes.Equal(first, it.Value()) {
			return fmt.Errorf("a reader saw part of a batch: key %s has %s, the first %s", it.Key(), it.Value(), first)
		}
		n++
	}
	if n != want {
		return fmt.Errorf("saw %d keys, want %d", n, want)
	}
	return it.Err()
}

// TestFailedCommitAppliesNothing commits after Close, then reopens.
func TestFailedCommitAppliesNothing(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "db")
	db, err := Open(dir, testLog(t))
	require.NoError(t, err)
	b := db.NewBatch()
	require.NoError(t, b.Put([]byte("a"), []byte("1")))
	require.NoError(t, b.Put([]byte("b"), []byte("2")))
	require.NoError(t, db.Close())
	require.ErrorIs(t, b.Commit(), ErrClosed)

	db, err = Open(dir, testLog(t))
	require.NoError(t, err)
	defer func() { require.NoError(t, db.Close()) }()
	for _, k := range []string{"a", "b"} {
		_, err := db.Get([]byte(k))
		require.ErrorIs(t, err, ErrNotFound)
	}
}

func BenchmarkBatchCommit(b *testing.B) {
	for _, n := range []int{1, 10, 100, 1000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			db := openTest(b)
			v := db.Prefixed(PrefixIndex)
			value := bytes.Repeat([]byte{0xab}, 256)
			key := make([]byte, 8)
			var seq uint64
			b.ReportAllocs()
			b.SetBytes(int64(n * (len(key) + len(value))))
			for b.Loop() {
				batch := v.NewBatch()
				for range n {
					seq++
					for i := range key {
						key[i] = byte(seq >> (56 - 8*i))
					}
					if err := batch.Put(key, value); err != nil {
						b.Fatal(err)
					}
				}
				if err := batch.Commit(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// DeleteRange removes the keys of its range inside the batch's view, and only those, atomically
// with the batch's other writes.
func TestBatchDeleteRange(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	v := db.root.Prefixed([]byte("v"))
	next := db.root.Prefixed([]byte("w")) // the key space after v's
	for _, k := range []string{"a", "b1", "b2", "b3", "c"} {
		require.NoError(t, v.Put([]byte(k), []byte("x")))
	}
	require.NoError(t, next.Put([]byte("a"), []byte("y")))

	b := v.NewBatch()
	require.NoError(t, b.DeleteRange([]byte("b1"), []byte("b3")))
	require.NoError(t, b.Put([]byte("d"), []byte("z")))
	require.ErrorIs(t, b.DeleteRange(nil, []byte("b")), ErrEmptyKey)
	require.ErrorIs(t, b.DeleteRange([]byte("b"), nil), ErrEmptyKey)
	require.ErrorContains(t, b.DeleteRange([]byte("b"), []byte("b")), "not before end")
	require.Len(t, collect(t, v, nil, nil), 5, "nothing is visible before Commit")
	require.NoError(t, b.Commit())
	require.Equal(t, map[string]string{"a": "x", "b3": "x", "c": "x", "d": "z"}, collect(t, v, nil, nil))
	require.Equal(t, map[string]string{"a": "y"}, collect(t, next, nil, nil))
	require.ErrorIs(t, b.DeleteRange([]byte("a"), []byte("b")), ErrBatchDone)
}

// CommitUnsynced makes a batch visible at once and durable at the next Sync: a crash of the
// machine (the file system keeps what was synced and any part of the rest) loses none of the
// commits before the last Sync, and of the unsynced ones after it keeps a prefix, each batch
// whole or not at all.
func TestCommitUnsyncedCrash(t *testing.T) {
	t.Parallel()
	const synced, unsynced = 3, 30
	for seed := range 5 {
		mem := vfs.NewCrashableMem()
		dir := filepath.Join(t.TempDir(), "db")
		db, err := open(dir, slog.New(slog.DiscardHandler), mem)
		require.NoError(t, err)
		for i := range byte(synced + unsynced) {
			b := db.NewBatch()
			require.NoError(t, b.Put([]byte{'a', i}, []byte{i}))
			require.NoError(t, b.Put([]byte{'b', i}, bytes.Repeat([]byte{i}, 5000)))
			require.NoError(t, b.CommitUnsynced())
			require.ErrorIs(t, b.CommitUnsynced(), ErrBatchDone)
			got, err := db.Get([]byte{'a', i})
			require.NoError(t, err, "visible at once")
			require.Equal(t, []byte{i}, got)
			if i == synced-1 {
				require.NoError(t, db.Sync())
			}
		}

		// The machine crashes: seed 0 keeps exactly what was synced, the others some of the rest.
		cfg := vfs.CrashCloneCfg{}
		if seed > 0 {
			cfg = vfs.CrashCloneCfg{UnsyncedDataPercent: 50, RNG: rand.New(rand.NewPCG(uint64(seed), 0))}
		}
		crashed := mem.CrashClone(cfg)
		require.NoError(t, db.Close())
		db, err = open(dir, slog.New(slog.DiscardHandler), crashed)
		require.NoError(t, err)
		kept := 0
		for i := range byte(synced + unsynced) {
			a, err := db.Has([]byte{'a', i})
			require.NoError(t, err)
			b, err := db.Has([]byte{'b', i})
			require.NoError(t, err)
			require.Equal(t, a, b, "seed %d: batch %d is whole or absent", seed, i)
			if a {
				require.Equal(t, int(i), kept, "seed %d: batch %d kept after a lost one", seed, i)
				kept++
			}
		}
		require.GreaterOrEqual(t, kept, synced, "seed %d: synced batches lost", seed)
		if seed == 0 {
			require.Equal(t, synced, kept, "only the synced batches")
		}
		require.NoError(t, db.Close())
	}
}

// Sync has work only after an unsynced commit that no synced commit has followed: a synced
// commit syncs the log up to it, unsynced commits before it included, so Sync then returns at
// once. Unsynced reports it; a crash of the machine shows which commits are on disk.
func TestSyncAfterUnsynced(t *testing.T) {
	t.Parallel()
	mem := vfs.NewCrashableMem()
	db, err := open(filepath.Join(t.TempDir(), "db"), slog.New(slog.DiscardHandler), mem)
	require.NoError(t, err)
	defer func() { require.NoError(t, db.Close()) }()
	commit := func(key string, synced bool) {
		b := db.NewBatch()
		require.NoError(t, b.Put([]byte(key), []byte(key)))
		if synced {
			require.NoError(t, b.Commit())
		} else {
			require.NoError(t, b.CommitUnsynced())
		}
	}
	// onDisk reopens what a crash of the machine now would leave, and reports whether key is there.
	// Opened with Pebble alone: the database's directory lock is held by db.
	onDisk := func(key string) bool {
		crashed, err := pebble.Open(db.Dir(), &pebble.Options{FS: mem.CrashClone(vfs.CrashCloneCfg{}), ReadOnly: true})
		require.NoError(t, err)
		defer func() { require.NoError(t, crashed.Close()) }()
		_, closer, err := crashed.Get([]byte(key))
		if errors.Is(err, pebble.ErrNotFound) {
			return false
		}
		require.NoError(t, err)
		require.NoError(t, closer.Close())
		return true
	}
	require.False(t, db.Unsynced())
	commit("a", true)
	require.False(t, db.Unsynced())
	commit("b", false)
	require.True(t, db.Unsynced())
	require.False(t, onDisk("b"), "an unsynced commit is not on disk before a sync")
	require.NoError(t, db.Sync())
	require.False(t, db.Unsynced())
	require.True(t, onDisk("b"))
	require.NoError(t, db.Sync(), "nothing to sync")
	commit("c", false)
	commit("d", true)
	require.False(t, db.Unsynced(), "the synced commit covers the unsynced one before it")
	require.True(t, onDisk("c"))
}
