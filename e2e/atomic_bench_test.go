package e2e_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
	xtxs "github.com/cornice-node/cornice/vms/exchange/txs"
	"github.com/cornice-node/cornice/vms/platform/txs"
)

// BenchmarkAtomicRoundTrip measures an X→P transfer on the node `cornice run` builds, over
// loopback HTTP, end to end (issue #14). One op is the whole round trip: the wallet builds and
// signs an ExportTx on the X-Chain (reading the key's UTXOs), issues it and waits until it is
// accepted, then builds an ImportTx on the P-Chain (reading the fee state and the atomic UTXOs
// with sourceChain), issues it and waits until it is committed.
//   - wallet: waiting as the wallet and the CLI do, polling the status every 20 ms;
//   - tight: polling the status again at once, so that the figure is the node's latency plus the
//     wallet's reads and signing, not the poll interval.
//
// Run: go test -run '^$' -bench BenchmarkAtomicRoundTrip -benchtime 200x ./e2e
func BenchmarkAtomicRoundTrip(b *testing.B) {
	xn := startXNode(b, b.TempDir())
	key := localKey(b)
	x, p := xn.wallet(key), xn.pWallet(key)
	ctx := b.Context()

	b.Run("wallet", func(b *testing.B) {
		for b.Loop() {
			require.NoError(b, walletMover[*xtxs.Tx]{x}.exportTo(ctx, "P", 1_000_000_000))
			require.NoError(b, walletMover[*txs.Tx]{p}.importFrom(ctx, "X"))
		}
	})
	b.Run("tight", func(b *testing.B) {
		for b.Loop() {
			exp, _, err := x.Export(ctx, "P", "", 1_000_000_000)
			require.NoError(b, err)
			id, err := x.Issue(ctx, exp)
			require.NoError(b, err)
			spin(b, ctx, x.Status, id, "Accepted")
			imp, _, err := p.Import(ctx, "X")
			require.NoError(b, err)
			id, err = p.Issue(ctx, imp)
			require.NoError(b, err)
			spin(b, ctx, p.Status, id, "Committed")
		}
	})
}

// spin asks for txID's status until it is want, without pausing.
func spin(b *testing.B, ctx context.Context, status func(context.Context, ids.ID) (string, error), txID ids.ID, want string) {
	b.Helper()
	for {
		got, err := status(ctx, txID)
		require.NoError(b, err)
		if got == want {
			return
		}
		require.NoError(b, ctx.Err())
	}
}
