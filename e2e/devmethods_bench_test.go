package e2e_test

import (
	"os"
	"testing"

	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/config"
)

// devChainBlocks is the length of the chain the snapshot and revert benchmarks run on (issue #16
// §5).
const devChainBlocks = 10_000

// BenchmarkDevMethods measures the developer methods of the C-Chain of the node `cornice run`
// builds, over loopback HTTP with go-ethereum's rpc client (issue #16 §5):
//   - evm_mine: one evm_mine round trip, from the request to the answer, which comes once the
//     (empty) block is accepted.
//   - snapshot-revert: evm_snapshot then evm_revert to it, on a chain of 10,000 blocks (nothing
//     to drop: what a test suite pays between tests that mined nothing).
//   - revert-1-block: evm_revert of a snapshot taken one evm_mine back, on that chain (the
//     snapshot and the mining are not timed).
//   - revert-10000-blocks: evm_revert of a snapshot taken 10,000 blocks back (mining them is not
//     timed; the sweep of what they leave behind runs after the answer, docs/decisions.md).
//
// Run: go test -run '^$' -bench BenchmarkDevMethods -benchtime 200x ./e2e
// (revert-10000-blocks runs as many times: use -benchtime 3x for it alone). With
// CORNICE_BENCH_DEV_RPC set to another node's RPC URL (anvil's, say), the same client runs the
// same calls against that node instead, for a side-by-side figure.
func BenchmarkDevMethods(b *testing.B) {
	d := &devNode{}
	if url := os.Getenv("CORNICE_BENCH_DEV_RPC"); url != "" {
		c, err := rpc.DialContext(b.Context(), url)
		require.NoError(b, err)
		b.Cleanup(c.Close)
		d.rpc, d.eth = c, ethclient.NewClient(c)
	} else {
		xn := startXNodeWith(b, b.TempDir(), func(c *config.Config) { c.DevMethods = config.SwitchOn })
		dialDev(b, d, xn)
	}
	b.Run("evm_mine", func(b *testing.B) {
		var out string
		for b.Loop() {
			d.call(b, &out, "evm_mine")
		}
	})

	b.Run("snapshot-revert", func(b *testing.B) {
		if h := d.height(b); h < devChainBlocks {
			d.mineMany(b, devChainBlocks-h)
		}
		var id string
		var ok bool
		for b.Loop() {
			d.call(b, &id, "evm_snapshot")
			d.call(b, &ok, "evm_revert", id)
		}
		require.True(b, ok)
	})

	b.Run("revert-1-block", func(b *testing.B) {
		var id, mined string
		var ok bool
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			d.call(b, &id, "evm_snapshot")
			d.call(b, &mined, "evm_mine")
			b.StartTimer()
			d.call(b, &ok, "evm_revert", id)
			require.True(b, ok)
		}
	})

	b.Run("revert-10000-blocks", func(b *testing.B) {
		var id string
		var ok bool
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			d.call(b, &id, "evm_snapshot")
			d.mineMany(b, devChainBlocks)
			b.StartTimer()
			d.call(b, &ok, "evm_revert", id)
			require.True(b, ok)
		}
	})
}

// mineMany mines n blocks, a hundred per anvil_mine so that each call ends well within its wait
// (anvil slows down as its chain grows).
func (d *devNode) mineMany(t testing.TB, n uint64) {
	t.Helper()
	var null any
	for n > 0 {
		k := min(n, 100)
		d.call(t, &null, "anvil_mine", k)
		n -= k
	}
}
