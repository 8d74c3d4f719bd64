// Package gcfloor keeps the garbage collector from running while the Go heap is smaller than a
// floor, as the runtime itself does below 4 MB, but with a floor sized for a node.
//
// With GOGC at 100 the heap goal is twice the live heap. A node at rest holds 2–3 MB of live
// heap, so a light request load (info.getNodeVersion at 20,000 calls a second, about 2.5 KB
// allocated per call) ran a collection every 1,000 calls, and every collection marks the node's
// live heap, globals and goroutine stacks again: a sixth of the node's CPU per call, against a
// twentieth for a bare net/http server whose heap is nearly empty (docs/benchmarks.md, issue
// #11 §4). Under the floor the goal is the floor instead; above it GOGC applies unchanged, so a
// node whose live heap is half the floor or more (the C-Chain under load, any larger state)
// keeps exactly the memory bounds it had.
//
// The floor holds only while the node is busy: while collections come less than BusyInterval
// apart. A node at rest collects every two minutes (the runtime's forced cycle) or less often;
// then the goal falls back to GOGC's and the runtime's scavenger returns the floor's pages, so an
// idle node holds what it held without the floor.
package gcfloor

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"time"
)

// DefaultFloor is the floor of `cornice run`: the Go heap goal is never below 16 MiB. Small next
// to what the process maps anyway (the binary's own pages are about 35 MiB of its resident
// memory), and it makes a collection every 13 MiB or so of allocation at rest instead of every
// 2–3 MiB.
const DefaultFloor = 16 << 20

// BusyInterval is how close two collections must come for the node to count as busy. Under a
// load worth the floor (thousands of calls a second) they come tens of milliseconds apart.
const BusyInterval = time.Second

// heapMinimum is the runtime's smallest heap goal at GOGC=100 (defaultHeapMinimum in
// runtime/mgcpacer.go); it scales with GOGC, so a raised GOGC raises it too.
const heapMinimum = 4 << 20

// The runtime's live heap (the bytes the last cycle marked) and GOGC.
const (
	liveMetric = "/gc/heap/live:bytes"
	gogcMetric = "/gc/gogc:percent"
)

// read returns the runtime metric name, one of the uint64 metrics above.
func read(name string) uint64 {
	s := []metrics.Sample{{Name: name}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// Keeper holds the heap goal at the floor while the live heap is below half of it. Stop it to
// give GOGC back its value.
type Keeper struct {
	floor uint64
	base  int // GOGC as found at Start

	mu      sync.Mutex
	stopped bool
	set     int       // the GOGC last set
	last    time.Time // when the last collection ended, as adjust saw it
}

// sentinel is allocated once per collection cycle: its cleanup runs after the cycle that found it
// unreachable. It holds a pointer so that it is never one of the tiny allocator's combined
// blocks, which can outlive a cycle.
type sentinel struct{ _ *byte }

// Start keeps the heap goal at floor bytes at least, re-reading the live heap after every
// collection, and returns the Keeper to stop. When GOGC is set in the environment or GC is off,
// it changes nothing: the operator's choice stands.
func Start(floor uint64) *Keeper {
	base := int(read(gogcMetric))
	k := &Keeper{floor: floor, base: base, set: base}
	if _, ok := os.LookupEnv("GOGC"); ok || base < 0 {
		k.stopped = true
		return k
	}
	k.adjust()
	k.arm()
	return k
}

// arm registers the next cycle's sentinel.
func (k *Keeper) arm() {
	runtime.AddCleanup(&sentinel{}, func(k *Keeper) {
		k.mu.Lock()
		stopped := k.stopped
		k.mu.Unlock()
		if stopped {
			return
		}
		k.adjust()
		k.arm()
	}, k)
}

// adjust sets GOGC so that the next goal is max(floor, live × (1 + base/100)) while the node is
// busy (this collection came within BusyInterval of the one before), and live × (1 + base/100)
// otherwise.
func (k *Keeper) adjust() {
	live := read(liveMetric)
	now := time.Now()
	k.mu.Lock()
	defer k.mu.Unlock()
	floor := uint64(0)
	if !k.last.IsZero() && now.Sub(k.last) < BusyInterval {
		floor = k.floor
	}
	k.last = now
	want := percent(live, floor, k.base)
	if k.stopped || want == k.set {
		return
	}
	debug.SetGCPercent(want)
	k.set = want
}

// percent is the GOGC that gives a heap goal of max(floor, live × (1 + base/100)). The runtime's
// goal is max(live × (1 + GOGC/100), heapMinimum × GOGC/100): the GOGC of a floor is at most
// floor / heapMinimum × 100, which sets the goal at the floor for any smaller live heap (none
// known yet, before the first cycle, included).
func percent(live, floor uint64, base int) int {
	top := int(floor * 100 / heapMinimum)
	if top <= base || live*uint64(100+base) >= floor*100 {
		return base
	}
	if live == 0 {
		return top
	}
	// live × (1 + p/100) = floor, rounded up so that the goal reaches the floor.
	p := (floor*100+live-1)/live - 100
	return min(int(p), top)
}

// Stop ends the adjustments and gives GOGC back the value Start found.
func (k *Keeper) Stop() {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.stopped {
		return
	}
	k.stopped = true
	debug.SetGCPercent(k.base)
	k.set = k.base
}

// Percent returns the GOGC the keeper set last (the base when it never changed it).
func (k *Keeper) Percent() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.set
}
