package storage

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
)

// testLog logs to the test's output.
func testLog(t testing.TB) *slog.Logger {
	return slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// openTest opens a database in a fresh temp dir and closes it at cleanup.
func openTest(t testing.TB) *DB {
	t.Helper()
	db, err := Open(filepath.Join(t.TempDir(), "db"), slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, db.Close()) })
	return db
}

func TestOpenCreatesDirPrivate(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "data", "db")
	db, err := Open(dir, testLog(t))
	require.NoError(t, err)
	require.NoError(t, db.Close())
	for _, d := range []string{dir, filepath.Dir(dir)} {
		fi, err := os.Stat(d)
		require.NoError(t, err)
		require.True(t, fi.IsDir())
		require.Zero(t, fi.Mode().Perm()&0o007, "%s is world-accessible: %v", d, fi.Mode())
	}
	require.FileExists(t, filepath.Join(dir, "LOCK"))
}

func TestReopenKeepsData(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "db")
	db, err := Open(dir, testLog(t))
	require.NoError(t, err)
	require.NoError(t, db.Put([]byte("k"), []byte("v")))
	b := db.root.Prefixed([]byte("c")).NewBatch()
	require.NoError(t, b.Put([]byte("k2"), []byte("v2")))
	require.NoError(t, b.Commit())
	require.NoError(t, db.Close())

	db, err = Open(dir, testLog(t))
	require.NoError(t, err)
	defer func() { require.NoError(t, db.Close()) }()
	got, err := db.Get([]byte("k"))
	require.NoError(t, err)
	require.Equal(t, []byte("v"), got)
	got, err = db.Get([]byte("ck2"))
	require.NoError(t, err)
	require.Equal(t, []byte("v2"), got)
}

func TestCloseIdempotentAndClosedErrors(t *testing.T) {
	t.Parallel()
	db, err := Open(filepath.Join(t.TempDir(), "db"), testLog(t))
	require.NoError(t, err)
	v := db.root.Prefixed([]byte("v"))
	pending := v.NewBatch()
	require.NoError(t, pending.Put([]byte("k"), []byte("v")))

	require.NoError(t, db.Close())
	require.NoError(t, db.Close())

	_, err = db.Get([]byte("k"))
	require.ErrorIs(t, err, ErrClosed)
	_, err = v.Has([]byte("k"))
	require.ErrorIs(t, err, ErrClosed)
	require.ErrorIs(t, db.Put([]byte("k"), nil), ErrClosed)
	require.ErrorIs(t, v.Delete([]byte("k")), ErrClosed)
	_, err = v.NewIterator(nil, nil)
	require.ErrorIs(t, err, ErrClosed)
	require.ErrorIs(t, db.Ping(t.Context()), ErrClosed)
	require.ErrorIs(t, pending.Commit(), ErrClosed)
	require.ErrorIs(t, db.NewBatch().Commit(), ErrClosed)
}

func TestCloseWaitsForIterators(t *testing.T) {
	t.Parallel()
	db, err := Open(filepath.Join(t.TempDir(), "db"), testLog(t))
	require.NoError(t, err)
	require.NoError(t, db.Put([]byte("a"), []byte("1")))
	it, err := db.NewIterator([]byte("a"), nil)
	require.NoError(t, err)

	closed := make(chan error)
	go func() { closed <- db.Close() }()
	// Close cannot finish while the iterator is open; the iterator still
	// works meanwhile.
	require.True(t, it.Next())
	require.Equal(t, []byte("a"), it.Key())
	require.NoError(t, it.Close())
	require.NoError(t, <-closed)
}

func TestPing(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	require.NoError(t, db.Ping(t.Context()))
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	require.ErrorIs(t, db.Ping(ctx), context.Canceled)
}

