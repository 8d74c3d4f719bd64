package bootstrap_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains/engine/enginetest"
)

// BenchmarkBootstrap measures a node catching up n blocks of the fake VM from three beacons:
// the frontier and accepted polls, fetching every block with GetAncestors, and executing each
// through the accept path (verify, then one Pebble batch committed with sync, as every accepted
// block). The beacons and the empty node are opened outside the timer. blocks/s is the rate;
// cpu-s/op the process's user and system CPU time in the timed part, which a loaded machine's
// waiting for a core does not inflate.
func BenchmarkBootstrap(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			dir := buildChain(b, n, 100)
			b.ReportAllocs()
			var cpu time.Duration
			for b.Loop() {
				b.StopTimer()
				tn := newTestNet(b, 1, dir, dir, dir)
				before := enginetest.CPUTime(b)
				b.StartTimer()
				tn.start()
				require.True(b, tn.net.Run(b.Context(), 10_000_000))
				b.StopTimer()
				cpu += enginetest.CPUTime(b) - before
				require.True(b, tn.b.Done())
				require.Equal(b, n, tn.b.Progress().Executed)
				require.Equal(b, tn.beacons[0].accepted(b)[n], tn.node.accepted(b)[n])
				b.StartTimer()
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "blocks/s")
			b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
		})
	}
}
