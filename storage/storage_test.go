package storage

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
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
