package main

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/wallet"
)

// sample is the process's resources and the chains' heights at one moment. The process holds
// both the node and the load, so heap, goroutines and descriptors count the clients too.
type sample struct {
	at         time.Duration // since the load started
	heapInuse  uint64
	goroutines int
	fds        int
	diskBytes  int64
	// heights are the last accepted heights of X, P, C and the L1, -1 when unread.
	heights [4]int64
}

// chainNames names the entries of sample.heights.
var chainNames = [4]string{"X", "P", "C", "L1"}

// sampler reads samples. Its methods are safe for concurrent use.
type sampler struct {
	clk    clock.Clock
	dbDir  string
	c      *wallet.Client
	cChain *ethclient.Client
	l1     *ethclient.Client
	start  time.Time

	mu      sync.Mutex
	samples []sample
}

// take reads one sample, after a garbage collection if gc is set, and returns it; keep adds it
// to the series.
func (s *sampler) take(ctx context.Context, gc, keep bool) sample {
	if gc {
		runtime.GC()
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	sm := sample{
		at:         s.clk.Now().Sub(s.start),
		heapInuse:  ms.HeapInuse,
		goroutines: runtime.NumGoroutine(),
		fds:        openFDs(),
		diskBytes:  dirSize(s.dbDir),
		heights:    [4]int64{-1, -1, -1, -1},
	}
	var h struct {
		Height uint64 `json:"height,string"`
	}
	if err := s.c.Call(ctx, "/ext/bc/X", "avm.getHeight", nil, &h); err == nil {
		sm.heights[0] = int64(h.Height)
	}
	if err := s.c.Call(ctx, "/ext/bc/P", "platform.getHeight", nil, &h); err == nil {
		sm.heights[1] = int64(h.Height)
	}
	for i, ec := range []*ethclient.Client{s.cChain, s.l1} {
		if n, err := ec.BlockNumber(ctx); err == nil {
			sm.heights[2+i] = int64(n)
		}
	}
	if keep {
		s.mu.Lock()
		s.samples = append(s.samples, sm)
		s.mu.Unlock()
	}
	return sm
}

// run takes a sample every interval until ctx is done.
func (s *sampler) run(ctx context.Context, interval time.Duration) {
	for clock.Sleep(ctx, s.clk, interval) == nil {
		s.take(ctx, false, true)
	}
}

// series returns a copy of the samples taken by run.
func (s *sampler) series() []sample {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]sample(nil), s.samples...)
}

// openFDs counts the process's open file descriptors, -1 where /proc is missing.
func openFDs() int {
	es, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return -1
	}
	return len(es)
}

// dirSize adds up the sizes of the regular files under dir: the Pebble database's disk usage
// (tables, WAL, manifests). Files that vanish during the walk (a compaction) are skipped.
func dirSize(dir string) int64 {
	var n int64
	_ = filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return nil
		}
		if info, err := d.Info(); err == nil {
			n += info.Size()
		}
		return nil
	})
	return n
}
