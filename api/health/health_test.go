package health_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/api/health"
	"github.com/cornice-node/cornice/clock"
)

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)

var errBoom = errors.New("boom")

func pass(details any) health.Check {
	return func(context.Context) (any, error) { return details, nil }
}

func fail(err error) health.Check {
	return func(context.Context) (any, error) { return nil, err }
}

func newChecker(t *testing.T, clk clock.Clock, cfg health.Config) *health.Checker {
	t.Helper()
	c, err := health.New(cfg, clk, slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	return c
}

func encode(t *testing.T, v any) string {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, json.NewEncoder(&b).Encode(v))
	return b.String()
}

func TestReportJSON(t *testing.T) {
	t.Parallel()
	c := newChecker(t, clock.NewFake(t0), health.Config{})
	require.NoError(t, c.Register(health.Health, "b", nil, fail(errBoom)))
	require.NoError(t, c.Register(health.Health, "a", nil, pass(map[string]int{"x": 1})))
	require.NoError(t, c.Register(health.Health, "c", nil, pass(nil)))

	got := encode(t, c.Report(t.Context(), health.Health))
	want := `{"checks":{` +
		`"a":{"message":{"x":1},"timestamp":"2026-01-02T03:04:05.000000006Z","duration":0},` +
		`"b":{"error":"boom","timestamp":"2026-01-02T03:04:05.000000006Z","duration":0,"contiguousFailures":1,"timeOfFirstFailure":"2026-01-02T03:04:05.000000006Z"},` +
		`"c":{"timestamp":"2026-01-02T03:04:05.000000006Z","duration":0}` +
		`},"healthy":false}` + "\n"
	require.Equal(t, want, got)

	empty := newChecker(t, clock.NewFake(t0), health.Config{})
	require.Equal(t, `{"checks":{},"healthy":true}`+"\n", encode(t, empty.Report(t.Context(), health.Liveness)))
}

func TestFailureCounting(t *testing.T) {
	t.Parallel()
	clk := clock.NewFake(t0)
	c := newChecker(t, clk, health.Config{})
	var mu sync.Mutex
	var next error
	require.NoError(t, c.Register(health.Readiness, "flaky", nil, func(context.Context) (any, error) {
		mu.Lock()
		defer mu.Unlock()
		return nil, next
	}))
	setNext := func(err error) { mu.Lock(); next = err; mu.Unlock() }

	steps := []struct {
		err          error
		wantFailures int64
		wantFirst    time.Time // zero when passing
	}{
		{nil, 0, time.Time{}},
		{errBoom, 1, t0.Add(1 * time.Minute)},
		{errBoom, 2, t0.Add(1 * time.Minute)},
		{errBoom, 3, t0.Add(1 * time.Minute)},
		{nil, 0, time.Time{}},
		{errBoom, 1, t0.Add(5 * time.Minute)},
	}
	for i, s := range steps {
		clk.Set(t0.Add(time.Duration(i) * time.Minute))
		setNext(s.err)
		r := c.Report(t.Context(), health.Readiness)
		res := r.Checks["flaky"]
		require.Equal(t, s.err == nil, r.Healthy, "step %d", i)
		require.Equal(t, s.wantFailures, res.ContiguousFailures, "step %d", i)
		require.Equal(t, clk.Now(), res.Timestamp, "step %d", i)
		if s.err == nil {
			require.Nil(t, res.Error)
			require.Nil(t, res.TimeOfFirstFailure)
			continue
		}
		require.Equal(t, "boom", *res.Error)
		require.Equal(t, s.wantFirst, *res.TimeOfFirstFailure, "step %d", i)
	}
}

func TestTags(t *testing.T) {
	t.Parallel()
	c := newChecker(t, clock.NewFake(t0), health.Config{})
	require.NoError(t, c.Register(health.Health, "db", []string{"storage"}, pass(nil)))
	require.NoError(t, c.Register(health.Health, "net", []string{"network", "p2p"}, pass(nil)))
	require.NoError(t, c.Register(health.Health, "untagged", nil, pass(nil)))
	require.NoError(t, c.Register(health.Health, "app", []string{health.ApplicationTag}, pass(nil)))
	require.NoError(t, c.Register(health.Liveness, "alive", []string{"storage"}, pass(nil)))

	tests := []struct {
		name string
		kind health.Kind
		tags []string
		want []string
	}{
		{"no tags", health.Health, nil, []string{"app", "db", "net", "untagged"}},
		{"one tag", health.Health, []string{"storage"}, []string{"app", "db"}},
		{"two tags", health.Health, []string{"storage", "p2p"}, []string{"app", "db", "net"}},
		{"unknown tag", health.Health, []string{"nope"}, []string{"app"}},
		{"all tag", health.Health, []string{health.AllTag}, []string{"app", "db", "net", "untagged"}},
		{"other kind", health.Liveness, []string{"storage"}, []string{"alive"}},
		{"empty kind", health.Readiness, nil, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := c.Report(t.Context(), tt.kind, tt.tags...)
			require.ElementsMatch(t, tt.want, slices.Collect(maps.Keys(r.Checks)))
		})
	}
}

