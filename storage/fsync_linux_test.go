package storage

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// BenchmarkFdatasync is the floor of a synced commit on the disk that holds the temporary
// directory (put TMPDIR on the data dir's disk): a 512-byte write into a file whose blocks
// exist, then fdatasync, as Pebble ends a synced commit on Linux (its log file recycled). BenchmarkBatchCommit
// is the same through Pebble. docs/benchmarks.md compares them with a synced roll-back.
func BenchmarkFdatasync(b *testing.B) {
	f, err := os.Create(filepath.Join(b.TempDir(), "wal"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	const blocks = 1024
	if _, err := f.Write(make([]byte, blocks*4096)); err != nil {
		b.Fatal(err)
	}
	if err := f.Sync(); err != nil {
		b.Fatal(err)
	}
	rec := make([]byte, 512)
	i := 0
	for b.Loop() {
		if _, err := f.WriteAt(rec, int64(i%blocks)*4096); err != nil {
			b.Fatal(err)
		}
		i++
		if err := syscall.Fdatasync(int(f.Fd())); err != nil {
			b.Fatal(err)
		}
	}
}
