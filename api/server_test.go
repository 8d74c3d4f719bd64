package api_test

import (
	"context"
	"crypto/tls"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/api"
	"github.com/cornice-node/cornice/ids"
)

var testNodeID = ids.NodeID{0x01, 0x02, 0x03}

// okHandler answers 200 "ok".
var okHandler = http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
	_, _ = io.WriteString(w, "ok")
})

// textHandler answers 200 with body s.
func textHandler(s string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, s) })
}

type testServer struct {
	srv  *api.Server
	base string // http://127.0.0.1:port
	addr string // 127.0.0.1:port
	reg  *prometheus.Registry
	done chan error
}

// start serves a new server for cfg on 127.0.0.1:0 and shuts it down at the end of the test.
func start(t *testing.T, cfg api.Config) *testServer {
	t.Helper()
	cfg.Host = "127.0.0.1"
	reg := prometheus.NewRegistry()
	log := slog.New(slog.NewTextHandler(t.Output(), nil))
	srv, err := api.New(cfg, testNodeID, log, reg)
	require.NoError(t, err)
	addr, err := srv.Listen()
	require.NoError(t, err)
	ts := &testServer{srv: srv, base: "http://" + addr.String(), addr: addr.String(), reg: reg, done: make(chan error, 1)}
	go func() { ts.done <- srv.Serve() }()
	t.Cleanup(func() {
		require.NoError(t, srv.Shutdown(context.Background()))
		require.NoError(t, <-ts.done)
	})
	return ts
}

// noRedirect is a client that returns redirects instead of following them.
var noRedirect = &http.Client{
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
}

type response struct {
	status int
	header http.Header
	body   string
}

func do(t *testing.T, req *http.Request) response {
	t.Helper()
	resp, err := noRedirect.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return response{status: resp.StatusCode, header: resp.Header, body: string(b)}
}

func newRequest(t *testing.T, method, url string, header map[string]string) *http.Request {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, url, nil)
	require.NoError(t, err)
	for k, v := range header {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	return req
}

func TestNodeIDHeaderOnEveryResponse(t *testing.T) {
	t.Parallel()
	ts := start(t, api.Config{})
	require.NoError(t, ts.srv.AddRoute("ok", okHandler))

	tests := []struct {
		name       string
		method     string
		path       string
		header     map[string]string
		wantStatus int
	}{
		{name: "route", method: http.MethodGet, path: "/ext/ok", wantStatus: http.StatusOK},
		{name: "unknown", method: http.MethodGet, path: "/ext/nope", wantStatus: http.StatusNotFound},
		{name: "root", method: http.MethodGet, path: "/", wantStatus: http.StatusNotFound},
		{name: "bad host", method: http.MethodGet, path: "/ext/ok", header: map[string]string{"Host": "evil.com"}, wantStatus: http.StatusForbidden},
		{name: "redirect", method: http.MethodGet, path: "/ext//ok", wantStatus: http.StatusMovedPermanently},
		{name: "preflight", method: http.MethodOptions, path: "/ext/ok", header: map[string]string{"Origin": "http://a.com", "Access-Control-Request-Method": "POST"}, wantStatus: http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := do(t, newRequest(t, tt.method, ts.base+tt.path, tt.header))
			require.Equal(t, tt.wantStatus, r.status)
			require.Equal(t, []string{testNodeID.String()}, r.header.Values("Node-Id"))
		})
	}
}

