package storage

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// activeLog returns the size of the newest write-ahead log file of db, the one Pebble writes.
func activeLog(t *testing.T, db *DB) int64 {
	t.Helper()
	ents, err := os.ReadDir(db.dir)
	require.NoError(t, err)
	var logs []string
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".log") {
			logs = append(logs, e.Name())
		}
	}
	require.NotEmpty(t, logs)
	slices.Sort(logs) // zero-padded numbers: the newest sorts last
	fi, err := os.Stat(filepath.Join(db.dir, logs[len(logs)-1]))
	require.NoError(t, err)
	return fi.Size()
}

// After primeLog the log Pebble writes is a recycled one at least recycledLogSize long, and a
// synced commit writes over its old bytes instead of growing it: the cheaper fdatasync. A log
// made at open is short and grows with each commit.
func TestPrimeLog(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	v := db.Prefixed(PrefixIndex)
	require.NoError(t, v.Put([]byte("a"), []byte("1")))
	fresh := activeLog(t, db)
	require.Less(t, fresh, int64(recycledLogSize))
	require.NoError(t, v.Put([]byte("b"), []byte("2")))
	require.Greater(t, activeLog(t, db), fresh, "a fresh log grows with each commit")

	require.NoError(t, db.primeLog())
	primed := activeLog(t, db)
	require.GreaterOrEqual(t, primed, int64(recycledLogSize))
	for i := range 100 {
		require.NoError(t, v.Put([]byte{'c', byte(i)}, []byte("3")))
	}
	require.Equal(t, primed, activeLog(t, db), "commits write over the recycled log's bytes")
	for _, k := range [][]byte{[]byte("a"), []byte("b"), {'c', 99}} {
		_, err := v.Get(k)
		require.NoError(t, err, string(k))
	}
}

// PrimeLog runs in the background; Close waits for it, and what was committed meanwhile is
// there after a reopen (the kill test, TestKillWhileReading, crashes into it too).
func TestPrimeLogClose(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "db")
	db, err := Open(dir, testLog(t))
	require.NoError(t, err)
	db.PrimeLog()
	v := db.Prefixed(PrefixIndex)
	for i := range 50 {
		require.NoError(t, v.Put([]byte{'k', byte(i)}, []byte{byte(i)}))
	}
	require.NoError(t, db.Close())
	db.PrimeLog() // closed: nothing to do

	db, err = Open(dir, testLog(t))
	require.NoError(t, err)
	defer func() { require.NoError(t, db.Close()) }()
	for i := range 50 {
		got, err := db.Prefixed(PrefixIndex).Get([]byte{'k', byte(i)})
		require.NoError(t, err)
		require.Equal(t, []byte{byte(i)}, got)
	}
}
