package e2e_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/wallet"
)

// BenchmarkRoundTripXC measures moving AVAX from the X-Chain into the C-Chain balance on the node
// `cornice run` builds, over loopback HTTP (issue #14 §6: under 10 ms): the X ExportTx built from
// avm.getUTXOs, signed, issued and polled until Accepted, then the C ImportTx built from
// avax.getUTXOs with sourceChain X, signed, issued and polled until Accepted. Status is polled
// every 100 µs, so the wallet's 20 ms poll does not hide the node's time. The median and 90th
// percentile of the round trips are reported beside the mean, which a loaded machine's stalls
// pull up.
//
// Run: go test -run '^$' -bench BenchmarkRoundTripXC -benchtime 200x ./e2e
func BenchmarkRoundTripXC(b *testing.B) {
	xn := startXNode(b, b.TempDir())
	key := localKey(b)
	ctx := b.Context()
	x := xn.wallet(key)
	c, err := wallet.NewC(ctx, xn.client, key, clock.Real{})
	require.NoError(b, err)
	accepted := func(status func(context.Context, ids.ID) (string, error), id ids.ID) {
		for {
			s, err := status(ctx, id)
			require.NoError(b, err)
			if s == "Accepted" {
				return
			}
			time.Sleep(100 * time.Microsecond)
		}
	}
	clk := clock.Real{}
	var took []time.Duration
	for b.Loop() {
		start := clk.Now()
		exp, _, err := x.Export(ctx, "C", "", 1_000_000_000)
		require.NoError(b, err)
		id, err := x.Issue(ctx, exp)
		require.NoError(b, err)
		accepted(x.Status, id)
		imp, _, err := c.Import(ctx, "X")
		require.NoError(b, err)
		id, err = c.Issue(ctx, imp)
		require.NoError(b, err)
		accepted(c.Status, id)
		took = append(took, clk.Now().Sub(start))
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(took[len(took)*9/10].Microseconds())/1000, "p90-ms")
}
