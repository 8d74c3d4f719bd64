package index_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/index"
	"github.com/cornice-node/cornice/jsonrpc/jsonrpctest"
	"github.com/cornice-node/cornice/storage"
)

var update = flag.Bool("update", false, "rewrite the <-- lines of testdata/*.txt with the responses received")

// wireFixture returns the routes of a node whose indexes hold what testdata/*.txt describe:
//
//   - X/block: three blocks with IDs 0x01…, 0x02…, 0x03… (then zeros) and bytes 00010203, 01010203,
//     02010203, accepted at 21:58:08Z, 21:58:09.5Z and 21:58:10.398452655Z on 2026-11-25; the last
//     is the reference's wire sample (node-api.md Appendix A);
//   - X/tx: "tx a" and "tx b" (in block 0) and "tx c" (in block 2), IDs the SHA-256 of the bytes;
//   - X/vtx: empty;
//   - P/block: an empty container at 21:58:11.000000001Z and "<&>" at 21:58:12.12Z;
//   - C/block: empty.
func wireFixture(t testing.TB) http.Handler {
	db := openDB(t, filepath.Join(t.TempDir(), "db"))
	clk := clock.NewFake(time.Date(2026, time.November, 25, 21, 58, 8, 0, time.UTC))
	x := newIndexer(t, db, on, clk)
	mux := http.NewServeMux()
	for alias, reg := range map[string]struct {
		id    ids.ID
		kinds []index.Kind
	}{
		"P": {pChainID, []index.Kind{index.Block}},
		"X": {xChainID, []index.Kind{index.Block, index.Tx, index.Vtx}},
		"C": {cChainID, []index.Kind{index.Block}},
	} {
		handlers, err := x.Register(reg.id, reg.kinds...)
		require.NoError(t, err)
		for kind, h := range handlers {
			mux.Handle("/ext/index/"+alias+"/"+kind.String(), h)
		}
	}

	xBlock := func(i byte) chains.Container {
		return chains.Container{ID: ids.ID{i + 1}, Bytes: []byte{i, 1, 2, 3}}
	}
	accept(t, db, x, xChainID, xBlock(0), container([]byte("tx a")), container([]byte("tx b")))
	clk.Advance(1500 * time.Millisecond)
	accept(t, db, x, xChainID, xBlock(1))
	clk.Advance(898452655 * time.Nanosecond)
	accept(t, db, x, xChainID, xBlock(2), container([]byte("tx c")))
	clk.Set(time.Date(2026, time.November, 25, 21, 58, 11, 1, time.UTC))
	accept(t, db, x, pChainID, container([]byte{}))
	clk.Set(time.Date(2026, time.November, 25, 21, 58, 12, 120_000_000, time.UTC))
	accept(t, db, x, pChainID, container([]byte("<&>")))
	return mux
}

// TestWire replays the request/response transcripts in testdata/ against the real JSON-RPC handlers
// and compares response bodies byte for byte (STYLE.md rule 12). A `POST <path>` line selects the
// endpoint of the requests after it; `-->` lines are requests, `<--` lines the exact response body
// without its final newline; other lines are comments. Run with -update to rewrite the expected
// responses, then review the diff.
func TestWire(t *testing.T) {
	t.Parallel()
	jsonrpctest.ReplayDir(t, func(t *testing.T, _ string) http.Handler { return wireFixture(t) }, *update)
}

// fill accepts n blocks of size bytes each on chainID, in one batch per block.
func fill(t testing.TB, db *storage.DB, x *index.Indexer, chainID ids.ID, n, size int) []chains.Container {
	t.Helper()
	out := make([]chains.Container, n)
	for i := range n {
		b := make([]byte, size)
		copy(b, fmt.Sprint(i))
		out[i] = container(b)
		accept(t, db, x, chainID, out[i])
	}
	return out
}

