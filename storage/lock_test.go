package storage

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// lockHelperEnv names the directory the helper process opens.
const lockHelperEnv = "CORNICE_STORAGE_LOCK_HELPER_DIR"

func requireLocked(t *testing.T, dir string, err error) {
	t.Helper()
	require.ErrorIs(t, err, ErrLocked)
	require.Equal(t,
		"database "+dir+" is locked by another process (is another cornice running on this data dir?)",
		err.Error())
}

// TestOpenLockedInProcess: Pebble's lock is per process (fcntl), so Pebble
// keeps its own table of locks held by this process; a second Open here is
// refused by it, and must read as ErrLocked too.
func TestOpenLockedInProcess(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "db")
	first, err := Open(dir, testLog(t))
	require.NoError(t, err)
	require.NoError(t, first.Put([]byte("k"), []byte("first")))

	second, err := Open(dir, testLog(t))
	require.Nil(t, second)
	requireLocked(t, dir, err)

	// The first is untouched and still works.
	require.NoError(t, first.Put([]byte("k2"), []byte("still")))
	got, err := first.Get([]byte("k"))
	require.NoError(t, err)
	require.Equal(t, []byte("first"), got)
	require.NoError(t, first.Close())

	// Once it is closed, the lock is free again.
	again, err := Open(dir, testLog(t))
	require.NoError(t, err)
	got, err = again.Get([]byte("k2"))
	require.NoError(t, err)
	require.Equal(t, []byte("still"), got)
	require.NoError(t, again.Close())
}

// TestOpenLockedByOtherProcess runs this test binary again as a helper
// that holds the database open, then opens the same dir here.
func TestOpenLockedByOtherProcess(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "db")
	cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestLockHelperProcess$", "-test.v=false")
	cmd.Env = append(os.Environ(), lockHelperEnv+"="+dir)
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Start())
	out := bufio.NewReader(stdout)
	line, err := out.ReadString('\n')
	require.NoError(t, err, "helper stderr: %s", stderr.String())
	require.Equal(t, "open\n", line)

	db, err := Open(dir, testLog(t))
	require.Nil(t, db)
	requireLocked(t, dir, err)

	// The helper still reads and writes its database, then closes it.
	require.NoError(t, stdin.Close())
	rest, err := io.ReadAll(out)
	require.NoError(t, err)
	require.Equal(t, "ok\n", string(rest), "helper stderr: %s", stderr.String())
	require.NoError(t, cmd.Wait())

	db, err = Open(dir, testLog(t))
	require.NoError(t, err)
	defer func() { require.NoError(t, db.Close()) }()
	got, err := db.Get([]byte("helper"))
	require.NoError(t, err)
	require.Equal(t, []byte("after"), got)
}

// TestLockHelperProcess is not a test: it is the helper process of
// TestOpenLockedByOtherProcess, and does nothing unless run as one.
func TestLockHelperProcess(t *testing.T) {
	dir := os.Getenv(lockHelperEnv)
	if dir == "" {
		t.Skip("helper process only")
	}
	if err := runLockHelper(dir); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(0)
}

func runLockHelper(dir string) error {
	db, err := Open(dir, testLog(discardTB{}))
	if err != nil {
		return err
	}
	if err := db.Put([]byte("helper"), []byte("before")); err != nil {
		return err
	}
	fmt.Println("open")
	// Hold the lock until the parent closes our stdin.
	if _, err := io.Copy(io.Discard, os.Stdin); err != nil {
		return err
	}
	if err := db.Put([]byte("helper"), []byte("after")); err != nil {
		return err
	}
	if got, err := db.Get([]byte("helper")); err != nil || string(got) != "after" {
		return fmt.Errorf("read back %q, %v", got, err)
	}
	if err := db.Close(); err != nil {
		return err
	}
	fmt.Println("ok")
	return nil
}

// discardTB gives testLog a writer that drops everything.
type discardTB struct{ testing.TB }

func (discardTB) Output() io.Writer { return io.Discard }
