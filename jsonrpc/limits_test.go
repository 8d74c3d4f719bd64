package jsonrpc_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/jsonrpc"
)

type blobArgs struct {
	N int `json:"n"`
}

type blobReply struct {
	Blob string `json:"blob"`
}

// blobServer serves "test.blob", whose reply holds n bytes of 'x' (n+11 bytes of result), and
// "test.light", registered with Register.
func blobServer(t *testing.T) *jsonrpc.Server {
	t.Helper()
	s := jsonrpc.NewServer("test", slog.New(slog.DiscardHandler))
	jsonrpc.RegisterHeavy(s, "blob", func(_ context.Context, a *blobArgs) (*blobReply, error) {
		return &blobReply{Blob: strings.Repeat("x", a.N)}, nil
	})
	jsonrpc.Register(s, "light", func(context.Context, *struct{}) (*blobReply, error) {
		return &blobReply{Blob: "ok"}, nil
	})
	return s
}

// postWith sends body to h with l in the request's context.
func postWith(ctx context.Context, h http.Handler, l *jsonrpc.Limits, body string) *httptest.ResponseRecorder {
	req := httptest.NewRequestWithContext(jsonrpc.WithLimits(ctx, l), http.MethodPost, "/ext/test", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func blobCall(id string, n string) string {
	return `{"jsonrpc":"2.0","method":"test.blob","params":{"n":` + n + `},"id":` + id + `}`
}

func TestBatchResponseCap(t *testing.T) {
	t.Parallel()
	s := blobServer(t)
	// Each blob element is {"jsonrpc":"2.0","result":{"blob":"<100 x>"},"id":N} = 140 bytes,
	// plus a comma after the first. With a cap of 250 bytes, the first two are answered (140,
	// then 281 > 250 is only seen after the second) and everything after is refused.
	x := strings.Repeat("x", 100)
	body := "[" + strings.Join([]string{
		blobCall("1", "100"),
		blobCall("2", "100"),
		blobCall(`"three"`, "100"),
		`{"jsonrpc":"2.0","method":"test.blob","params":{"n":100}}`, // notification: no element
		`7`, // not an object: refused with a null id
		`{"jsonrpc":"2.0","method":"test.nope","id":4}`, // would be an error: refused as well
		`{"jsonrpc":"2.0","method":"test.light","id":5}`,
	}, ",") + "]"
	rec := postWith(t.Context(), s, jsonrpc.NewLimits(250, 0), body)
	require.Equal(t, http.StatusOK, rec.Code)
	tooLarge := func(id string) string {
		return `{"jsonrpc":"2.0","error":{"code":-32003,"message":"response too large","data":null},"id":` + id + `}`
	}
	want := `[` +
		`{"jsonrpc":"2.0","result":{"blob":"` + x + `"},"id":1},` +
		`{"jsonrpc":"2.0","result":{"blob":"` + x + `"},"id":2},` +
		tooLarge(`"three"`) + `,` + tooLarge("null") + `,` + tooLarge("4") + `,` + tooLarge("5") +
		"]\n"
	require.Equal(t, want, rec.Body.String())

	// Under the cap, or without one, every element runs.
	for _, l := range []*jsonrpc.Limits{jsonrpc.NewLimits(1000, 0), jsonrpc.NewLimits(0, 0)} {
		rec = postWith(t.Context(), s, l, "["+blobCall("1", "100")+","+blobCall("2", "100")+","+blobCall("3", "100")+"]")
		require.Equal(t, 3, strings.Count(rec.Body.String(), x))
		require.NotContains(t, rec.Body.String(), "-32003")
	}

	// A single call is not capped.
	rec = postWith(t.Context(), s, jsonrpc.NewLimits(10, 0), blobCall("1", "100"))
	require.Equal(t, `{"jsonrpc":"2.0","result":{"blob":"`+x+`"},"id":1}`+"\n", rec.Body.String())
}

func TestDefaultLimits(t *testing.T) {
	t.Parallel()
	require.Equal(t, 25_000_000, jsonrpc.DefaultBatchResponse)
	require.Equal(t, jsonrpc.DefaultBatchResponse, jsonrpc.LimitsFrom(t.Context()).BatchResponse())
	l := jsonrpc.NewLimits(5, 1)
	require.Same(t, l, jsonrpc.LimitsFrom(jsonrpc.WithLimits(t.Context(), l)))
	require.Equal(t, 0, jsonrpc.NewLimits(-1, -1).BatchResponse())
}

// blockingServer serves "test.hold", heavy, which signals started and waits for release, and
// "test.light".
func blockingServer(t *testing.T) (s *jsonrpc.Server, started chan struct{}, release chan struct{}, runs *atomic.Int64) {
	t.Helper()
	s = jsonrpc.NewServer("test", slog.New(slog.DiscardHandler))
	started = make(chan struct{}, 10)
	release = make(chan struct{})
	runs = new(atomic.Int64)
	jsonrpc.RegisterHeavy(s, "hold", func(context.Context, *struct{}) (*blobReply, error) {
		runs.Add(1)
		started <- struct{}{}
		<-release
		return &blobReply{Blob: "held"}, nil
	})
	jsonrpc.Register(s, "light", func(context.Context, *struct{}) (*blobReply, error) {
		return &blobReply{Blob: "ok"}, nil
	})
	return s, started, release, runs
}

const (
	holdCall  = `{"jsonrpc":"2.0","method":"test.hold","id":1}`
	lightCall = `{"jsonrpc":"2.0","method":"test.light","id":1}`
)

func TestHeavyCallsWaitForASlot(t *testing.T) {
	t.Parallel()
	s, started, release, runs := blockingServer(t)
	l := jsonrpc.NewLimits(0, 1)

	first := make(chan *httptest.ResponseRecorder)
	go func() { first <- postWith(t.Context(), s, l, holdCall) }()
	<-started // the only slot is taken

	// A batch holding a heavy call waits for the slot: its handler does not run yet.
	second := make(chan *httptest.ResponseRecorder)
	go func() { second <- postWith(t.Context(), s, l, "["+lightCall+","+holdCall+","+holdCall+"]") }()

	// Light calls, alone or batched, never wait for a slot.
	for _, body := range []string{lightCall, "[" + lightCall + "," + lightCall + "]"} {
		rec := postWith(t.Context(), s, l, body)
		require.Contains(t, rec.Body.String(), `"result":{"blob":"ok"}`)
	}
	require.Equal(t, int64(1), runs.Load())

	release <- struct{}{}
	require.Equal(t, `{"jsonrpc":"2.0","result":{"blob":"held"},"id":1}`+"\n", (<-first).Body.String())
	// The batch takes the freed slot once, for both of its heavy calls.
	<-started
	release <- struct{}{}
	<-started
	release <- struct{}{}
	rec := <-second
	require.Equal(t, 2, strings.Count(rec.Body.String(), `"held"`))
	require.Equal(t, int64(3), runs.Load())
}

func TestHeavyCallBusy(t *testing.T) {
	t.Parallel()
	s, started, release, runs := blockingServer(t)
	l := jsonrpc.NewLimits(0, 1)
	done := make(chan struct{})
	go func() {
		postWith(t.Context(), s, l, holdCall)
		close(done)
	}()
	<-started

	// A heavy call, or a batch holding one, whose context ends while it waits gets 503: nothing
	// of it runs.
	for _, body := range []string{holdCall, "[" + lightCall + "," + holdCall + "]"} {
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		rec := postWith(ctx, s, l, body)
		require.Equal(t, http.StatusServiceUnavailable, rec.Code)
		require.Equal(t, "text/plain; charset=utf-8", rec.Header().Get("Content-Type"))
		require.Equal(t, "rpc: too many heavy calls in progress; try again later", rec.Body.String())
	}
	require.Equal(t, int64(1), runs.Load())
	release <- struct{}{}
	<-done
}

// echoHandler stands for another JSON-RPC server: it counts its requests and echoes the body.
type echoHandler struct {
	runs    atomic.Int64
	started chan struct{}
	release chan struct{}
}

func (h *echoHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.runs.Add(1)
	if h.started != nil {
		h.started <- struct{}{}
		<-h.release
	}
	_, _ = io.Copy(w, r.Body)
}

func TestGate(t *testing.T) {
	t.Parallel()
	inner := &echoHandler{started: make(chan struct{}, 10), release: make(chan struct{})}
	heavy := func(m []byte) bool { return string(m) == "eth_getLogs" }
	g := jsonrpc.Gate(inner, heavy, nil)
	l := jsonrpc.NewLimits(0, 1)

	const logs = `{"jsonrpc":"2.0","method":"eth_getLogs","params":[{}],"id":1}`
	first := make(chan *httptest.ResponseRecorder)
	go func() { first <- postWith(t.Context(), g, l, logs) }()
	<-inner.started

	// A batch waits; when its context ends first it gets 503 and the server never sees it.
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	rec := postWith(ctx, g, l, `[`+logs+`]`)
	require.Equal(t, http.StatusServiceUnavailable, rec.Code)
	require.Equal(t, "rpc: too many heavy calls in progress; try again later", rec.Body.String())
	require.Equal(t, int64(1), inner.runs.Load())

	// Light calls and unparsable bodies go through at once, their bytes untouched.
	inner.started = nil
	for _, body := range []string{`{"jsonrpc":"2.0","method":"eth_chainId","id":1}`, `{"method":`, ``} {
		rec := postWith(ctx, g, l, body)
		require.Equal(t, http.StatusOK, rec.Code)
		require.Equal(t, body, rec.Body.String())
	}
	close(inner.release)
	require.Equal(t, logs, (<-first).Body.String())

	// Without a bound, nothing waits or is read ahead.
	rec = postWith(t.Context(), g, jsonrpc.NewLimits(0, 0), `[`+logs+`]`)
	require.Equal(t, `[`+logs+`]`, rec.Body.String())
}

// TestGateFront: a single call in the plain form that is not heavy goes to the front, with its
// fields; when the front declines, or for anything else (a batch, a heavy call, escapes, bytes
// after the object, another key), the server gets the body untouched. The body is read once
// even without a heavy-call bound.
func TestGateFront(t *testing.T) {
	t.Parallel()
	inner := &echoHandler{}
	var got []jsonrpc.Call
	front := func(w http.ResponseWriter, _ *http.Request, c *jsonrpc.Call) bool {
		got = append(got, jsonrpc.Call{Version: bytes.Clone(c.Version), Method: bytes.Clone(c.Method), Params: bytes.Clone(c.Params), ID: bytes.Clone(c.ID)})
		if string(c.Method) != "eth_call" {
			return false
		}
		_, _ = io.WriteString(w, "front")
		return true
	}
	heavy := func(m []byte) bool { return string(m) == "eth_getLogs" }
	g := jsonrpc.Gate(inner, heavy, front)
	for _, l := range []*jsonrpc.Limits{jsonrpc.NewLimits(0, 0), jsonrpc.NewLimits(0, 1)} {
		got = nil
		rec := postWith(t.Context(), g, l, ` {"jsonrpc":"2.0","method":"eth_call","params":[{"to":"0x01"},"latest"],"id":"a"} `)
		require.Equal(t, "front", rec.Body.String())
		require.Equal(t, []jsonrpc.Call{{Version: []byte("2.0"), Method: []byte("eth_call"), Params: []byte(`[{"to":"0x01"},"latest"]`), ID: []byte(`"a"`)}}, got)

		declined := `{"jsonrpc":"2.0","method":"eth_chainId","id":null}`
		rec = postWith(t.Context(), g, l, declined)
		require.Equal(t, declined, rec.Body.String())
		require.Len(t, got, 2)
		require.Nil(t, got[1].ID)
		require.Nil(t, got[1].Params)

		for _, body := range []string{
			`[{"jsonrpc":"2.0","method":"eth_call","id":1}]`,
			`{"jsonrpc":"2.0","method":"eth_getLogs","params":[{}],"id":1}`,
			`{"jsonrpc":"2.0","method":"eth_\u0063all","id":1}`,
			`{"jsonrpc":"2.0","method":"eth_call","id":1} x`,
			`{"jsonrpc":"2.0","method":"eth_call","id":1,"extra":0}`,
			`{"jsonrpc":"2.0","method":"eth_call","id":1,"id":2}`,
			`{"method":`,
			``,
		} {
			rec := postWith(t.Context(), g, l, body)
			require.Equal(t, body, rec.Body.String())
		}
		require.Len(t, got, 2, "no other body reaches the front")
	}
}

func TestCallArgs(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		params string
		want   []string
		ok     bool
	}{
		{`[]`, nil, true},
		{`[ ]`, nil, true},
		{`[{"a":[1,"]"]},"latest"]`, []string{`{"a":[1,"]"]}`, `"latest"`}, true},
		{` [ -1.5e3 , true,null,"a\"b" ,[[]] ] `[1:], []string{`-1.5e3`, `true`, `null`, `"a\"b"`, `[[]]`}, true},
		{`{}`, nil, false},
		{``, nil, false},
		{`"x"`, nil, false},
	} {
		args, ok := (&jsonrpc.Call{Params: []byte(tc.params)}).Args(nil)
		require.Equal(t, tc.ok, ok, tc.params)
		var got []string
		for _, a := range args {
			got = append(got, string(a))
		}
		require.Equal(t, tc.want, got, tc.params)
	}
}

// TestMembers: an object's members in order, raw; a key that is not plain, or anything but an
// object, is refused, and so is the rest once fn refuses.
func TestMembers(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		obj  string
		want []string
		ok   bool
	}{
		{`{}`, nil, true},
		{` { } `, nil, true},
		{`{"a":1}`, []string{`a=1`}, true},
		{` { "to" : "0x1" ,"a":{"b":[1,"}"]},"a":null	} `, []string{`to="0x1"`, `a={"b":[1,"}"]}`, `a=null`}, true},
		{`{"a":1,"stop":2,"c":3}`, []string{`a=1`, `stop=2`}, false},
		{`{"a\"b":1}`, nil, false},
		{`{"é":1}`, nil, false},
		{`[]`, nil, false},
		{`"x"`, nil, false},
		{`null`, nil, false},
	} {
		var got []string
		ok := jsonrpc.Members([]byte(tc.obj), func(key, value []byte) bool {
			got = append(got, string(key)+"="+string(value))
			return string(key) != "stop"
		})
		require.Equal(t, tc.ok, ok, tc.obj)
		require.Equal(t, tc.want, got, tc.obj)
	}
}
