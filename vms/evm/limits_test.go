package evm

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/jsonrpc"
)

// sha3Call is a web3_sha3 call with id id: its response is about 120 bytes.
func sha3Call(id string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"web3_sha3","params":["0x01"]}`
}

// TestBatchResponseCap checks that Config.BatchResponseMaxSize reaches go-ethereum's rpc server:
// past the cap, the calls of a batch are answered -32003 "response too large".
func TestBatchResponseCap(t *testing.T) {
	t.Parallel()
	batch := "[" + sha3Call("1") + "," + sha3Call("2") + "," + sha3Call("3") + "]"
	const hash = `"0x5fe7f977e71dba2ea1a68e21057beebb9be2ac30c6410aa38d4f3fbe41dcffd2"`
	for _, tt := range []struct {
		name  string
		limit int
		want  string
	}{
		{name: "capped", limit: 100, want: `[{"jsonrpc":"2.0","id":1,"result":` + hash + `},` +
			`{"jsonrpc":"2.0","id":2,"result":` + hash + `},` +
			`{"jsonrpc":"2.0","id":3,"error":{"code":-32003,"message":"response too large"}}]`},
		{name: "default", limit: 0, want: `[{"jsonrpc":"2.0","id":1,"result":` + hash + `},` +
			`{"jsonrpc":"2.0","id":2,"result":` + hash + `},` +
			`{"jsonrpc":"2.0","id":3,"result":` + hash + `}]`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			vm := &VM{cfg: Config{BatchResponseMaxSize: tt.limit}, feeds: newFeeds()}
			srv, err := vm.newRPCServer()
			require.NoError(t, err)
			t.Cleanup(srv.Stop)
			vm.rpc = srv
			req := httptest.NewRequestWithContext(t.Context(), http.MethodPost, "/", strings.NewReader(batch))
			req.Header.Set("Content-Type", "application/json")
			rec := httptest.NewRecorder()
			vm.rpcHandler().ServeHTTP(rec, req)
			// The trailing newline is another change's (issue #11 §5): not compared here.
			require.Equal(t, tt.want, strings.TrimSuffix(rec.Body.String(), "\n"))
		})
	}
}

// TestHeavyRPCWaits checks that batches and heavy calls wait for the node's heavy-call slots,
// and other calls do not.
func TestHeavyRPCWaits(t *testing.T) {
	t.Parallel()
	vm := &VM{feeds: newFeeds()}
	srv, err := vm.newRPCServer()
	require.NoError(t, err)
	t.Cleanup(srv.Stop)
	vm.rpc = srv
	h := vm.rpcHandler()
	// The only slot is taken, and every request's context is already done: a request that
	// waits gets 503 at once, one that does not is served.
	l := jsonrpc.NewLimits(0, 1)
	taken, release := make(chan struct{}), make(chan struct{})
	go func() {
		blocker := http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
			close(taken)
			<-release
		})
		req := httptest.NewRequestWithContext(jsonrpc.WithLimits(t.Context(), l), http.MethodPost, "/", strings.NewReader(`[]`))
		jsonrpc.Gate(blocker, isHeavyRPC, nil).ServeHTTP(httptest.NewRecorder(), req)
	}()
	<-taken
	defer close(release)
	ctx, cancel := context.WithCancel(jsonrpc.WithLimits(t.Context(), l))
	cancel()
	for _, tt := range []struct {
		body   string
		status int
	}{
		{`[` + sha3Call("1") + `]`, http.StatusServiceUnavailable},
		{`{"jsonrpc":"2.0","id":1,"method":"eth_getLogs","params":[{}]}`, http.StatusServiceUnavailable},
		{`{"jsonrpc":"2.0","id":1,"method":"debug_traceTransaction","params":[]}`, http.StatusServiceUnavailable},
		{sha3Call("1"), http.StatusOK},
	} {
		req := httptest.NewRequestWithContext(ctx, http.MethodPost, "/", strings.NewReader(tt.body))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		require.Equal(t, tt.status, rec.Code, tt.body)
	}
}