func TestRegisterErrors(t *testing.T) {
	t.Parallel()
	c := newChecker(t, clock.NewFake(t0), health.Config{})
	require.NoError(t, c.Register(health.Health, "x", nil, pass(nil)))
	// The same name under another kind is a different check.
	require.NoError(t, c.Register(health.Liveness, "x", nil, pass(nil)))

	tests := []struct {
		name    string
		kind    health.Kind
		check   string
		fn      health.Check
		wantErr error
	}{
		{"duplicate", health.Health, "x", pass(nil), health.ErrDuplicateCheck},
		{"empty name", health.Health, "", pass(nil), health.ErrInvalidCheck},
		{"nil check", health.Health, "y", nil, health.ErrInvalidCheck},
		{"bad kind", health.Kind(9), "y", pass(nil), health.ErrInvalidCheck},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.ErrorIs(t, c.Register(tt.kind, tt.check, nil, tt.fn), tt.wantErr)
		})
	}
	_, err := health.New(health.Config{Timeout: -1}, clock.Real{}, slog.New(slog.DiscardHandler))
	require.ErrorIs(t, err, health.ErrInvalidConfig)
}

func TestTimeoutAndPanic(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		clk := clock.Real{} // virtual time inside the bubble
		c := newChecker(t, clk, health.Config{Timeout: 2 * time.Second})
		release := make(chan struct{})
		require.NoError(t, c.Register(health.Health, "respects ctx", nil, func(ctx context.Context) (any, error) {
			<-ctx.Done()
			return nil, context.Cause(ctx)
		}))
		require.NoError(t, c.Register(health.Health, "ignores ctx", nil, func(context.Context) (any, error) {
			<-release
			return "late", nil
		}))
		require.NoError(t, c.Register(health.Health, "panics", nil, func(context.Context) (any, error) {
			panic("oops")
		}))
		require.NoError(t, c.Register(health.Health, "slow but in time", nil, func(ctx context.Context) (any, error) {
			<-clk.NewTimer(time.Second).C
			return "ok", nil
		}))

		start := clk.Now()
		r := c.Report(t.Context(), health.Health)
		require.Equal(t, 2*time.Second, clk.Now().Sub(start))
		require.False(t, r.Healthy)
		require.Equal(t, "health check timed out", *r.Checks["respects ctx"].Error)
		require.Equal(t, 2*time.Second, r.Checks["respects ctx"].Duration)
		require.Equal(t, "health check timed out", *r.Checks["ignores ctx"].Error)
		require.Equal(t, "health check panicked: oops", *r.Checks["panics"].Error)
		require.Nil(t, r.Checks["slow but in time"].Error)
		require.Equal(t, "ok", r.Checks["slow but in time"].Details)
		require.Equal(t, time.Second, r.Checks["slow but in time"].Duration)
		close(release)
	})
}

func TestCancelledCallerKeepsCounts(t *testing.T) {
	t.Parallel()
	c := newChecker(t, clock.NewFake(t0), health.Config{})
	require.NoError(t, c.Register(health.Health, "ctx", nil, func(ctx context.Context) (any, error) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return nil, errBoom
	}))
	require.Equal(t, int64(1), c.Report(t.Context(), health.Health).Checks["ctx"].ContiguousFailures)

	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	res := c.Report(ctx, health.Health).Checks["ctx"]
	require.Equal(t, "context canceled", *res.Error)
	require.Equal(t, int64(1), res.ContiguousFailures)

	require.Equal(t, int64(2), c.Report(t.Context(), health.Health).Checks["ctx"].ContiguousFailures)
}

func TestHTTPRoutes(t *testing.T) {
	t.Parallel()
	c := newChecker(t, clock.NewFake(t0), health.Config{})
	require.NoError(t, c.Register(health.Health, "ok", []string{"good"}, pass(nil)))
	require.NoError(t, c.Register(health.Health, "bad", []string{"broken"}, fail(errBoom)))
	require.NoError(t, c.Register(health.Readiness, "ready", nil, pass(nil)))
	require.NoError(t, c.Register(health.Liveness, "dead", nil, fail(errBoom)))
	routes := c.Routes()
	require.Len(t, routes, 4)

	okBody := `{"checks":{"ok":{"timestamp":"2026-01-02T03:04:05.000000006Z","duration":0}},"healthy":true}` + "\n"
	tests := []struct {
		name       string
		route      string
		method     string
		target     string
		wantStatus int
		wantBody   string
		wantNames  []string
	}{
		{name: "get all", route: "health", method: "GET", target: "/ext/health", wantStatus: 503, wantNames: []string{"bad", "ok"}},
		{name: "get tag", route: "health", method: "GET", target: "/ext/health?tag=good", wantStatus: 200, wantBody: okBody},
		{name: "health post", route: "health/health", method: "POST", target: "/ext/health/health?tag=good", wantStatus: 200, wantBody: okBody},
		{name: "health tags", route: "health/health", method: "GET", target: "/ext/health/health?tag=good&tag=broken", wantStatus: 503, wantNames: []string{"bad", "ok"}},
		{name: "readiness", route: "health/readiness", method: "PUT", target: "/ext/health/readiness", wantStatus: 200, wantNames: []string{"ready"}},
		{name: "liveness", route: "health/liveness", method: "HEAD", target: "/ext/health/liveness", wantStatus: 503},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := httptest.NewRecorder()
			routes[tt.route].ServeHTTP(w, httptest.NewRequestWithContext(t.Context(), tt.method, tt.target, nil))
			require.Equal(t, tt.wantStatus, w.Code)
			require.Equal(t, "application/json", w.Header().Get("Content-Type"))
			if tt.wantBody != "" {
				require.Equal(t, tt.wantBody, w.Body.String())
			}
			if tt.wantNames != nil {
				var r health.Report
				require.NoError(t, json.Unmarshal(w.Body.Bytes(), &r))
				require.ElementsMatch(t, tt.wantNames, slices.Collect(maps.Keys(r.Checks)))
			}
		})
	}
}

