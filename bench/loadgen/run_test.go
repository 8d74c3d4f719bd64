package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/api"
	"github.com/cornice-node/cornice/bench/internal/loopback"
	"github.com/cornice-node/cornice/clock"
)

func TestClientRefusesRedirectOffLoopback(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://192.0.2.1/", http.StatusFound)
	}))
	t.Cleanup(srv.Close)
	var buf bytes.Buffer
	status, _, err := target{url: srv.URL}.do(t.Context(), newClient(1), &buf)
	require.NoError(t, err)
	require.Equal(t, http.StatusFound, status) // not followed
}

func TestRequestBody(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		method  string
		params  string
		want    string
		wantErr error
	}{
		{name: "no params", method: "info.getNodeVersion", want: `{"jsonrpc":"2.0","id":1,"method":"info.getNodeVersion"}`},
		{name: "object params compacted", method: "info.peers", params: ` { "nodeIDs" : [ ] } `, want: `{"jsonrpc":"2.0","id":1,"method":"info.peers","params":{"nodeIDs":[]}}`},
		{name: "array params", method: "info.isBootstrapped", params: `[{"chain":"X"}]`, want: `{"jsonrpc":"2.0","id":1,"method":"info.isBootstrapped","params":[{"chain":"X"}]}`},
		{name: "method escaped", method: `a"b<`, want: `{"jsonrpc":"2.0","id":1,"method":"a\"b\u003c"}`},
		{name: "invalid params", method: "info.peers", params: `{`, wantErr: errBadParams},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := requestBody(tt.method, tt.params)
			require.ErrorIs(t, err, tt.wantErr)
			if tt.wantErr == nil {
				require.Equal(t, tt.want, string(got))
			}
		})
	}
}

func TestRPCFailed(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		body string
		want bool
	}{
		{name: "success", body: `{"jsonrpc":"2.0","result":{"nodeID":"x"},"id":1}` + "\n", want: false},
		{name: "error reply", body: `{"jsonrpc":"2.0","error":{"code":-32000,"message":"m","data":null},"id":1}`, want: true},
		{name: "null error with result", body: `{"jsonrpc":"2.0","result":{},"error":null,"id":1}`, want: false},
		{name: "result with nested error key", body: `{"jsonrpc":"2.0","result":{"checks":{"error":"x"}},"id":1}`, want: false},
		{name: "empty body of a notification", body: ``, want: true},
		{name: "not json", body: `404 page not found`, want: true},
		{name: "no result", body: `{"jsonrpc":"2.0","id":1}`, want: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tt.want, rpcFailed([]byte(tt.body)))
		})
	}
}

func FuzzRPCFailed(f *testing.F) {
	f.Add([]byte(sampleReply().body))
	f.Add([]byte(`{"jsonrpc":"2.0","error":{"code":-32000,"message":"m","data":null},"id":1}`))
	f.Add([]byte(``))
	f.Fuzz(func(t *testing.T, body []byte) {
		_ = rpcFailed(body) // must not panic
	})
}

// newBare starts a bare server with reply for the test's lifetime and returns its target.
func newBare(t *testing.T, reply bareReply) target {
	t.Helper()
	srv, err := startBare("127.0.0.1:0", reply, false)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, srv.Close()) })
	body, err := requestBody("info.getNodeVersion", "")
	require.NoError(t, err)
	return target{url: srv.URL(), body: body}
}

func TestRunLevelAgainstBare(t *testing.T) {
	t.Parallel()
	tg := newBare(t, sampleReply())
	tests := []struct{ conc, n int }{{1, 50}, {4, 200}, {16, 100}, {8, 3}}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("c=%d,n=%d", tt.conc, tt.n), func(t *testing.T) {
			t.Parallel()
			r := runLevel(t.Context(), clock.Real{}, newClient(tt.conc), tg, tt.conc, tt.n, 10, time.Minute)
			require.Equal(t, tt.conc, r.concurrency)
			require.Equal(t, tt.n, r.requests)
			require.Zero(t, r.errors)
			require.Len(t, r.latencies, tt.n)
			require.Positive(t, r.elapsed)
		})
	}
}

func TestRunLevelCountsErrors(t *testing.T) {
	t.Parallel()
	var calls atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch calls.Add(1) % 3 {
		case 0:
			w.WriteHeader(http.StatusInternalServerError)
		case 1:
			_, _ = w.Write([]byte(`{"jsonrpc":"2.0","error":{"code":-32000,"message":"m","data":null},"id":1}`))
		default:
			_, _ = w.Write(sampleReply().body)
		}
	}))
	t.Cleanup(srv.Close)
	r := runLevel(t.Context(), clock.Real{}, newClient(1), target{url: srv.URL, body: []byte(`{}`)}, 1, 30, 0, time.Minute)
	require.Equal(t, 30, r.requests)
	require.Equal(t, 20, r.errors)
	require.Len(t, r.latencies, 30)
}

