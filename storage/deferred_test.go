package storage

import (
	"errors"
	"log/slog"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// stageOne stages, deferred, a batch of v that puts k=val and counts its OnCommit calls in ran.
func stageOne(t *testing.T, v *View, k, val string, ran *int) *Deferred {
	t.Helper()
	b := v.NewBatch()
	require.NoError(t, b.Put([]byte(k), []byte(val)))
	b.OnCommit(func() { *ran++ })
	d, err := b.CommitDeferred()
	require.NoError(t, err)
	require.ErrorIs(t, b.Commit(), ErrBatchDone, "the batch is ended once staged")
	return d
}

// Every kind of read that begins after CommitDeferred has returned sees the staged batch,
// applied by that read, before its owner's Apply; Apply then has nothing left to do, and the
// batch's OnCommit ran once.
func TestCommitDeferredReadApplies(t *testing.T) {
	t.Parallel()
	reads := map[string]func(t *testing.T, v *View) string{
		"get": func(t *testing.T, v *View) string {
			got, err := v.Get([]byte("k"))
			require.NoError(t, err)
			return string(got)
		},
		"has": func(t *testing.T, v *View) string {
			ok, err := v.Has([]byte("k"))
			require.NoError(t, err)
			require.True(t, ok)
			return "v"
		},
		"iterator": func(t *testing.T, v *View) string { return collect(t, v, nil, nil)["k"] },
		"live": func(t *testing.T, v *View) string {
			got, err := v.Live().Get([]byte("k"))
			require.NoError(t, err)
			return string(got)
		},
		"pin": func(t *testing.T, v *View) string {
			p, release := v.Pin()
			defer release()
			got, err := p.Get([]byte("k"))
			require.NoError(t, err)
			return string(got)
		},
	}
	for name, read := range reads {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			db := openTest(t)
			v := db.Prefixed(PrefixMeta).Prefixed([]byte("t"))
			ran := 0
			d := stageOne(t, v, "k", "v", &ran)
			require.Equal(t, "v", read(t, v))
			require.Equal(t, 1, ran)
			require.NoError(t, d.Apply())
			require.NoError(t, d.Apply())
			require.Equal(t, 1, ran, "applied once")
			require.True(t, db.Unsynced(), "applied as CommitUnsynced applies")
			require.NoError(t, db.Sync())
			require.False(t, db.Unsynced())
		})
	}
}

// Reads on other goroutines that begin after CommitDeferred has returned all see the batch,
// while its owner applies it concurrently (run with -race).
func TestCommitDeferredConcurrentReads(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	v := db.Prefixed(PrefixMeta).Prefixed([]byte("t"))
	require.NoError(t, v.Put([]byte("k"), []byte("before")))
	for range 20 {
		b := v.NewBatch()
		require.NoError(t, b.Put([]byte("k"), []byte("after")))
		d, err := b.CommitDeferred()
		require.NoError(t, err)
		var wg sync.WaitGroup
		for range 4 {
			wg.Go(func() {
				got, err := v.Get([]byte("k"))
				require.NoError(t, err)
				require.Equal(t, "after", string(got))
			})
		}
		require.NoError(t, d.Apply())
		wg.Wait()
		require.NoError(t, v.Put([]byte("k"), []byte("before")))
	}
}

// A commit, another deferred batch or Sync applies a staged batch first, so that the log holds
// the writes in the order they were made: the later write of a key wins.
func TestCommitDeferredOrder(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	v := db.Prefixed(PrefixMeta).Prefixed([]byte("t"))
	ran := 0
	d := stageOne(t, v, "k", "first", &ran)
	require.NoError(t, v.Put([]byte("k"), []byte("second")))
	require.Equal(t, 1, ran)
	require.NoError(t, d.Apply())
	got, err := v.Get([]byte("k"))
	require.NoError(t, err)
	require.Equal(t, "second", string(got))

	d1 := stageOne(t, v, "k", "third", &ran)
	d2 := stageOne(t, v, "k", "fourth", &ran)
	require.Equal(t, 2, ran, "staging the fourth applied the third")
	require.NoError(t, d2.Apply())
	require.NoError(t, d1.Apply())
	got, err = v.Get([]byte("k"))
	require.NoError(t, err)
	require.Equal(t, "fourth", string(got))

	stageOne(t, v, "k", "fifth", &ran)
	require.NoError(t, db.Sync())
	require.Equal(t, 4, ran, "Sync applied the fifth")
	require.False(t, db.Unsynced(), "and synced it")
}

// Close applies a staged batch its owner has not, and keeps it: the database is flushed.
func TestCommitDeferredClose(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "db")
	db, err := Open(dir, slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	ran := 0
	d := stageOne(t, db.root, "k", "v", &ran)
	require.NoError(t, db.Close())
	require.Equal(t, 1, ran)
	require.NoError(t, d.Apply(), "applied by Close")
	b := db.NewBatch()
	_, err = b.CommitDeferred()
	require.ErrorIs(t, err, ErrClosed)

	db, err = Open(dir, slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	defer func() { require.NoError(t, db.Close()) }()
	got, err := db.Get([]byte("k"))
	require.NoError(t, err)
	require.Equal(t, "v", string(got))
}

// OnCommit runs after Commit and CommitUnsynced, in order, and never for a discarded batch.
func TestBatchOnCommit(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	var got []string
	for _, commit := range []func(*Batch) error{(*Batch).Commit, (*Batch).CommitUnsynced, nil} {
		b := db.NewBatch()
		require.NoError(t, b.Put([]byte("k"), []byte("v")))
		n := len(got)
		b.OnCommit(func() { got = append(got, "a") })
		b.OnCommit(func() { got = append(got, "b") })
		if commit == nil {
			b.Close()
			require.Len(t, got, n, "discarded: not run")
			continue
		}
		require.NoError(t, commit(b))
		require.Equal(t, []string{"a", "b"}, got[n:])
	}
}

// A deferred batch whose commit fails was not applied, but its owner may have answered a
// client already: every later read, commit, Sync and deferred batch fails with its error rather
// than show the database without it, until a restart, which finds the database without it.
func TestCommitDeferredFails(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "db")
	db, err := Open(dir, slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	boom := errors.New("disk gone")
	db.failApply = func() error { return boom }
	v := db.Prefixed(PrefixMeta).Prefixed([]byte("t"))
	ran := 0
	d := stageOne(t, v, "k", "v", &ran)
	_, err = v.Get([]byte("k"))
	require.ErrorIs(t, err, boom)
	_, err = v.Has([]byte("other"))
	require.ErrorIs(t, err, boom)
	_, err = v.NewIterator(nil, nil)
	require.ErrorIs(t, err, boom)
	p, release := v.Pin()
	_, err = p.Get([]byte("k"))
	require.ErrorIs(t, err, boom)
	release()
	require.ErrorIs(t, v.Put([]byte("other"), []byte("x")), boom)
	require.ErrorIs(t, db.Sync(), boom)
	b := v.NewBatch()
	_, err = b.CommitDeferred()
	require.ErrorIs(t, err, boom)
	require.ErrorIs(t, d.Apply(), boom)
	require.Zero(t, ran, "not applied: no OnCommit")
	require.NoError(t, db.Close())

	db, err = Open(dir, slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	defer func() { require.NoError(t, db.Close()) }()
	_, err = db.Prefixed(PrefixMeta).Prefixed([]byte("t")).Get([]byte("k"))
	require.ErrorIs(t, err, ErrNotFound)
}
