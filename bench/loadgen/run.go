package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cornice-node/cornice/api"
	"github.com/cornice-node/cornice/bench/internal/loopback"
	"github.com/cornice-node/cornice/clock"
)

// newClient returns the one client shared by all workers: keep-alive on, enough idle connections
// that maxConcurrency workers never close and reopen one, no proxy, no compression, no redirects,
// and loopback-only dialing.
func newClient(maxConcurrency int) *http.Client {
	return &http.Client{
		Transport: &http.Transport{
			Proxy:               nil,
			DialContext:         loopback.Dialer().DialContext,
			MaxIdleConns:        max(100, maxConcurrency),
			MaxIdleConnsPerHost: maxConcurrency,
			IdleConnTimeout:     90 * time.Second,
			DisableCompression:  true,
		},
		CheckRedirect: loopback.NoRedirects,
	}
}

// requestBody builds the fixed JSON-RPC request sent on every call. params may be empty (no
// params key) or one JSON value, which is compacted.
func requestBody(method, params string) ([]byte, error) {
	m, err := json.Marshal(method)
	if err != nil {
		return nil, fmt.Errorf("encode method: %w", err)
	}
	var b bytes.Buffer
	b.WriteString(`{"jsonrpc":"2.0","id":1,"method":`)
	b.Write(m)
	if params != "" {
		b.WriteString(`,"params":`)
		if err := json.Compact(&b, []byte(params)); err != nil {
			return nil, fmt.Errorf("%w: %w", errBadParams, err)
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// target is an endpoint and the fixed request body sent to it. It is read-only once built.
type target struct {
	url  string
	body []byte
}

// do sends one request and reads the whole reply into buf (reset first). status is 0 when no
// response came back, and err is then the transport error.
func (t target) do(ctx context.Context, client *http.Client, buf *bytes.Buffer) (status int, header http.Header, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, t.url, bytes.NewReader(t.body))
	if err != nil {
		return 0, nil, fmt.Errorf("build request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return 0, nil, fmt.Errorf("post %s: %w", t.url, err)
	}
	defer resp.Body.Close()
	buf.Reset()
	// Read to EOF so the connection goes back to the pool for the next request.
	if _, err := buf.ReadFrom(resp.Body); err != nil {
		return 0, nil, fmt.Errorf("read reply from %s: %w", t.url, err)
	}
	return resp.StatusCode, resp.Header, nil
}

// rpcFailed reports whether body is not a JSON-RPC success: invalid JSON, empty (a notification
// reply), or an envelope with a non-null error member.
func rpcFailed(body []byte) bool {
	var env struct {
		Error  json.RawMessage `json:"error"`
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(body, &env); err != nil {
		return true
	}
	hasError := len(env.Error) > 0 && string(env.Error) != "null"
	return hasError || len(env.Result) == 0
}

// runLevel loads t with conc workers: first warmup requests whose results are dropped, then n
// measured ones. limit bounds the whole level, warm-up included; requests cut off by it (or by ctx)
// count neither as samples nor as errors.
func runLevel(ctx context.Context, clk clock.Clock, client *http.Client, t target, conc, n, warmup int, limit time.Duration) result {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	timer := clk.AfterFunc(limit, cancel)
	defer timer.Stop()

	if warmup > 0 {
		load(ctx, clk, client, t, conc, warmup)
	}
	start := clk.Now()
	r := load(ctx, clk, client, t, conc, n)
	r.elapsed = clk.Now().Sub(start)
	r.concurrency = conc
	return r
}

// load sends n requests from conc workers sharing one counter and merges what they saw.
func load(ctx context.Context, clk clock.Clock, client *http.Client, t target, conc, n int) result {
	var (
		next    atomic.Int64
		mu      sync.Mutex // guards merged
		merged  = result{latencies: make([]time.Duration, 0, n)}
		workers sync.WaitGroup
	)
	for range conc {
		workers.Go(func() {
			var (
				buf            bytes.Buffer
				lat            = make([]time.Duration, 0, n/conc+1)
				requests, errs int
			)
			for next.Add(1) <= int64(n) {
				start := clk.Now()
				status, _, err := t.do(ctx, client, &buf)
				took := clk.Now().Sub(start)
				if ctx.Err() != nil {
					break
				}
				requests++
				if err != nil {
					errs++
					continue
				}
				lat = append(lat, took)
				if status != http.StatusOK || rpcFailed(buf.Bytes()) {
					errs++
				}
			}
			mu.Lock()
			defer mu.Unlock()
			merged.requests += requests
			merged.errors += errs
			merged.latencies = append(merged.latencies, lat...)
		})
	}
	workers.Wait()
	return merged
}

// bareReply is a fixed HTTP reply: the bare server answers every request with it.
type bareReply struct {
	header http.Header
	body   []byte
}

// perResponseHeaders are recomputed by net/http for each reply, so they are not copied.
var perResponseHeaders = []string{"Date", "Content-Length", "Connection", "Keep-Alive", "Transfer-Encoding"}

// fetchReply sends t's request once and keeps the reply's body and headers, which must be a 200
// JSON-RPC success.
func fetchReply(ctx context.Context, client *http.Client, t target) (bareReply, error) {
	var buf bytes.Buffer
	status, header, err := t.do(ctx, client, &buf)
	if err != nil {
		return bareReply{}, fmt.Errorf("fetch reply to copy: %w", err)
	}
	if status != http.StatusOK || rpcFailed(buf.Bytes()) {
		return bareReply{}, fmt.Errorf("%w: status %d, body %q", errUnhealthyReply, status, buf.Bytes())
	}
	header = header.Clone()
	for _, k := range perResponseHeaders {
		header.Del(k)
	}
	return bareReply{header: header, body: bytes.Clone(buf.Bytes())}, nil
}

// sampleReply is an info.getNodeVersion reply of the reference shape: the result fields of
// node-api.md §3.8, the envelope and trailing newline of §1.3, and the headers of §1.3 and §2.2
// (the NodeID is the first well-known local staker's).
func sampleReply() bareReply {
	return bareReply{
		header: http.Header{
			"Content-Type":           {"application/json; charset=utf-8"},
			"Node-Id":                {"NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg"},
			"Vary":                   {"Origin"},
			"X-Content-Type-Options": {"nosniff"},
		},
		body: []byte(`{"jsonrpc":"2.0","result":{"version":"cornice/0.1.0","databaseVersion":"v1.4.5",` +
			`"rpcProtocolVersion":"45","gitCommit":"","vmVersions":{"avm":"cornice/0.1.0","evm":"v1.14.2",` +
			`"platform":"cornice/0.1.0"}},"id":1}` + "\n"),
	}
}

// ServeHTTP reads the request body, as a real server must to decode it, then writes the fixed reply.
func (b bareReply) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	_, _ = io.Copy(io.Discard, r.Body)
	h := w.Header()
	for k, v := range b.header {
		h[k] = v
	}
	_, _ = w.Write(b.body)
}

// bareServer serves a bareReply on a loopback listener until Close.
type bareServer struct {
	srv     *http.Server
	addr    string
	serving sync.WaitGroup
	err     error // set by the serving goroutine; read after serving.Wait
}

// startBare listens on addr, which must be a loopback host:port (port 0 picks one), and serves
// reply from a goroutine that Close stops and waits for. With nodeSettings the server has the
// node's connection settings (nodeServerSettings) instead of a header timeout alone.
func startBare(addr string, reply bareReply, nodeSettings bool) (*bareServer, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("bare server address %q: %w", addr, err)
	}
	if !loopback.IsHost(host) {
		return nil, fmt.Errorf("bare server address %q: %w", addr, loopback.ErrNotLoopback)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listen for bare server: %w", err)
	}
	b := &bareServer{
		srv:  &http.Server{Handler: reply, ReadHeaderTimeout: 30 * time.Second},
		addr: ln.Addr().String(),
	}
	if nodeSettings {
		setNodeSettings(b.srv)
	}
	b.serving.Go(func() {
		if err := b.srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			b.err = fmt.Errorf("bare server: %w", err)
		}
	})
	return b, nil
}

// setNodeSettings gives srv the connection settings of the node's API server at their defaults:
// its read, read-header, write and idle timeouts, each of which makes net/http set a connection
// deadline on every request, and cleartext HTTP/2 beside HTTP/1. A bare server so set measures
// what those settings cost apart from the node's handlers (docs/benchmarks.md).
func setNodeSettings(srv *http.Server) {
	srv.ReadTimeout = api.DefaultReadTimeout
	srv.ReadHeaderTimeout = api.DefaultReadHeaderTimeout
	srv.WriteTimeout = api.DefaultWriteTimeout
	srv.IdleTimeout = api.DefaultIdleTimeout
	protocols := new(http.Protocols)
	protocols.SetHTTP1(true)
	protocols.SetUnencryptedHTTP2(true)
	srv.Protocols = protocols
}

// URL is the address to load: the bare server answers on every path.
func (b *bareServer) URL() string { return "http://" + b.addr + "/ext/info" }

// Close stops the server, drops its connections and waits for the serving goroutine.
func (b *bareServer) Close() error {
	err := b.srv.Close()
	b.serving.Wait()
	return errors.Join(err, b.err)
}
