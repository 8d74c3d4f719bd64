package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"time"
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

// rpcClient posts JSON-RPC bodies to one endpoint over loopback HTTP.
type rpcClient struct {
	url  string
	http *http.Client
}

// newRPCClient makes a client for url that keeps up to conns connections open and gives every
// request at most timeout.
func newRPCClient(url string, conns int, timeout time.Duration) *rpcClient {
	dialer := &net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second, Control: dialLoopbackOnly}
	return &rpcClient{url: url, http: &http.Client{
		Timeout: timeout,
		Transport: &http.Transport{
			DialContext:         dialer.DialContext,
			MaxIdleConns:        conns,
			MaxIdleConnsPerHost: conns,
			MaxConnsPerHost:     conns,
			DisableCompression:  true,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

// post sends body and returns the reply body of a 200 response.
func (c *rpcClient) post(ctx context.Context, body []byte) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	reply, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("HTTP %d: %.200s", resp.StatusCode, reply)
	}
	return reply, nil
}

// reply is one JSON-RPC response.
type reply struct {
	ID     int             `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *rpcError       `json:"error"`
}

// request is one JSON-RPC call.
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
	body, err := json.Marshal(newRequest(1, method, params...))
	if err != nil {
		return err
	}
	raw, err := c.post(ctx, body)
	if err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	var r reply
	if err := json.Unmarshal(raw, &r); err != nil {
		return fmt.Errorf("%s: decode reply: %w", method, err)
	}
	if r.Error != nil {
		return fmt.Errorf("%s: %w", method, r.Error)
	}
	if result == nil {
		return nil
	}
	if err := json.Unmarshal(r.Result, result); err != nil {
		return fmt.Errorf("%s: decode result: %w", method, err)
	}
	return nil
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
