package jsonrpc_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/jsonrpc"
)

// post sends body to h as a JSON-RPC POST and returns the recorded response.
func post(h http.Handler, body string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodPost, "/ext/info", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func TestNotificationsRun(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		body string
		runs int64
	}{
		{name: "no id", body: `{"jsonrpc":"2.0","method":"info.getNodeID"}`, runs: 1},
		{name: "null id", body: `{"jsonrpc":"2.0","method":"info.getNodeID","id":null}`, runs: 1},
		{name: "handler error", body: `{"jsonrpc":"2.0","method":"info.isBootstrapped"}`, runs: 1},
		{name: "bad params", body: `{"jsonrpc":"2.0","method":"info.isBootstrapped","params":1}`, runs: 0},
		{name: "unknown method", body: `{"jsonrpc":"2.0","method":"info.nope"}`, runs: 0},
		{name: "batch", body: `[{"jsonrpc":"2.0","method":"info.getNodeID"},{"jsonrpc":"2.0","method":"info.getNodeID"}]`, runs: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, runs := testServer(t)
			rec := post(s, tt.body)
			require.Equal(t, http.StatusOK, rec.Code)
			require.Empty(t, rec.Body.Bytes())
			require.Empty(t, rec.Header().Get("Content-Type"))
			require.Equal(t, tt.runs, runs.Load())
		})
	}
}

// lockedBuffer is a log destination safe for concurrent writes.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func TestPanicIsLogged(t *testing.T) {
	t.Parallel()
	var logs lockedBuffer
	s := jsonrpc.NewServer("info", slog.New(slog.NewTextHandler(&logs, nil)))
	jsonrpc.Register(s, "panic", func(context.Context, *struct{}) (*struct{}, error) {
		panic("boom")
	})
	rec := post(s, `{"jsonrpc":"2.0","id":1,"method":"info.panic"}`)
	require.Equal(t, http.StatusOK, rec.Code)
	require.Equal(t, `{"jsonrpc":"2.0","error":{"code":-32000,"message":"internal error","data":null},"id":1}`+"\n", rec.Body.String())
	out := logs.String()
	require.Contains(t, out, "level=ERROR")
	require.Contains(t, out, "method=info.panic")
	require.Contains(t, out, "panic=boom")
	require.Contains(t, out, "runtime/debug.Stack")
}

// unsized hides a reader's length from net/http's client, which then sends it chunked.
type unsized struct{ io.Reader }

// A body past MaxBodySize gets 413 and its connection is closed after the reply, whether it
// declares its length or is sent chunked; a body within it is served and leaves the connection
// open.
func TestBodyLimit(t *testing.T) {
	t.Parallel()
	call := `{"jsonrpc":"2.0","id":1,"method":"info.getNodeID"}`
	tests := []struct {
		name    string
		size    int
		chunked bool
		status  int
		runs    int64
	}{
		{name: "at the limit", size: jsonrpc.MaxBodySize, status: http.StatusOK, runs: 1},
		{name: "over the limit", size: jsonrpc.MaxBodySize + 1, status: http.StatusRequestEntityTooLarge},
		{name: "at the limit, chunked", size: jsonrpc.MaxBodySize, chunked: true, status: http.StatusOK, runs: 1},
		{
			name: "over the limit, chunked", size: jsonrpc.MaxBodySize + 1, chunked: true,
			status: http.StatusRequestEntityTooLarge,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, runs := testServer(t)
			var length atomic.Int64 // the Content-Length the server saw, -1 for chunked
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				length.Store(r.ContentLength)
				s.ServeHTTP(w, r)
			}))
			t.Cleanup(srv.Close)
			var body io.Reader = strings.NewReader(call + strings.Repeat(" ", tt.size-len(call)))
			if tt.chunked {
				body = unsized{body}
			}
			resp, err := srv.Client().Post(srv.URL, "application/json", body)
			require.NoError(t, err)
			got, err := io.ReadAll(resp.Body)
			require.NoError(t, err)
			require.NoError(t, resp.Body.Close())
			require.Equal(t, tt.status, resp.StatusCode)
			require.Equal(t, tt.runs, runs.Load())
			if tt.chunked {
				require.Equal(t, int64(-1), length.Load())
			} else {
				require.Equal(t, int64(tt.size), length.Load())
			}
			// net/http closes a connection whose request body went past the limit.
			require.Equal(t, tt.status == http.StatusRequestEntityTooLarge, resp.Close)
			if tt.status == http.StatusRequestEntityTooLarge {
				require.Equal(t, "text/plain; charset=utf-8", resp.Header.Get("Content-Type"))
				require.Equal(t, "rpc: request body too large: at most 26214400 bytes", string(got))
			}
		})
	}
}