func TestCORS(t *testing.T) {
	t.Parallel()
	star := start(t, api.Config{})
	list := start(t, api.Config{AllowedOrigins: []string{"https://App.example", "https://*.wild.example"}})
	for _, ts := range []*testServer{star, list} {
		require.NoError(t, ts.srv.AddRoute("ok", okHandler))
	}

	preflightVary := []string{"Origin", "Access-Control-Request-Method", "Access-Control-Request-Headers"}
	tests := []struct {
		name   string
		ts     *testServer
		method string
		header map[string]string
		// wantBody is the body; preflights are answered by the middleware with an empty one.
		wantBody string
		// want lists expected response headers; a nil value means the header must be absent.
		want     map[string][]string
		wantVary []string
	}{
		{
			name: "preflight star", ts: star, method: http.MethodOptions,
			header: map[string]string{
				"Origin":                         "http://anything.test",
				"Access-Control-Request-Method":  "post",
				"Access-Control-Request-Headers": "content-type, x-requested-with",
			},
			want: map[string][]string{
				"Access-Control-Allow-Origin":      {"*"},
				"Access-Control-Allow-Credentials": {"true"},
				"Access-Control-Allow-Methods":     {"POST"},
				"Access-Control-Allow-Headers":     {"Content-Type, X-Requested-With"},
			},
			wantVary: preflightVary,
		},
		{
			name: "preflight disallowed header", ts: star, method: http.MethodOptions,
			header: map[string]string{
				"Origin":                         "http://anything.test",
				"Access-Control-Request-Method":  "POST",
				"Access-Control-Request-Headers": "Authorization",
			},
			want:     map[string][]string{"Access-Control-Allow-Origin": nil, "Access-Control-Allow-Methods": nil},
			wantVary: preflightVary,
		},
		{
			name: "preflight disallowed method", ts: star, method: http.MethodOptions,
			header:   map[string]string{"Origin": "http://anything.test", "Access-Control-Request-Method": "DELETE"},
			want:     map[string][]string{"Access-Control-Allow-Origin": nil},
			wantVary: preflightVary,
		},
		{
			name: "preflight listed origin", ts: list, method: http.MethodOptions,
			header: map[string]string{"Origin": "https://app.example", "Access-Control-Request-Method": "GET"},
			want: map[string][]string{
				"Access-Control-Allow-Origin":      {"https://app.example"},
				"Access-Control-Allow-Credentials": {"true"},
				"Access-Control-Allow-Methods":     {"GET"},
				"Access-Control-Allow-Headers":     nil,
			},
			wantVary: preflightVary,
		},
		{
			name: "preflight unlisted origin", ts: list, method: http.MethodOptions,
			header:   map[string]string{"Origin": "https://evil.example", "Access-Control-Request-Method": "GET"},
			want:     map[string][]string{"Access-Control-Allow-Origin": nil, "Access-Control-Allow-Credentials": nil},
			wantVary: preflightVary,
		},
		{
			name: "simple star", ts: star, method: http.MethodGet,
			header:   map[string]string{"Origin": "http://anything.test"},
			wantBody: "ok",
			want: map[string][]string{
				"Access-Control-Allow-Origin":      {"*"},
				"Access-Control-Allow-Credentials": {"true"},
				"Access-Control-Allow-Methods":     nil,
			},
			wantVary: []string{"Origin"},
		},
		{
			name: "simple wildcard origin", ts: list, method: http.MethodPost,
			header:   map[string]string{"Origin": "https://a.wild.example"},
			wantBody: "ok",
			want:     map[string][]string{"Access-Control-Allow-Origin": {"https://a.wild.example"}},
			wantVary: []string{"Origin"},
		},
		{
			name: "simple unlisted origin", ts: list, method: http.MethodGet,
			header:   map[string]string{"Origin": "https://wild.example"},
			wantBody: "ok",
			want:     map[string][]string{"Access-Control-Allow-Origin": nil},
			wantVary: []string{"Origin"},
		},
		{
			name: "no origin", ts: star, method: http.MethodGet,
			wantBody: "ok",
			want:     map[string][]string{"Access-Control-Allow-Origin": nil},
			wantVary: []string{"Origin"},
		},
		{
			name: "options without preflight header reaches the handler", ts: star, method: http.MethodOptions,
			header:   map[string]string{"Origin": "http://anything.test"},
			wantBody: "ok",
			want:     map[string][]string{"Access-Control-Allow-Origin": {"*"}},
			wantVary: []string{"Origin"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := do(t, newRequest(t, tt.method, tt.ts.base+"/ext/ok", tt.header))
			require.Equal(t, http.StatusOK, r.status)
			require.Equal(t, tt.wantBody, r.body)
			for k, v := range tt.want {
				require.Equal(t, v, r.header.Values(k), k)
			}
			require.Equal(t, tt.wantVary, r.header.Values("Vary"))
		})
	}
}

