package e2e_test

import (
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	xtxs "github.com/cornice-node/cornice/vms/exchange/txs"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/index"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
	"github.com/cornice-node/cornice/wallet"
)

// Shape of one transfer batch: transfers txs in chains independent chains, issued concurrently,
// each chain in order (a tx spends the change of the one before it, still pending).
const (
	transfers = 10_000
	chainsN   = 16
)

// BenchmarkXChain measures the X-Chain of the node `cornice run` builds, over loopback HTTP
// (issue #7 §4):
//   - transfers: 10,000 pre-signed BaseTxs, each 1 nAVAX to another address with the change back,
//     from avm.issueTx to acceptance (the last tx of every chain Accepted in avm.getTxStatus);
//     reported as transfers/s. Signing is not timed.
//   - getContainerRange: index.getContainerRange of 1024 txs from /ext/index/X/tx, in hex.
//
// Run: go test -run '^$' -bench BenchmarkXChain -benchtime 1x ./cmd/cornice
func BenchmarkXChain(b *testing.B) {
	xn := startXNode(b, b.TempDir())
	key := localKey(b)
	alice := xn.wallet(key)
	to := testKey(b, "bench").Address()
	clk := clock.Real{}

	// batch signs a batch of transfers untimed, then issues it; it returns the time from the first
	// avm.issueTx to the last acceptance.
	batch := func(b *testing.B) time.Duration {
		b.StopTimer()
		txs := presign(b, alice, key, to)
		b.StartTimer()
		start := clk.Now()
		issueChains(b, alice, txs)
		return clk.Now().Sub(start)
	}

	b.Run("transfers-10000", func(b *testing.B) {
		var total time.Duration
		n := 0
		for b.Loop() {
			total += batch(b)
			n++
		}
		b.ReportMetric(float64(n*transfers)/total.Seconds(), "transfers/s")
	})

	b.Run("getContainerRange-1024", func(b *testing.B) {
		var last index.Container
		err := xn.client.Call(b.Context(), "/ext/index/X/tx", "index.getLastAccepted", map[string]string{"encoding": "hex"}, &last)
		if n, _ := strconv.Atoi(last.Index); err != nil || n+1 < index.MaxFetch {
			batch(b)
			b.ResetTimer()
		}
		body := `{"jsonrpc":"2.0","id":1,"method":"index.getContainerRange","params":{"startIndex":0,"numToFetch":` +
			strconv.Itoa(index.MaxFetch) + `,"encoding":"hex"}}`
		b.ReportAllocs()
		var size int64
		for b.Loop() {
			resp, err := xn.hc.Post(xn.base+"/ext/index/X/tx", "application/json", strings.NewReader(body))
			require.NoError(b, err)
			n, err := io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			require.NoError(b, err)
			require.Equal(b, http.StatusOK, resp.StatusCode)
			size = n
		}
		b.SetBytes(size)
	})
}

// presign makes chainsN UTXOs of alice's with a fan-out tx (issued and accepted), then signs
// transfers txs in chainsN chains: each sends 1 nAVAX to `to` and spends the change of the one
// before it.
func presign(b *testing.B, alice *wallet.X, key *wallet.Key, to ids.ShortID) [][]*xtxs.Tx {
	b.Helper()
	bld := alice.Builder()
	utxos, err := alice.UTXOs(b.Context())
	require.NoError(b, err)
	perChain := uint64(transfers/chainsN+1) * (bld.TxFee + 1)
	fan := make([]wallet.Transfer, chainsN)
	for i := range fan {
		// Distinct amounts, so that the outputs are distinct and sorted by amount.
		fan[i] = wallet.Transfer{To: key.Address(), AssetID: bld.AVAXAssetID, Amount: perChain + uint64(i)}
	}
	fanTx, err := bld.SendMany(key, utxos, fan...)
	require.NoError(b, err)
	issue(b, alice, fanTx)

	var heads []*xtxs.UTXO
	for _, ux := range fanTx.UTXOs() {
		if amount := ux.Out.(*secp256k1fx.TransferOutput).Amount; amount >= perChain && amount < perChain+chainsN {
			heads = append(heads, &ux)
		}
	}
	require.Len(b, heads, chainsN)
	chains := make([][]*xtxs.Tx, chainsN)
	for c, head := range heads {
		for range transfers / chainsN {
			tx, err := bld.Send(key, []*xtxs.UTXO{head}, to, bld.AVAXAssetID, 1)
			require.NoError(b, err)
			chains[c] = append(chains[c], tx)
			head = nil
			for _, ux := range tx.UTXOs() {
				if ux.Out.(*secp256k1fx.TransferOutput).Addrs[0] == key.Address() {
					head = &ux
				}
			}
			require.NotNil(b, head)
		}
	}
	return chains
}

// issueChains issues every chain concurrently, each in order, and waits until the last tx of
// each is accepted.
func issueChains(b *testing.B, x *wallet.X, chains [][]*xtxs.Tx) {
	var wg sync.WaitGroup
	errs := make([]error, len(chains))
	for c, txs := range chains {
		wg.Go(func() {
			for _, tx := range txs {
				if _, err := x.Issue(b.Context(), tx); err != nil {
					errs[c] = err
					return
				}
			}
			errs[c] = x.WaitAccepted(b.Context(), txs[len(txs)-1].ID(), acceptWait)
		})
	}
	wg.Wait()
	for _, err := range errs {
		require.NoError(b, err)
	}
}
