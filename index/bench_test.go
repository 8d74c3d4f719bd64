package index_test

import (
	"encoding/binary"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/index"
	"github.com/cornice-node/cornice/jsonrpc/jsonrpctest"
	"github.com/cornice-node/cornice/storage"
)

// benchIndex returns the block index of a C-Chain holding n containers of size bytes each.
func benchIndex(b *testing.B, n, size int) http.Handler {
	db := openDB(b, filepath.Join(b.TempDir(), "db"))
	x := newIndexer(b, db, on, clock.Real{})
	h, err := x.Register(cChainID, index.Block)
	require.NoError(b, err)
	fill(b, db, x, cChainID, n, size)
	return h[index.Block]
}

// BenchmarkGetContainerRange measures index.getContainerRange of 1024 containers of 1 KiB through
// the JSON-RPC handler (target: under 5 ms per call), and of smaller ranges.
func BenchmarkGetContainerRange(b *testing.B) {
	h := benchIndex(b, 1024, 1024)
	for _, n := range []int{1, 64, 1024} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			body := []byte(`{"jsonrpc":"2.0","id":1,"method":"index.getContainerRange","params":{"startIndex":0,"numToFetch":` + strconv.Itoa(n) + `}}`)
			jsonrpctest.ServeLoop(b, h, "/ext/index/C/block", func(int) []byte { return body })
		})
	}
}

// BenchmarkGetContainerByIndex measures index.getContainerByIndex of 1 KiB containers through the
// JSON-RPC handler, walking over 1024 of them.
func BenchmarkGetContainerByIndex(b *testing.B) {
	h := benchIndex(b, 1024, 1024)
	bodies := make([][]byte, 1024)
	for i := range bodies {
		bodies[i] = []byte(`{"jsonrpc":"2.0","id":1,"method":"index.getContainerByIndex","params":{"index":` + strconv.Itoa(i) + `}}`)
	}
	jsonrpctest.ServeLoop(b, h, "/ext/index/C/block", func(i int) []byte { return bodies[i%len(bodies)] })
}

// BenchmarkGetLastAccepted measures index.getLastAccepted of a 1 KiB container through the
// JSON-RPC handler: two reads (the counter, then the container it names) from one pinned state.
func BenchmarkGetLastAccepted(b *testing.B) {
	h := benchIndex(b, 1024, 1024)
	body := []byte(`{"jsonrpc":"2.0","id":1,"method":"index.getLastAccepted","params":{}}`)
	jsonrpctest.ServeLoop(b, h, "/ext/index/C/block", func(int) []byte { return body })
}

// BenchmarkAccept measures what indexing adds to accepting a block of 1 KiB:
//   - stage: Accept alone, into a batch that is then discarded (what the pipeline pays to stage the
//     index entries of one block), with 0 or 4 transactions of 1 KiB on the X-Chain;
//   - commit: a whole acceptance as the pipeline does it (the VM's 1 KiB of state and a
//     last-accepted pointer, then a synced commit), without and with the index entries. The
//     difference is the cost of indexing in block acceptance time.
func BenchmarkAccept(b *testing.B) {
	const size = 1024
	payload := make([]byte, size)
	blockN := func(i uint64) chains.Container {
		var id ids.ID
		binary.BigEndian.PutUint64(id[:], i)
		return chains.Container{ID: id, Bytes: payload}
	}
	setup := func(b *testing.B) (*storage.DB, *index.Indexer) {
		db := openDB(b, filepath.Join(b.TempDir(), "db"))
		x := newIndexer(b, db, on, clock.Real{})
		xIndexes(b, x)
		return db, x
	}

	for _, ntx := range []int{0, 4} {
		b.Run("stage/txs="+strconv.Itoa(ntx), func(b *testing.B) {
			db, x := setup(b)
			fill(b, db, x, xChainID, 100, size) // a non-empty index
			txs := make([]chains.Container, ntx)
			for j := range txs {
				txs[j] = blockN(1<<32 + uint64(j))
			}
			blk := blockN(1 << 40)
			b.ReportAllocs()
			for b.Loop() {
				batch := db.NewBatch()
				if err := x.Accept(b.Context(), batch, xChainID, blk, txs); err != nil {
					b.Fatal(err)
				}
				batch.Close()
			}
		})
	}

	for _, indexed := range []bool{false, true} {
		name := "commit/without-index"
		if indexed {
			name = "commit/with-index"
		}
		b.Run(name, func(b *testing.B) {
			db, x := setup(b)
			vm := db.Prefixed(storage.PrefixExchange)
			b.ReportAllocs()
			var height uint64
			for b.Loop() {
				blk := blockN(height)
				batch := db.NewBatch()
				w := vm.Wrap(batch)
				var h [8]byte
				binary.BigEndian.PutUint64(h[:], height)
				if err := w.Put(append([]byte("state/"), h[:]...), blk.Bytes); err != nil {
					b.Fatal(err)
				}
				if err := w.Put([]byte("lastAccepted"), blk.ID[:]); err != nil {
					b.Fatal(err)
				}
				if indexed {
					if err := x.Accept(b.Context(), batch, xChainID, blk, nil); err != nil {
						b.Fatal(err)
					}
				}
				if err := batch.Commit(); err != nil {
					b.Fatal(err)
				}
				height++
			}
		})
	}
}

// BenchmarkHTTP measures Index calls over real loopback HTTP (a net/http server and client in
// this process, sharing the cores) at concurrency 1 and 16: calls/s and MB/s of reply.
func BenchmarkHTTP(b *testing.B) {
	h := benchIndex(b, 1024, 1024)
	srv := httptest.NewServer(h)
	b.Cleanup(srv.Close)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	calls := []struct{ name, body string }{
		{"getContainerRange-1024", `{"jsonrpc":"2.0","id":1,"method":"index.getContainerRange","params":{"startIndex":0,"numToFetch":1024}}`},
		{"getContainerByIndex", `{"jsonrpc":"2.0","id":1,"method":"index.getContainerByIndex","params":{"index":512}}`},
	}
	for _, call := range calls {
		for _, c := range []int{1, 16} {
			b.Run(call.name+"/c="+strconv.Itoa(c), func(b *testing.B) {
				var size atomic.Int64
				post := func() bool {
					resp, err := client.Post(srv.URL, "application/json", strings.NewReader(call.body))
					if err != nil {
						b.Error(err)
						return false
					}
					n, _ := io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					size.Store(n)
					return true
				}
				b.ReportAllocs()
				if c == 1 {
					for b.Loop() {
						if !post() {
							return
						}
					}
				} else {
					// RunParallel runs parallelism × GOMAXPROCS goroutines.
					b.SetParallelism(max(1, c/runtime.GOMAXPROCS(0)))
					b.RunParallel(func(pb *testing.PB) {
						for pb.Next() && post() {
						}
					})
				}
				b.SetBytes(size.Load())
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "calls/s")
			})
		}
	}
}
