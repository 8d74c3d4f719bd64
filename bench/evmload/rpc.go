package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"time"

	"github.com/cornice-node/cornice/jsonrpc"
)

// checkLoopback parses rawURL and refuses anything but http:// to a loopback host.
func checkLoopback(rawURL string) (*url.URL, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("parse %q: %w", rawURL, err)
	}
	if u.Scheme != "http" {
		return nil, fmt.Errorf("%w: %q", errScheme, rawURL)
	}
	if !isLoopbackHost(u.Hostname()) {
		return nil, fmt.Errorf("%w: %q", errNotLoopback, rawURL)
	}
	return u, nil
}

// isLoopbackHost reports whether host is localhost or a loopback IP.
func isLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// dialLoopbackOnly is a net.Dialer Control hook: it runs after name resolution, on the address
// actually dialled, and refuses any that is not loopback.
func dialLoopbackOnly(_, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return err
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("%w: dialled %s", errNotLoopback, address)
	}
	return nil
}

// rpcClient calls one JSON-RPC endpoint over loopback HTTP.
type rpcClient struct {
	rpc  *jsonrpc.Client
	http *http.Client
}

// newRPCClient makes a client for url that keeps up to conns connections open and gives every
// request at most timeout.
func newRPCClient(url string, conns int, timeout time.Duration) *rpcClient {
	dialer := &net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second, Control: dialLoopbackOnly}
	hc := &http.Client{
		Timeout: timeout,
		Transport: &http.Transport{
			DialContext:         dialer.DialContext,
			MaxIdleConns:        conns,
			MaxIdleConnsPerHost: conns,
			MaxConnsPerHost:     conns,
			DisableCompression:  true,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	return &rpcClient{rpc: jsonrpc.NewClient(url, hc), http: hc}
}

// post sends body and returns the reply body of a 200 response.
func (c *rpcClient) post(ctx context.Context, body []byte) ([]byte, error) {
	status, reply, err := c.rpc.Post(ctx, "", body)
	if err != nil {
		return nil, err
	}
	if status != http.StatusOK {
		return nil, fmt.Errorf("HTTP %d: %.200s", status, reply)
	}
	return reply, nil
}

// reply is one JSON-RPC response of a batch.
type reply struct {
	ID     int             `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *jsonrpc.Error  `json:"error"`
}

// request is one JSON-RPC call of a batch.
type request struct {
	JSONRPC string `json:"jsonrpc"`
	ID      int    `json:"id"`
	Method  string `json:"method"`
	Params  []any  `json:"params"`
}

func newRequest(id int, method string, params ...any) request {
	if params == nil {
		params = []any{}
	}
	return request{JSONRPC: "2.0", ID: id, Method: method, Params: params}
}

// call makes one call and decodes its result into result.
func (c *rpcClient) call(ctx context.Context, result any, method string, params ...any) error {
	if params == nil {
		params = []any{}
	}
	return c.rpc.Call(ctx, "", method, params, result)
}

// batch sends reqs as one JSON-RPC batch and returns the replies in the order of reqs, matched
// by ID (a server may answer a batch in any order).
func (c *rpcClient) batch(ctx context.Context, reqs []request) ([]reply, error) {
	body, err := json.Marshal(reqs)
	if err != nil {
		return nil, err
	}
	raw, err := c.post(ctx, body)
	if err != nil {
		return nil, err
	}
	return decodeBatch(raw, reqs)
}

// decodeBatch decodes a batch reply and orders it like reqs.
func decodeBatch(raw []byte, reqs []request) ([]reply, error) {
	var got []reply
	if err := json.Unmarshal(raw, &got); err != nil {
		return nil, fmt.Errorf("decode batch reply: %w", err)
	}
	byID := make(map[int]reply, len(got))
	for _, r := range got {
		byID[r.ID] = r
	}
	out := make([]reply, len(reqs))
	for i, req := range reqs {
		r, ok := byID[req.ID]
		if !ok {
			return nil, fmt.Errorf("batch reply has no answer to call %d", req.ID)
		}
		out[i] = r
	}
	return out, nil
}