func TestHostFilter(t *testing.T) {
	t.Parallel()
	def := start(t, api.Config{})
	off := start(t, api.Config{AllowedHosts: []string{"*"}})
	custom := start(t, api.Config{AllowedHosts: []string{"Node.Example"}})
	for _, ts := range []*testServer{def, off, custom} {
		require.NoError(t, ts.srv.AddRoute("ok", okHandler))
	}

	tests := []struct {
		name string
		ts   *testServer
		host string
		ok   bool
	}{
		{"localhost", def, "localhost", true},
		{"localhost upper with port", def, "LOCALHOST:9650", true},
		{"ipv4", def, "127.0.0.1", true},
		{"ipv4 with port", def, "10.1.2.3:80", true},
		{"ipv6 bracketed", def, "[::1]", true},
		{"ipv6 with port", def, "[::1]:9650", true},
		{"evil", def, "evil.com", false},
		{"evil with port", def, "evil.com:9650", false},
		{"localhost subdomain", def, "a.localhost", false},
		{"filter off", off, "evil.com", true},
		{"custom listed", custom, "node.example:1", true},
		{"custom default not kept", custom, "localhost", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := do(t, newRequest(t, http.MethodGet, tt.ts.base+"/ext/ok", map[string]string{"Host": tt.host}))
			if tt.ok {
				require.Equal(t, http.StatusOK, r.status)
				require.Equal(t, "ok", r.body)
				return
			}
			require.Equal(t, http.StatusForbidden, r.status)
			require.Equal(t, "invalid host specified\n", r.body)
			require.Equal(t, "text/plain; charset=utf-8", r.header.Get("Content-Type"))
		})
	}

	t.Run("empty host", func(t *testing.T) {
		t.Parallel()
		// HTTP/1.0 allows a request without Host; Go's client always sends one.
		conn, err := net.Dial("tcp", def.addr)
		require.NoError(t, err)
		defer conn.Close()
		_, err = io.WriteString(conn, "GET /ext/ok HTTP/1.0\r\n\r\n")
		require.NoError(t, err)
		b, err := io.ReadAll(conn)
		require.NoError(t, err)
		require.True(t, strings.HasPrefix(string(b), "HTTP/1.0 200 OK\r\n"), string(b))
		require.True(t, strings.HasSuffix(string(b), "\r\n\r\nok"), string(b))
	})
}

func TestRouting(t *testing.T) {
	t.Parallel()
	ts := start(t, api.Config{})
	require.NoError(t, ts.srv.AddRoute("info", textHandler("info")))
	require.NoError(t, ts.srv.AddRoute("index/X/block", textHandler("xblock")))

	tests := []struct {
		name         string
		path         string
		wantStatus   int
		wantBody     string
		wantLocation string
	}{
		{name: "exact", path: "/ext/info", wantStatus: 200, wantBody: "info"},
		{name: "nested", path: "/ext/index/X/block", wantStatus: 200, wantBody: "xblock"},
		{name: "query ignored", path: "/ext/info?a=b", wantStatus: 200, wantBody: "info"},
		{name: "trailing slash", path: "/ext/info/", wantStatus: 404, wantBody: "404 page not found\n"},
		{name: "prefix only", path: "/ext/index/X", wantStatus: 404, wantBody: "404 page not found\n"},
		{name: "case matters", path: "/ext/Info", wantStatus: 404, wantBody: "404 page not found\n"},
		{name: "unknown", path: "/ext/nothing", wantStatus: 404, wantBody: "404 page not found\n"},
		{name: "double slash", path: "/ext//info", wantStatus: 301, wantLocation: "/ext/info"},
		{name: "dot", path: "/ext/./info", wantStatus: 301, wantLocation: "/ext/info"},
		{name: "dot dot", path: "/ext/x/../info", wantStatus: 301, wantLocation: "/ext/info"},
		{name: "redirect keeps query and trailing slash", path: "/ext//info/?q=1", wantStatus: 301, wantLocation: "/ext/info/?q=1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			req := newRequest(t, http.MethodGet, ts.base+"/", nil)
			// Set the raw path so that the client sends it unchanged.
			req.URL.Opaque = strings.SplitN(tt.path, "?", 2)[0]
			if _, q, ok := strings.Cut(tt.path, "?"); ok {
				req.URL.RawQuery = q
			}
			r := do(t, req)
			require.Equal(t, tt.wantStatus, r.status)
			require.Equal(t, tt.wantBody, r.body)
			require.Equal(t, tt.wantLocation, r.header.Get("Location"))
		})
	}
}

