package storage

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/stretchr/testify/require"
)

// crashHelperEnv names the directory the crash helper process writes in.
const crashHelperEnv = "CORNICE_STORAGE_CRASH_HELPER_DIR"

// crashLinesEnv is how many lines the crash helper prints before it kills
// itself.
const crashLinesEnv = "CORNICE_STORAGE_CRASH_HELPER_LINES"

// crashWriters is how many goroutines of the helper commit at once.
const crashWriters = 2

// TestKillWhileReading pins "durable before visible" across a real crash:
// a helper process commits from several goroutines while others read and
// print, after the read returned, each new counter they saw.
// The helper kills itself with SIGKILL, from a reader, right after the
// line that makes a number that changes with each round (the parent could
// not kill it as fast); the test reads what the helper printed before it died,
// and reopens the database: every counter a reader saw must be there, with
// the entry of the batch that wrote it. Pebble on its own fails this: a
// batch is readable once in the memtable, while its WAL record may still be
// in the process's memory, which SIGKILL loses. Three rounds on one
// database, so recovery after a crash is crashed into again.
func TestKillWhileReading(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts and kills helper processes")
	}
	dir := filepath.Join(t.TempDir(), "db")
	for round, lines := range []int{2, 10, 30} {
		seen := killHelper(t, dir, lines)
		db, err := Open(dir, testLog(t))
		require.NoError(t, err, "round %d", round)
		for w, n := range seen {
			got, err := db.Get(counterKey(w))
			require.NoError(t, err, "round %d: writer %d's counter, seen at %d before the kill", round, w, n)
			have := binary.BigEndian.Uint64(got)
			require.GreaterOrEqual(t, have, n, "round %d: writer %d's counter went back after the kill", round, w)
			// The batch that wrote the counter is whole: its entry is there.
			ok, err := db.Has(entryKey(w, have))
			require.NoError(t, err)
			require.True(t, ok, "round %d: writer %d's entry %d is missing", round, w, have)
			ok, err = db.Has(entryKey(w, have+1))
			require.NoError(t, err)
			require.False(t, ok, "round %d: writer %d's entry %d is there without its counter", round, w, have+1)
		}
		require.NoError(t, db.Close())
		t.Logf("round %d: killed after %d lines; highest counters seen %v", round, lines, seen)
	}
}

// killHelper starts the helper on dir, which SIGKILLs itself once it has
// printed lines lines, and returns the highest counter the helper's readers saw
// for each writer, from every line it printed before it died.
func killHelper(t *testing.T, dir string, lines int) map[int]uint64 {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestCrashHelperProcess$", "-test.v=false")
	cmd.Env = append(os.Environ(), crashHelperEnv+"="+dir, crashLinesEnv+"="+strconv.Itoa(lines))
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Start())
	seen := make(map[int]uint64)
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		var w int
		var n uint64
		_, err := fmt.Sscanf(sc.Text(), "%d %d", &w, &n)
		require.NoError(t, err, "helper line %q", sc.Text())
		seen[w] = max(seen[w], n)
	}
	require.NoError(t, sc.Err())
	err = cmd.Wait()
	exit, ok := errors.AsType[*exec.ExitError](err)
	require.True(t, ok, "helper ended with %v; stderr: %s", err, stderr.String())
	require.Equal(t, syscall.SIGKILL, exit.Sys().(syscall.WaitStatus).Signal(), "stderr: %s", stderr.String())
	return seen
}

// TestCrashHelperProcess is not a test: it is the helper process of
// TestKillWhileReading, and does nothing unless run as one.
func TestCrashHelperProcess(t *testing.T) {
	dir := os.Getenv(crashHelperEnv)
	if dir == "" {
		t.Skip("helper process only")
	}
	lines, err := strconv.Atoi(os.Getenv(crashLinesEnv))
	if err == nil {
		err = runCrashHelper(dir, lines)
	}
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}