// Requests with a body of declared length, one after the other, share one connection: reading
// the body to its end and closing it leaves nothing for net/http to drain or to close over.
func TestKeepAlive(t *testing.T) {
	t.Parallel()
	s, runs := testServer(t)
	srv := httptest.NewUnstartedServer(s)
	var conns sync.Map
	srv.Config.ConnState = func(c net.Conn, state http.ConnState) {
		if state == http.StateNew {
			conns.Store(c, true)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	const want = `{"jsonrpc":"2.0","result":{"nodeID":"NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg"},"id":1}` + "\n"
	for range 3 {
		resp, err := srv.Client().Post(srv.URL, "application/json",
			strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"info.getNodeID"}`))
		require.NoError(t, err)
		got, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		require.NoError(t, resp.Body.Close())
		require.Equal(t, http.StatusOK, resp.StatusCode)
		require.False(t, resp.Close)
		require.Equal(t, want, string(got))
	}
	require.Equal(t, int64(3), runs.Load())
	n := 0
	conns.Range(func(any, any) bool { n++; return true })
	require.Equal(t, 1, n)
}

// batchOf returns a batch of n calls to info.getNodeID with ids 0 to n-1.
func batchOf(n int) string {
	calls := make([]string, n)
	for i := range calls {
		calls[i] = `{"jsonrpc":"2.0","id":` + strconv.Itoa(i) + `,"method":"info.getNodeID"}`
	}
	return "[" + strings.Join(calls, ",") + "]"
}

func TestBatchSize(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		n    int
		want string // the whole body, or "" for an array of n results
		runs int64
	}{
		{name: "one", n: 1, runs: 1},
		{name: "at the limit", n: jsonrpc.MaxBatch, runs: jsonrpc.MaxBatch},
		{
			name: "over the limit",
			n:    jsonrpc.MaxBatch + 1,
			want: `{"jsonrpc":"2.0","error":{"code":-32600,"message":"batch too large: at most 1000 calls","data":null},"id":null}` + "\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, runs := testServer(t)
			rec := post(s, batchOf(tt.n))
			require.Equal(t, http.StatusOK, rec.Code)
			require.Equal(t, tt.runs, runs.Load())
			if tt.want != "" {
				require.Equal(t, tt.want, rec.Body.String())
				return
			}
			var replies []struct {
				ID     int             `json:"id"`
				Result json.RawMessage `json:"result"`
			}
			require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &replies))
			require.Len(t, replies, tt.n)
			for i, r := range replies {
				require.Equal(t, i, r.ID)
				require.JSONEq(t, `{"nodeID":"NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg"}`, string(r.Result))
			}
		})
	}
}

func TestRegisterPanics(t *testing.T) {
	t.Parallel()
	handler := func(context.Context, *struct{}) (*struct{}, error) { return nil, nil }
	tests := []struct {
		name string
		reg  func(s *jsonrpc.Server)
	}{
		{name: "empty", reg: func(s *jsonrpc.Server) { jsonrpc.Register(s, "", handler) }},
		{name: "dot", reg: func(s *jsonrpc.Server) { jsonrpc.Register(s, "a.b", handler) }},
		{name: "upper case", reg: func(s *jsonrpc.Server) { jsonrpc.Register(s, "GetNodeID", handler) }},
		{name: "invalid UTF-8", reg: func(s *jsonrpc.Server) { jsonrpc.Register(s, "\xffa", handler) }},
		{name: "twice", reg: func(s *jsonrpc.Server) {
			jsonrpc.Register(s, "status", handler)
			jsonrpc.Register(s, "ſtatus", handler) // maps to Status too
		}},
		{name: "after serving", reg: func(s *jsonrpc.Server) {
			post(s, `{}`)
			jsonrpc.Register(s, "late", handler)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := jsonrpc.NewServer("info", slog.New(slog.DiscardHandler))
			require.Panics(t, func() { tt.reg(s) })
		})
	}
	require.Panics(t, func() { jsonrpc.NewServer("", slog.New(slog.DiscardHandler)) })
	require.Panics(t, func() { jsonrpc.NewServer("a.b", slog.New(slog.DiscardHandler)) })
}

// TestConcurrent runs calls in parallel, for the race detector and the state pool.
func TestConcurrent(t *testing.T) {
	t.Parallel()
	s, runs := testServer(t)
	const workers, calls = 8, 50
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range calls {
				id := strconv.Itoa(w*calls + i)
				rec := post(s, `{"jsonrpc":"2.0","id":`+id+`,"method":"info.isBootstrapped","params":{"chain":"X"}}`)
				if want := `{"jsonrpc":"2.0","result":{"isBootstrapped":true},"id":` + id + "}\n"; rec.Body.String() != want {
					t.Errorf("got %q, want %q", rec.Body.String(), want)
				}
			}
		})
	}
	wg.Wait()
	require.Equal(t, int64(workers*calls), runs.Load())
}

// FuzzServeHTTP sends random bodies: no panic, and every reply is a JSON object or array ending in a
// newline, an empty 200, or the 500 of a result that cannot be encoded. A batch's elements are
// answered as each alone would be.
func FuzzServeHTTP(f *testing.F) {
	seeds := []string{
		``, `{`, `null`, `[]`, `[1]`, `5`, "\ufeff{}",
		`{"jsonrpc":"2.0","id":1,"method":"info.getNodeVersion"}`,
		`{"jsonrpc":"2.0","id":[ 1 , "<" ],"method":"info.isBootstrapped","params":[{"chain":"X"}]}`,
		`{"jsonrpc":"2.0","id":1,"method":"info.echo","params":{"u64":"01","f":1.5,"s":"&"}}`,
		`{"jsonrpc":"2.0","id":1,"method":"info.fail","params":{"code":1,"message":"m","data":{"a":1}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"info.panic"}`,
		`{"jsonrpc":"2.0","method":"info.getNodeID"}`,
		`{"JSONRPC":"2.0","Id":1,"method":"info.ſtatus"}`,
		`[{"jsonrpc":"2.0","id":1,"method":"info.getNodeID"},{"jsonrpc":"2.0","method":"info.getNodeID"},1,{"jsonrpc":"1.0","id":2}]`,
		`[{"jsonrpc":"2.0","id":1,"method":"info.badResult"},{"jsonrpc":"2.0","id":2,"method":"info.panic"}]`,
		`[{"jsonrpc":"2.0","method":1}] x`,
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	s, _ := testServer(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		rec := post(s, string(body))
		got := rec.Body.Bytes()
		switch rec.Code {
		case http.StatusOK:
		case http.StatusInternalServerError:
			require.Equal(t, "text/plain; charset=utf-8", rec.Header().Get("Content-Type"))
			require.Contains(t, string(got), "json: error calling MarshalJSON")
			return
		default:
			t.Fatalf("status %d for %q", rec.Code, body)
		}
		if len(got) == 0 {
			require.Empty(t, rec.Header().Get("Content-Type"))
			return
		}
		require.Equal(t, "application/json; charset=utf-8", rec.Header().Get("Content-Type"))
		require.True(t, bytes.HasSuffix(got, []byte("\n")), "no newline: %q", got)
		require.True(t, json.Valid(got), "invalid JSON %q for %q", got, body)
		require.Contains(t, "{[", string(got[:1]))
		if got[0] == '[' {
			requireBatchAsSingles(t, s, body, got)
		}
	})
}

// requireBatchAsSingles checks that the batch reply got to body holds, in order, what each element
// sent alone gets.
func requireBatchAsSingles(t *testing.T, h http.Handler, body, got []byte) {
	var elems []json.RawMessage
	require.NoError(t, json.NewDecoder(bytes.NewReader(body)).Decode(&elems))
	var want []string
	for _, e := range elems {
		if e[0] != '{' {
			want = append(want, `{"jsonrpc":"2.0","error":{"code":-32600,"message":"batch element must be an object","data":null},"id":null}`)
			continue
		}
		rec := post(h, string(e))
		switch {
		case rec.Code != http.StatusOK:
			return // a reply that cannot be encoded: a batch says internal error instead
		case rec.Body.Len() > 0:
			want = append(want, strings.TrimSuffix(rec.Body.String(), "\n"))
		}
	}
	require.Equal(t, "["+strings.Join(want, ",")+"]\n", string(got))
}

func TestErrorWithInvalidData(t *testing.T) {
	t.Parallel()
	var logs lockedBuffer
	s := jsonrpc.NewServer("info", slog.New(slog.NewTextHandler(&logs, nil)))
	jsonrpc.Register(s, "fail", func(context.Context, *struct{}) (*struct{}, error) {
		return nil, &jsonrpc.Error{Code: 7, Message: "m", Data: json.RawMessage(`{not json`)}
	})
	rec := post(s, `{"jsonrpc":"2.0","id":1,"method":"info.fail"}`)
	require.Equal(t, `{"jsonrpc":"2.0","error":{"code":7,"message":"m","data":null},"id":1}`+"\n", rec.Body.String())
	require.Contains(t, logs.String(), "invalid data")
}