func TestAddRouteErrors(t *testing.T) {
	t.Parallel()
	srv, err := api.New(api.Config{}, testNodeID, slog.New(slog.DiscardHandler), nil)
	require.NoError(t, err)
	require.NoError(t, srv.AddRoute("info", okHandler))
	require.NoError(t, srv.AddRoute("bc/abc", okHandler))

	tests := []struct {
		name    string
		add     func() error
		wantErr error
	}{
		{"duplicate", func() error { return srv.AddRoute("info", okHandler) }, api.ErrDuplicateRoute},
		{"empty", func() error { return srv.AddRoute("", okHandler) }, api.ErrInvalidRoute},
		{"leading slash", func() error { return srv.AddRoute("/x", okHandler) }, api.ErrInvalidRoute},
		{"trailing slash", func() error { return srv.AddRoute("x/", okHandler) }, api.ErrInvalidRoute},
		{"double slash", func() error { return srv.AddRoute("x//y", okHandler) }, api.ErrInvalidRoute},
		{"dot dot", func() error { return srv.AddRoute("x/../y", okHandler) }, api.ErrInvalidRoute},
		{"nil handler", func() error { return srv.AddRoute("nil", nil) }, api.ErrInvalidRoute},
		{"alias unknown", func() error { return srv.AddAliases("bc/zzz", "Z") }, api.ErrUnknownRoute},
		{"alias taken", func() error { return srv.AddAliases("bc/abc", "info") }, api.ErrDuplicateRoute},
		{"alias twice", func() error { return srv.AddAliases("bc/abc", "A", "A") }, api.ErrDuplicateRoute},
		{"alias invalid", func() error { return srv.AddAliases("bc/abc", "a/") }, api.ErrInvalidRoute},
		{"alias base invalid", func() error { return srv.AddAliases("/bc/abc", "a") }, api.ErrInvalidRoute},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.ErrorIs(t, tt.add(), tt.wantErr)
		})
	}
	// A failed AddAliases changed nothing: "A" is still free.
	require.NoError(t, srv.AddAliases("bc/abc", "A"))
}

func TestAliases(t *testing.T) {
	t.Parallel()
	ts := start(t, api.Config{})
	s := ts.srv
	require.NoError(t, s.AddRoute("bc/chainid", textHandler("base")))
	require.NoError(t, s.AddRoute("bc/chainid/rpc", textHandler("rpc")))
	require.NoError(t, s.AddRoute("bc/chainidother", textHandler("other")))
	require.NoError(t, s.AddAliases("bc/chainid", "X", "avm", "bc/X"))
	// Routes added under the base later are aliased too.
	require.NoError(t, s.AddRoute("bc/chainid/ws", textHandler("ws")))
	// An alias of an alias copies the routes it has now.
	require.NoError(t, s.AddAliases("X", "custom"))

	tests := []struct {
		path       string
		wantStatus int
		wantBody   string
	}{
		{"/ext/X", 200, "base"},
		{"/ext/X/rpc", 200, "rpc"},
		{"/ext/avm/rpc", 200, "rpc"},
		{"/ext/bc/X/rpc", 200, "rpc"},
		{"/ext/bc/X/ws", 200, "ws"},
		{"/ext/avm/ws", 200, "ws"},
		{"/ext/custom/rpc", 200, "rpc"},
		{"/ext/custom/ws", 200, "ws"},
		{"/ext/bc/chainidother", 200, "other"},
		{"/ext/Xother", 404, "404 page not found\n"},
		{"/ext/X/", 404, "404 page not found\n"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			t.Parallel()
			r := do(t, newRequest(t, http.MethodGet, ts.base+tt.path, nil))
			require.Equal(t, tt.wantStatus, r.status)
			require.Equal(t, tt.wantBody, r.body)
		})
	}
	// A later route that would collide under an alias is refused, and nothing is added.
	require.NoError(t, s.AddRoute("X/extra", okHandler))
	require.ErrorIs(t, s.AddRoute("bc/chainid/extra", okHandler), api.ErrDuplicateRoute)
	r := do(t, newRequest(t, http.MethodGet, ts.base+"/ext/bc/chainid/extra", nil))
	require.Equal(t, http.StatusNotFound, r.status)
}

