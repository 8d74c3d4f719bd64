package gcfloor

import (
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestPercent(t *testing.T) {
	t.Parallel()
	const mib = 1 << 20
	tests := []struct {
		name        string
		live, floor uint64
		base, want  int
	}{
		{name: "no live heap yet", live: 0, floor: 16 * mib, base: 100, want: 400},
		{name: "tiny live heap", live: 1024, floor: 16 * mib, base: 100, want: 400},
		{name: "2 MiB live", live: 2 * mib, floor: 16 * mib, base: 100, want: 400},
		{name: "5 MiB live", live: 5 * mib, floor: 16 * mib, base: 100, want: 220},
		{name: "rounded up to reach the floor", live: 6 * mib, floor: 16 * mib, base: 100, want: 167},
		{name: "half the floor", live: 8 * mib, floor: 16 * mib, base: 100, want: 100},
		{name: "above the floor", live: 100 * mib, floor: 16 * mib, base: 100, want: 100},
		{name: "another base", live: 4 * mib, floor: 16 * mib, base: 50, want: 300},
		{name: "another base, reached", live: 11 * mib, floor: 16 * mib, base: 50, want: 50},
		{name: "floor below the runtime's own", live: 1 * mib, floor: 2 * mib, base: 100, want: 100},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := percent(tt.live, tt.floor, tt.base)
			require.Equal(t, tt.want, got)
			// The runtime's goal for that GOGC: it reaches the floor, and passes it only where
			// the live heap takes it there.
			goal := max(tt.live*uint64(100+got), heapMinimum*uint64(got)) / 100
			require.GreaterOrEqual(t, goal, min(tt.floor, heapMinimum*uint64(tt.base)/100))
			if got != tt.base {
				require.LessOrEqual(t, goal, tt.floor+tt.live/100+1)
			}
		})
	}
}

// unsetGOGC removes GOGC from the environment for the test and puts it back after.
func unsetGOGC(t *testing.T) {
	t.Setenv("GOGC", "")
	require.NoError(t, os.Unsetenv("GOGC"))
}

// waitPercent runs collections until the keeper's GOGC satisfies ok, bounded at 30 s.
func waitPercent(t *testing.T, k *Keeper, ok func(int) bool) int {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		runtime.GC()
		if p := k.Percent(); ok(p) {
			return p
		}
		if time.Now().After(deadline) {
			t.Fatalf("GOGC stayed at %d", k.Percent())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// The test process's live heap is far below a 1 GiB floor: the keeper raises GOGC, and Stop
// gives it back.
func TestStartRaisesAndStopRestores(t *testing.T) {
	unsetGOGC(t)
	before := int(read(gogcMetric))
	k := Start(1 << 30)
	got := waitPercent(t, k, func(p int) bool { return p > before })
	require.Equal(t, got, int(read(gogcMetric)))
	k.Stop()
	require.Equal(t, before, int(read(gogcMetric)))
	// Collections after Stop change nothing.
	runtime.GC()
	runtime.GC()
	require.Equal(t, before, int(read(gogcMetric)))
}

// A floor the live heap already covers leaves GOGC alone.
func TestFloorReached(t *testing.T) {
	unsetGOGC(t)
	before := int(read(gogcMetric))
	k := Start(1)
	t.Cleanup(k.Stop)
	runtime.GC()
	runtime.GC()
	require.Equal(t, before, k.Percent())
	require.Equal(t, before, int(read(gogcMetric)))
}

// GOGC in the environment is the operator's choice: the keeper does nothing.
func TestGOGCFromEnvironment(t *testing.T) {
	t.Setenv("GOGC", "100")
	k := Start(1 << 30)
	t.Cleanup(k.Stop)
	runtime.GC()
	runtime.GC()
	require.Equal(t, 100, k.Percent())
	require.Equal(t, 100, int(read(gogcMetric)))
}

// The keeper follows the live heap after every collection: raised while the heap is small, back
// at the base once the live heap covers the floor.
func TestFollowsLiveHeap(t *testing.T) {
	unsetGOGC(t)
	before := int(read(gogcMetric))
	k := Start(32 << 20)
	t.Cleanup(k.Stop)
	waitPercent(t, k, func(p int) bool { return p > before })

	held := make([][]byte, 40)
	for i := range held {
		held[i] = make([]byte, 1<<20)
	}
	waitPercent(t, k, func(p int) bool { return p == before })
	runtime.KeepAlive(held)
}

// A node at rest, whose collections come more than BusyInterval apart, gets GOGC's own goal back,
// so that the runtime returns the floor's pages; the next busy spell raises it again.
func TestFloorOnlyWhileBusy(t *testing.T) {
	unsetGOGC(t)
	before := int(read(gogcMetric))
	k := Start(1 << 30)
	t.Cleanup(k.Stop)
	waitPercent(t, k, func(p int) bool { return p > before })

	deadline := time.Now().Add(30 * time.Second)
	for k.Percent() != before {
		if time.Now().After(deadline) {
			t.Fatalf("GOGC stayed at %d at rest", k.Percent())
		}
		time.Sleep(BusyInterval + 100*time.Millisecond)
		runtime.GC()
		time.Sleep(50 * time.Millisecond) // the cycle's cleanup runs after it
	}
	require.Equal(t, before, int(read(gogcMetric)))

	waitPercent(t, k, func(p int) bool { return p > before })
}
