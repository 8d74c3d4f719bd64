package storage

import (
	"fmt"

	"github.com/cockroachdb/pebble/v2"
)

// recycledLogSize is how much of the write-ahead log PrimeLog makes fast to sync: about
// 500 of a developer's mined blocks or roll-backs, each a few KiB.
const recycledLogSize = 1 << 20

// PrimeLog starts making the write-ahead log one whose first recycledLogSize bytes already
// exist on disk, and returns at once; Close waits for it.
//
// A synced commit ends with an fdatasync of the log. Into a log file Pebble has just made,
// each commit appends: the file's size changes (and its preallocated blocks turn from
// unwritten to written), so the fdatasync also commits the file system's journal, about
// 0.1 ms more on this project's machines (docs/benchmarks.md). Pebble writes a recycled log
// file over its old bytes instead, which syncs the data alone; but it recycles only the logs
// of this run, and only once a memtable is flushed, 4 MiB of writes in. So the log a node
// starts with appends for its first thousands of synced commits, which is the whole of a
// developer's session. PrimeLog writes recycledLogSize bytes of log data (a record Pebble's
// replay skips) and rotates the log twice: the first log, now that long, is recycled as the
// third, the one commits then write into. It changes no key, so a crash during it loses
// nothing. Failing only costs speed: it is logged, not returned.
func (db *DB) PrimeLog() {
	if db.begin() != nil {
		return
	}
	go func() {
		defer db.inflight.Done()
		if err := db.primeLog(); err != nil {
			db.log.Warn("recycle the write-ahead log", "err", err)
		}
	}()
}

// primeLog is PrimeLog's work, on its goroutine.
func (db *DB) primeLog() error {
	pad := make([]byte, recycledLogSize)
	for range 2 {
		// Unsynced: the rotation that follows syncs the log it closes.
		if err := db.pdb.LogData(pad, pebble.NoSync); err != nil {
			return fmt.Errorf("write log data: %w", err)
		}
		if err := db.pdb.Flush(); err != nil {
			return fmt.Errorf("rotate log: %w", err)
		}
	}
	return nil
}