func TestRunLevelTransportErrorsHaveNoSample(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close() // nothing listens there any more
	r := runLevel(t.Context(), clock.Real{}, newClient(2), target{url: url, body: []byte(`{}`)}, 2, 10, 0, time.Minute)
	require.Equal(t, 10, r.requests)
	require.Equal(t, 10, r.errors)
	require.Empty(t, r.latencies)
}

func TestRunLevelStopsAtDurationLimit(t *testing.T) {
	t.Parallel()
	// Every request hangs until the client gives up: only the duration limit can end the level.
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-release
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) }) // runs first: lets the handlers return so Close can finish
	r := runLevel(t.Context(), clock.Real{}, newClient(4), target{url: srv.URL, body: []byte(`{}`)}, 4, 1000, 5, 100*time.Millisecond)
	require.Zero(t, r.requests) // cut-off requests are neither samples nor errors
	require.Zero(t, r.errors)
	require.Empty(t, r.latencies)
}

func TestRunLevelStopsWhenContextEnds(t *testing.T) {
	t.Parallel()
	tg := newBare(t, sampleReply())
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	r := runLevel(ctx, clock.Real{}, newClient(2), tg, 2, 1000, 0, time.Minute)
	require.Zero(t, r.requests)
}

func TestFetchReplyServesIdenticalBytes(t *testing.T) {
	t.Parallel()
	nodeBody := []byte(`{"jsonrpc":"2.0","result":{"version":"cornice/9.9.9","databaseVersion":"v1.4.5","rpcProtocolVersion":"45","gitCommit":"abc","vmVersions":{}},"id":1}` + "\n")
	node := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Node-Id", "NodeID-111111111111111111116DBWJs")
		w.Header().Add("Vary", "Origin")
		_, _ = w.Write(nodeBody)
	}))
	t.Cleanup(node.Close)
	body, err := requestBody("info.getNodeVersion", "")
	require.NoError(t, err)
	client := newClient(1)

	reply, err := fetchReply(t.Context(), client, target{url: node.URL, body: body})
	require.NoError(t, err)
	require.Equal(t, nodeBody, reply.body)
	require.Empty(t, reply.header.Get("Date"))
	require.Empty(t, reply.header.Get("Content-Length"))

	var fromNode, fromBare bytes.Buffer
	_, nodeHeader, err := target{url: node.URL, body: body}.do(t.Context(), client, &fromNode)
	require.NoError(t, err)
	status, bareHeader, err := newBare(t, reply).do(t.Context(), client, &fromBare)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, fromNode.Bytes(), fromBare.Bytes())
	nodeHeader.Del("Date")
	bareHeader.Del("Date")
	require.Equal(t, nodeHeader, bareHeader)
}

func TestFetchReplyRefusesErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		status int
		body   string
	}{
		{name: "non-200", status: http.StatusNotFound, body: "404 page not found\n"},
		{name: "rpc error", status: http.StatusOK, body: `{"jsonrpc":"2.0","error":{"code":-32000,"message":"m","data":null},"id":1}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			node := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(tt.status)
				_, _ = w.Write([]byte(tt.body))
			}))
			t.Cleanup(node.Close)
			_, err := fetchReply(t.Context(), newClient(1), target{url: node.URL, body: []byte(`{}`)})
			require.ErrorIs(t, err, errUnhealthyReply)
		})
	}
}

func TestStartBareRefusesNonLoopback(t *testing.T) {
	t.Parallel()
	_, err := startBare("0.0.0.0:0", sampleReply(), false)
	require.ErrorIs(t, err, loopback.ErrNotLoopback)
}

// TestBareNodeSettings: with the node's settings the bare server has the API server's default
// timeouts and answers the same bytes over HTTP/1 and over cleartext HTTP/2.
func TestBareNodeSettings(t *testing.T) {
	t.Parallel()
	reply := sampleReply()
	srv, err := startBare("127.0.0.1:0", reply, true)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, srv.Close()) })
	require.Equal(t, api.DefaultReadTimeout, srv.srv.ReadTimeout)
	require.Equal(t, api.DefaultReadHeaderTimeout, srv.srv.ReadHeaderTimeout)
	require.Equal(t, api.DefaultWriteTimeout, srv.srv.WriteTimeout)
	require.Equal(t, api.DefaultIdleTimeout, srv.srv.IdleTimeout)

	for _, h2 := range []bool{false, true} {
		protocols := new(http.Protocols)
		if h2 {
			protocols.SetUnencryptedHTTP2(true)
		} else {
			protocols.SetHTTP1(true)
		}
		tr := &http.Transport{Protocols: protocols}
		t.Cleanup(tr.CloseIdleConnections)
		req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, srv.URL(), strings.NewReader(`{}`))
		require.NoError(t, err)
		res, err := tr.RoundTrip(req)
		require.NoError(t, err)
		got, err := io.ReadAll(res.Body)
		require.NoError(t, err)
		require.NoError(t, res.Body.Close())
		require.Equal(t, h2, res.ProtoMajor == 2, "HTTP/2: %v", h2)
		require.Equal(t, string(reply.body), string(got))
	}
}