func TestJSONRPC(t *testing.T) {
	t.Parallel()
	c := newChecker(t, clock.NewFake(t0), health.Config{})
	require.NoError(t, c.Register(health.Health, "ok", []string{"good"}, pass(nil)))
	require.NoError(t, c.Register(health.Health, "bad", []string{"broken"}, fail(errBoom)))
	require.NoError(t, c.Register(health.Liveness, "alive", nil, pass("fine")))
	h := c.Routes()["health"]

	ts := `"timestamp":"2026-01-02T03:04:05.000000006Z"`
	tests := []struct {
		name       string
		method     string
		body       string
		wantStatus int
		want       string
	}{
		{
			name: "health with tags", method: "POST",
			body:       `{"jsonrpc":"2.0","id":1,"method":"health.health","params":{"tags":["good"]}}`,
			wantStatus: 200,
			want:       `{"jsonrpc":"2.0","result":{"checks":{"ok":{` + ts + `,"duration":0}},"healthy":true},"id":1}` + "\n",
		},
		{
			// An unhealthy report is still a result with HTTP 200 (node-api.md §1.5).
			name: "unhealthy", method: "POST",
			body:       `{"jsonrpc":"2.0","id":2,"method":"health.health","params":{"tags":["broken"]}}`,
			wantStatus: 200,
			want: `{"jsonrpc":"2.0","result":{"checks":{"bad":{"error":"boom",` + ts +
				`,"duration":0,"contiguousFailures":1,"timeOfFirstFailure":"2026-01-02T03:04:05.000000006Z"}},"healthy":false},"id":2}` + "\n",
		},
		{
			name: "liveness without params", method: "POST",
			body:       `{"jsonrpc":"2.0","id":"x","method":"health.liveness"}`,
			wantStatus: 200,
			want:       `{"jsonrpc":"2.0","result":{"checks":{"alive":{"message":"fine",` + ts + `,"duration":0}},"healthy":true},"id":"x"}` + "\n",
		},
		{
			name: "readiness empty", method: "POST",
			body:       `{"jsonrpc":"2.0","id":3,"method":"health.readiness","params":{}}`,
			wantStatus: 200,
			want:       `{"jsonrpc":"2.0","result":{"checks":{},"healthy":true},"id":3}` + "\n",
		},
		{
			name: "head is not GET", method: "HEAD", wantStatus: 405,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			req := httptest.NewRequestWithContext(t.Context(), tt.method, "/ext/health", strings.NewReader(tt.body))
			req.Header.Set("Content-Type", "application/json")
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			require.Equal(t, tt.wantStatus, w.Code)
			if tt.want != "" {
				require.Equal(t, tt.want, w.Body.String())
			}
		})
	}
}

func TestUnencodableDetails(t *testing.T) {
	t.Parallel()
	c := newChecker(t, clock.NewFake(t0), health.Config{})
	require.NoError(t, c.Register(health.Health, "chan", nil, pass(make(chan int))))
	w := httptest.NewRecorder()
	c.Routes()["health/health"].ServeHTTP(w, httptest.NewRequestWithContext(t.Context(), "GET", "/ext/health/health", nil))
	require.Equal(t, http.StatusInternalServerError, w.Code)
}

func FuzzJSONRPC(f *testing.F) {
	f.Add(`{"jsonrpc":"2.0","id":1,"method":"health.health","params":{"tags":["a"]}}`)
	f.Add(`{"jsonrpc":"2.0","id":1,"method":"health.readiness","params":[{"tags":null}]}`)
	f.Add(`{"jsonrpc":"2.0","id":1,"method":"health.liveness","params":{"tags":"x"}}`)
	f.Add(`[{"jsonrpc":"2.0","id":1,"method":"health.health"}]`)
	c, err := health.New(health.Config{}, clock.NewFake(t0), slog.New(slog.DiscardHandler))
	require.NoError(f, err)
	require.NoError(f, c.Register(health.Health, "a", []string{"a"}, pass(nil)))
	h := c.Routes()["health"]
	f.Fuzz(func(t *testing.T, body string) {
		req := httptest.NewRequestWithContext(t.Context(), "POST", "/ext/health", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		require.Equal(t, http.StatusOK, w.Code)
	})
}