func TestMetricsExposed(t *testing.T) {
	t.Parallel()
	ts := start(t, api.Config{})
	require.NoError(t, ts.srv.AddRoute("ok", okHandler))
	require.NoError(t, ts.srv.AddRoute("metrics", promhttp.HandlerFor(ts.reg, promhttp.HandlerOpts{})))

	for range 3 {
		do(t, newRequest(t, http.MethodGet, ts.base+"/ext/ok", nil))
	}
	do(t, newRequest(t, http.MethodPost, ts.base+"/ext/ok", nil))
	do(t, newRequest(t, http.MethodGet, ts.base+"/ext/missing/1", nil))
	do(t, newRequest(t, http.MethodGet, ts.base+"/ext/missing/2", nil))
	// Requests refused by the host filter are not counted.
	do(t, newRequest(t, http.MethodGet, ts.base+"/ext/ok", map[string]string{"Host": "evil.com"}))

	r := do(t, newRequest(t, http.MethodGet, ts.base+"/ext/metrics", nil))
	require.Equal(t, http.StatusOK, r.status)
	for _, want := range []string{
		`api_requests_total{method="GET",route="/ext/ok"} 3`,
		`api_requests_total{method="POST",route="/ext/ok"} 1`,
		`api_requests_total{method="GET",route="notFound"} 2`,
		`api_request_duration_seconds_count{method="GET",route="/ext/ok"} 3`,
		// The scrape itself is in flight.
		`api_requests_in_flight 1`,
	} {
		require.Contains(t, r.body, want+"\n")
	}
}

func TestNewRegistersMetricsOnce(t *testing.T) {
	t.Parallel()
	reg := prometheus.NewRegistry()
	log := slog.New(slog.DiscardHandler)
	_, err := api.New(api.Config{}, testNodeID, log, reg)
	require.NoError(t, err)
	_, err = api.New(api.Config{}, testNodeID, log, reg)
	require.ErrorAs(t, err, new(prometheus.AlreadyRegisteredError))
}

func TestAddRouteWhileServing(t *testing.T) {
	t.Parallel()
	ts := start(t, api.Config{})
	require.NoError(t, ts.srv.AddRoute("ok", okHandler))

	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				// Not require: FailNow must not be called from this goroutine.
				resp, err := http.Get(ts.base + "/ext/ok")
				if err != nil {
					t.Error(err)
					return
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					t.Errorf("status %d while adding routes", resp.StatusCode)
					return
				}
			}
		})
	}
	for i := range 50 {
		name := "late" + strings.Repeat("x", i)
		require.NoError(t, ts.srv.AddRoute(name, textHandler(name)))
		r := do(t, newRequest(t, http.MethodGet, ts.base+"/ext/"+name, nil))
		require.Equal(t, http.StatusOK, r.status)
		require.Equal(t, name, r.body)
	}
	close(stop)
	wg.Wait()
}

// TestRequestHasDeadline: a request's context ends WriteTimeout after the request came (taken from
// the server's epoch and the monotonic clock since, not from a clock read of its own).
func TestRequestHasDeadline(t *testing.T) {
	t.Parallel()
	ts := start(t, api.Config{WriteTimeout: time.Hour})
	require.NoError(t, ts.srv.AddRoute("deadline", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d, ok := r.Context().Deadline()
		// Bounds far from any scheduling delay: the deadline is within the hour, and not an
		// hour early.
		if left := time.Until(d); ok && left > 59*time.Minute && left <= time.Hour {
			_, _ = io.WriteString(w, "yes")
		}
	})))
	r := do(t, newRequest(t, http.MethodGet, ts.base+"/ext/deadline", nil))
	require.Equal(t, "yes", r.body)
}