// runCrashHelper commits and reads until it is killed or fails. Each
// writer's batch puts its next entry and its counter; the readers read the
// counters by Get and by iterator, and print each one they read.
func runCrashHelper(dir string, lines int) error {
	db, err := open(dir, testLog(discardTB{}), slowWALFS{vfs.Default})
	if err != nil {
		return err
	}
	// The log is recycled while the writers commit (PrimeLog), as the node does at start: the
	// kill may come before, during or after it, in any round.
	db.PrimeLog()
	errs := make(chan error, 2*crashWriters)
	var out sync.Mutex
	// reported is the highest counter of each writer printed so far: a
	// line is printed for each new one only, so that the lines count
	// commits seen rather than reads.
	var reported [crashWriters]uint64
	report := func(w int, val []byte) error {
		if len(val) != 8 || w < 0 || w >= crashWriters {
			return fmt.Errorf("writer %d's counter is %x", w, val)
		}
		n := binary.BigEndian.Uint64(val)
		out.Lock()
		defer out.Unlock()
		if n <= reported[w] {
			return nil
		}
		reported[w] = n
		// Unbuffered: once the line is written, the parent will see it.
		if _, err := fmt.Fprintf(os.Stdout, "%d %d\n", w, n); err != nil {
			return err
		}
		if lines--; lines == 0 {
			// At once, from the reader: a commit may be anywhere in its
			// course, perhaps the one whose write was just read.
			return syscall.Kill(os.Getpid(), syscall.SIGKILL)
		}
		return nil
	}
	for w := range crashWriters {
		go func() {
			n := uint64(0)
			if v, err := db.Get(counterKey(w)); err == nil {
				n = binary.BigEndian.Uint64(v)
			}
			entry := make([]byte, 1024)
			for {
				n++
				b := db.NewBatch()
				if err := errors.Join(b.Put(entryKey(w, n), entry), b.Put(counterKey(w), binary.BigEndian.AppendUint64(nil, n)), b.Commit()); err != nil {
					errs <- err
					return
				}
			}
		}()
		go func() {
			for {
				val, err := db.Get(counterKey(w))
				if errors.Is(err, ErrNotFound) {
					continue
				}
				if err == nil {
					err = report(w, val)
				}
				if err == nil {
					err = readCountersByIterator(db, report)
				}
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	return <-errs
}

// readCountersByIterator reports every counter through one iterator.
func readCountersByIterator(db *DB, report func(w int, val []byte) error) error {
	it, err := db.NewIterator([]byte("c"), nil)
	if err != nil {
		return err
	}
	for it.Next() {
		var w int
		if _, err := fmt.Sscanf(string(it.Key()), "c%d", &w); err != nil {
			return errors.Join(err, it.Close())
		}
		if err := report(w, it.Value()); err != nil {
			return errors.Join(err, it.Close())
		}
	}
	return errors.Join(it.Err(), it.Close())
}

// counterKey holds writer w's last committed entry number.
func counterKey(w int) []byte { return fmt.Appendf(nil, "c%d", w) }

// entryKey is writer w's n-th entry.
func entryKey(w int, n uint64) []byte {
	return binary.BigEndian.AppendUint64(fmt.Appendf(nil, "e%d/", w), n)
}

// slowWALFS delays every write to a WAL file by a millisecond, before the
// write reaches the file: it widens the moment in which Pebble has already
// applied a batch to its memtable, where Pebble's own readers see it, but
// the batch is still in the process's memory only, and SIGKILL loses it.
// Without it that moment lasts microseconds, and a crash test rarely hits
// it; with it a store that let readers see the memtable fails
// TestKillWhileReading.
type slowWALFS struct{ vfs.FS }

func (fs slowWALFS) Create(name string, category vfs.DiskWriteCategory) (vfs.File, error) {
	f, err := fs.FS.Create(name, category)
	return slowWAL(name, f), err
}

func (fs slowWALFS) ReuseForWrite(oldname, newname string, category vfs.DiskWriteCategory) (vfs.File, error) {
	f, err := fs.FS.ReuseForWrite(oldname, newname, category)
	return slowWAL(newname, f), err
}

// slowWAL wraps f in a slowFile when name is a WAL file.
func slowWAL(name string, f vfs.File) vfs.File {
	if f == nil || !strings.HasSuffix(name, ".log") {
		return f
	}
	return slowFile{f}
}

type slowFile struct{ vfs.File }

func (f slowFile) Write(p []byte) (int, error) {
	time.Sleep(time.Millisecond)
	return f.File.Write(p)
}