// TestRangeLimits covers the numToFetch bounds on a full range (the transcripts keep to small
// answers): 1024 containers come back in one call, from one iterator, and 1025 is refused.
func TestRangeLimits(t *testing.T) {
	t.Parallel()
	db := openDB(t, filepath.Join(t.TempDir(), "db"))
	x := newIndexer(t, db, on, clock.Real{})
	h, err := x.Register(cChainID, index.Block)
	require.NoError(t, err)
	blocks := fill(t, db, x, cChainID, 1030, 8)

	tests := []struct {
		name    string
		params  string
		first   int
		count   int
		wantErr string
	}{
		{name: "1024 from 0", params: `{"startIndex":0,"numToFetch":1024}`, first: 0, count: 1024},
		{name: "1024 from 3", params: `{"startIndex":3,"numToFetch":1024}`, first: 3, count: 1024},
		{name: "1024 past the end", params: `{"startIndex":10,"numToFetch":1024}`, first: 10, count: 1020},
		{name: "1024 from the last", params: `{"startIndex":1029,"numToFetch":"1024"}`, first: 1029, count: 1},
		{name: "1", params: `{"startIndex":"7","numToFetch":1}`, first: 7, count: 1},
		{name: "0", params: `{"startIndex":5000,"numToFetch":0}`, count: 0},
		{name: "1025", params: `{"startIndex":0,"numToFetch":1025}`, wantErr: "numToFetch must be in [0,1024] but is 1025"},
		{name: "max uint64", params: `{"startIndex":0,"numToFetch":18446744073709551615}`, wantErr: "numToFetch must be in [0,1024] but is 18446744073709551615"},
		{name: "start past the end", params: `{"startIndex":1030,"numToFetch":1024}`, wantErr: "start index (1030) > last accepted index (1029)"},
		{name: "start at max uint64", params: `{"startIndex":18446744073709551615,"numToFetch":1024}`, wantErr: "start index (18446744073709551615) > last accepted index (1029)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res, msg := call(t, h[index.Block], "getContainerRange", tt.params)
			if tt.wantErr != "" {
				require.Equal(t, tt.wantErr, msg)
				return
			}
			require.Empty(t, msg)
			var got rangeReply
			require.NoError(t, json.Unmarshal(res, &got))
			require.NotNil(t, got.Containers, "containers must be [], not null")
			require.Len(t, got.Containers, tt.count)
			for j, c := range got.Containers {
				require.Equal(t, blocks[tt.first+j].ID, c.ID)
				require.Equal(t, fmt.Sprint(tt.first+j), c.Index)
			}
		})
	}
}

// TestRangeSnapshot reads ranges of the tx index while blocks of several transactions are committed:
// every read sees whole blocks only, because a block is one batch and a range one iterator.
func TestRangeSnapshot(t *testing.T) {
	t.Parallel()
	db := openDB(t, filepath.Join(t.TempDir(), "db"))
	x := newIndexer(t, db, on, clock.Real{})
	h := xIndexes(t, x)
	const blocks, perBlock = 60, 5

	var wg sync.WaitGroup
	ctx, cancel := context.WithCancel(t.Context())
	var writeErr error
	t.Cleanup(wg.Wait) // before the database closes, if a check below fails
	wg.Go(func() {
		defer cancel()
		for i := range blocks {
			txs := make([]chains.Container, perBlock)
			for j := range txs {
				txs[j] = container(fmt.Appendf(nil, "tx %d.%d", i, j))
			}
			b := db.NewBatch()
			if err := x.Accept(ctx, b, xChainID, container(fmt.Appendf(nil, "block %d", i)), txs); err != nil {
				writeErr = err
				return
			}
			if err := b.Commit(); err != nil {
				writeErr = err
				return
			}
		}
	})
	reads := 0
	for ctx.Err() == nil {
		res, msg := call(t, h[index.Tx], "getContainerRange", `{"startIndex":0,"numToFetch":1024}`)
		if msg == "no containers have been accepted" {
			continue
		}
		require.Empty(t, msg)
		var got rangeReply
		require.NoError(t, json.Unmarshal(res, &got))
		require.Zero(t, len(got.Containers)%perBlock, "a range saw part of a block: %d containers", len(got.Containers))
		reads++
	}
	wg.Wait()
	require.NoError(t, writeErr)
	got := mustCall[rangeReply](t, h[index.Tx], "getContainerRange", `{"startIndex":0,"numToFetch":1024}`)
	require.Len(t, got.Containers, blocks*perBlock)
	t.Logf("%d concurrent reads", reads)
}

// FuzzParams sends arbitrary params to every method and checks that each call is answered with one
// JSON-RPC response, without a panic.
func FuzzParams(f *testing.F) {
	methods := []string{"getLastAccepted", "getContainerByIndex", "getContainerByID", "getContainerRange", "getIndex", "isAccepted"}
	f.Add(uint8(0), `{"encoding":"hexnc"}`)
	f.Add(uint8(1), `{"index":"2","encoding":"HEXC"}`)
	f.Add(uint8(2), `{"id":"2Kdbb","encoding":null}`)
	f.Add(uint8(3), `{"startIndex":1,"numToFetch":1024}`)
	f.Add(uint8(3), `[{"startIndex":"0","numToFetch":"0"}]`)
	f.Add(uint8(4), `{"id":"11111111111111111111111111111111LpoYY"}`)
	f.Add(uint8(5), `5`)
	handler := wireFixture(f)
	paths := []string{"/ext/index/X/block", "/ext/index/X/tx", "/ext/index/P/block", "/ext/index/C/block"}
	f.Fuzz(func(t *testing.T, m uint8, params string) {
		body := `{"jsonrpc":"2.0","id":1,"method":"index.` + methods[int(m)%len(methods)] + `","params":` + params + `}`
		req := httptest.NewRequestWithContext(t.Context(), http.MethodPost, paths[int(m/8)%len(paths)], strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		handler.ServeHTTP(rec, req)
		require.Equal(t, http.StatusOK, rec.Code)
		if rec.Body.Len() == 0 {
			return // params closed the object early and nulled the id: a notification
		}
		require.True(t, bytes.HasPrefix(rec.Body.Bytes(), []byte(`{"jsonrpc":"2.0",`)), "body %q", rec.Body.Bytes())
		require.NotContains(t, rec.Body.String(), "internal error")
	})
}