// TestReadsDuringCommit pins "durable before visible" (package doc) and
// reads that never wait: a commit is paused inside its critical section,
// after Pebble has applied and synced it (where Pebble alone already shows
// it to readers). A Get, Has or NewIterator of one of its keys started
// meanwhile returns while the commit is still paused (were it to wait, the
// test would hang), with the state before the commit; one started after
// the commit returned sees the write. A live view (View.Live), which skips
// the published state, sees the write during the pause: that is why only
// the committing goroutine may use one.
func TestReadsDuringCommit(t *testing.T) {
	t.Parallel()
	key := []byte("k")
	type state struct {
		present bool
		value   []byte
	}
	writers := []struct {
		name string
		// setup runs before the hook is armed; write is the paused commit.
		setup func(t *testing.T, v *View)
		write func(v *View) error
		// before and after are the key's state before and after write.
		before, after state
	}{
		{
			name:  "Batch.Commit",
			setup: func(*testing.T, *View) {},
			write: func(v *View) error {
				b := v.NewBatch()
				if err := b.Put([]byte("other"), []byte("x")); err != nil {
					return err
				}
				if err := b.Put(key, []byte("batch")); err != nil {
					return err
				}
				return b.Commit()
			},
			after: state{true, []byte("batch")},
		},
		{
			name:  "Put",
			setup: func(*testing.T, *View) {},
			write: func(v *View) error { return v.Put(key, []byte("put")) },
			after: state{true, []byte("put")},
		},
		{
			name:   "Delete",
			setup:  func(t *testing.T, v *View) { require.NoError(t, v.Put(key, []byte("old"))) },
			write:  func(v *View) error { return v.Delete(key) },
			before: state{true, []byte("old")},
		},
	}
	readers := []struct {
		name string
		// noValue: read reports presence only.
		noValue bool
		read    func(v *View) (state, error)
	}{
		{"Get", false, func(v *View) (state, error) {
			got, err := v.Get(key)
			if errors.Is(err, ErrNotFound) {
				return state{}, nil
			}
			return state{err == nil, got}, err
		}},
		{"Has", true, func(v *View) (state, error) {
			ok, err := v.Has(key)
			return state{present: ok}, err
		}},
		{"NewIterator", false, func(v *View) (state, error) {
			it, err := v.NewIterator(key, nil)
			if err != nil {
				return state{}, err
			}
			var st state
			if it.Next() {
				st = state{bytes.Equal(it.Key(), key), bytes.Clone(it.Value())}
			}
			return st, errors.Join(it.Err(), it.Close())
		}},
	}
	for _, w := range writers {
		for _, r := range readers {
			t.Run(w.name+"/"+r.name, func(t *testing.T) {
				t.Parallel()
				db := openTest(t)
				v := db.Prefixed(PrefixIndex).Prefixed([]byte("view/"))
				w.setup(t, v)

				entered, release := make(chan struct{}), make(chan struct{})
				db.afterCommit = func() {
					close(entered)
					<-release
				}
				var released atomic.Bool
				// On a failure, free the commit so that the DB can close.
				t.Cleanup(func() {
					if !released.Swap(true) {
						close(release)
					}
				})
				committed := make(chan error, 1)
				go func() { committed <- w.write(v) }()
				<-entered

				check := func(v *View, want state) {
					t.Helper()
					got, err := r.read(v)
					require.NoError(t, err)
					if len(got.value) == 0 {
						got.value = nil
					}
					if r.noValue {
						want.value = nil
					}
					require.Equal(t, want, got)
				}
				// Pebble has applied and synced the write; it is not
				// published yet.
				check(v, w.before)
				check(v.Live(), w.after)
				require.False(t, released.Load())

				released.Store(true)
				close(release)
				require.NoError(t, <-committed)
				check(v, w.after)
			})
		}
	}
}

// TestCommitWithIteratorOpen: an open iterator holds no lock, so the
// goroutine that has it may commit, and the iterator keeps its snapshot.
func TestCommitWithIteratorOpen(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	require.NoError(t, db.Put([]byte("a"), []byte("1")))
	it, err := db.NewIterator([]byte("a"), nil)
	require.NoError(t, err)
	b := db.NewBatch()
	require.NoError(t, b.Put([]byte("a2"), []byte("2")))
	require.NoError(t, b.Commit())
	require.NoError(t, db.Put([]byte("a3"), []byte("3")))
	var keys []string
	for it.Next() {
		keys = append(keys, string(it.Key()))
	}
	require.NoError(t, errors.Join(it.Err(), it.Close()))
	require.Equal(t, []string{"a"}, keys)
	got, err := db.Get([]byte("a3"))
	require.NoError(t, err)
	require.Equal(t, []byte("3"), got)
}

// TestPublishedStatesReleased: each commit replaces the published state,
// and an old one lives only as long as a reader still uses it, so Pebble
// keeps one snapshot (the current state) plus one per open iterator of an
// older state; a leak would make Pebble keep every overwritten key.
func TestPublishedStatesReleased(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	snapshots := func() int { return db.pdb.Metrics().Snapshots.Count }
	require.Equal(t, 1, snapshots())
	for i := range 10 {
		require.NoError(t, db.Put([]byte("k"), []byte{byte(i)}))
		_, err := db.Get([]byte("k"))
		require.NoError(t, err)
	}
	require.Equal(t, 1, snapshots())

	it, err := db.NewIterator([]byte("k"), nil)
	require.NoError(t, err)
	require.NoError(t, db.Put([]byte("k"), []byte("new")))
	require.NoError(t, db.Put([]byte("k"), []byte("newer")))
	require.Equal(t, 2, snapshots(), "the iterator's state and the current one")
	require.True(t, it.Next())
	require.Equal(t, []byte{9}, it.Value())
	require.NoError(t, it.Close())
	require.Equal(t, 1, snapshots())

	live, err := db.root.Live().NewIterator(nil, nil)
	require.NoError(t, err)
	require.Equal(t, 1, snapshots(), "a live iterator pins no published state")
	require.NoError(t, live.Close())
}

// TestConcurrentReadsAndCommits runs readers and committers together (for
// the race detector): each committer's writes are visible once its commit
// returned.
func TestConcurrentReadsAndCommits(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	const writers, rounds = 2, 20
	errs := make(chan error, writers*rounds+2)
	var readers sync.WaitGroup
	stop := make(chan struct{})
	for range 2 {
		readers.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				it, err := db.NewIterator([]byte("w"), nil)
				if err != nil {
					errs <- err
					return
				}
				for it.Next() {
				}
				if err := errors.Join(it.Err(), it.Close()); err != nil {
					errs <- err
					return
				}
				if _, err := db.Has([]byte("w0/0")); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	var ww sync.WaitGroup
	for w := range writers {
		ww.Go(func() {
			for i := range rounds {
				k := fmt.Appendf(nil, "w%d/%d", w, i)
				b := db.NewBatch()
				if err := errors.Join(b.Put(k, k), b.Commit()); err != nil {
					errs <- err
					return
				}
				if got, err := db.Get(k); err != nil || !bytes.Equal(got, k) {
					errs <- fmt.Errorf("read %s back after its commit: %q, %w", k, got, err)
					return
				}
			}
		})
	}
	ww.Wait()
	close(stop)
	readers.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
}