// TestInstantRouteHasNoDeadline: a handler marked Instant gets the request's own context, without
// a deadline, under its path and its alias, and is still served through the whole chain.
func TestInstantRouteHasNoDeadline(t *testing.T) {
	t.Parallel()
	ts := start(t, api.Config{})
	require.NoError(t, ts.srv.AddRoute("instant/a", api.Instant(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, ok := r.Context().Deadline(); !ok {
			_, _ = io.WriteString(w, "none")
		}
	}))))
	require.NoError(t, ts.srv.AddAliases("instant", "fast"))
	for _, p := range []string{"/ext/instant/a", "/ext/fast/a"} {
		r := do(t, newRequest(t, http.MethodGet, ts.base+p, nil))
		require.Equal(t, "none", r.body, p)
		require.NotEmpty(t, r.header.Get("Node-Id"), p)
	}
}

func TestHTTP2Cleartext(t *testing.T) {
	t.Parallel()
	ts := start(t, api.Config{})
	require.NoError(t, ts.srv.AddRoute("ok", okHandler))

	protocols := new(http.Protocols)
	protocols.SetUnencryptedHTTP2(true)
	tr := &http.Transport{Protocols: protocols, TLSClientConfig: &tls.Config{MinVersion: tls.VersionTLS12}}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}

	resp, err := client.Do(newRequest(t, http.MethodGet, ts.base+"/ext/ok", nil))
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.Equal(t, 2, resp.ProtoMajor)
	require.Equal(t, "ok", string(b))
	require.Equal(t, testNodeID.String(), resp.Header.Get("Node-Id"))
}

func TestRequireBootstrapped(t *testing.T) {
	t.Parallel()
	ts := start(t, api.Config{})
	var mu sync.Mutex
	ready := false
	isReady := func() bool { mu.Lock(); defer mu.Unlock(); return ready }
	require.NoError(t, ts.srv.AddRoute("bc/P", api.RequireBootstrapped(isReady, okHandler)))

	r := do(t, newRequest(t, http.MethodPost, ts.base+"/ext/bc/P", nil))
	require.Equal(t, http.StatusServiceUnavailable, r.status)
	require.Equal(t, "API call rejected because chain is not done bootstrapping\n", r.body)
	require.Equal(t, "text/plain; charset=utf-8", r.header.Get("Content-Type"))

	mu.Lock()
	ready = true
	mu.Unlock()
	r = do(t, newRequest(t, http.MethodPost, ts.base+"/ext/bc/P", nil))
	require.Equal(t, http.StatusOK, r.status)
	require.Equal(t, "ok", r.body)
}

func TestConfigValidate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		cfg     api.Config
		wantErr bool
		// wantParts are substrings the joined error must contain, one per problem.
		wantParts []string
	}{
		{name: "zero", cfg: api.Config{}},
		{name: "full", cfg: api.Config{AllowedHosts: []string{"a", "*"}, AllowedOrigins: []string{"https://x"}}},
		{
			name:      "all problems at once",
			cfg:       api.Config{ReadTimeout: -1, IdleTimeout: -2, AllowedHosts: []string{""}, AllowedOrigins: []string{"a b"}},
			wantErr:   true,
			wantParts: []string{"ReadTimeout", "IdleTimeout", `allowed host ""`, `allowed origin "a b"`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := api.New(tt.cfg, testNodeID, slog.New(slog.DiscardHandler), nil)
			if !tt.wantErr {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, api.ErrInvalidConfig)
			for _, p := range tt.wantParts {
				require.Contains(t, err.Error(), p)
			}
		})
	}
}

func TestListenTwice(t *testing.T) {
	t.Parallel()
	srv, err := api.New(api.Config{Host: "127.0.0.1"}, testNodeID, slog.New(slog.DiscardHandler), nil)
	require.NoError(t, err)
	_, err = srv.Listen()
	require.NoError(t, err)
	_, err = srv.Listen()
	require.ErrorIs(t, err, api.ErrAlreadyListening)
	// Shutdown before Serve releases the listener, and a later Serve returns at once.
	require.NoError(t, srv.Shutdown(t.Context()))
	require.NoError(t, srv.Serve())
}
