package jsonrpc

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// MaxReplySize bounds the reply body a [Client] reads: above a batch response's 25 MiB and a page
// of 1,024 UTXOs or containers in hex.
const MaxReplySize = 32 << 20

// Client calls JSON-RPC 2.0 methods on a node over HTTP: node-native services (info, index,
// platform, avm, …) and the EVM chains' eth_* alike. The wallet, the benches and the tests all use
// it. It is safe for concurrent use.
type Client struct {
	base string
	hc   *http.Client
}

// NewClient returns a client of the node at base, e.g. http://127.0.0.1:9650 (a trailing slash is
// dropped), sending through hc; nil means a client of its own with http.DefaultTransport and no
// timeout (bound calls with their context). base is not checked: callers that take it from a user
// check it first (wallet.NewClient).
func NewClient(base string, hc *http.Client) *Client {
	if hc == nil {
		hc = &http.Client{}
	}
	return &Client{base: strings.TrimSuffix(base, "/"), hc: hc}
}

// URL returns the node's base URL, without a trailing slash.
func (c *Client) URL() string { return c.base }

// request is a JSON-RPC 2.0 call; ID is always 1, as one call per HTTP request needs no other.
type request struct {
	JSONRPC string `json:"jsonrpc"`
	ID      int    `json:"id"`
	Method  string `json:"method"`
	Params  any    `json:"params"`
}

// response is a JSON-RPC 2.0 response to one call.
type response struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
}

// Call calls method on the service at path (e.g. "/ext/bc/X", "/ext/bc/C/rpc") with params and
// decodes the result into result unless result is nil. nil params are sent as {}, what
// node-native methods without arguments take; eth_* methods take a slice. An error reply comes
// back as an [*Error] (with the reply's code, message and data) wrapped with the method's name;
// a reply that is not JSON-RPC, as an error giving its HTTP status and body.
func (c *Client) Call(ctx context.Context, path, method string, params, result any) error {
	if params == nil {
		params = struct{}{}
	}
	body, err := json.Marshal(request{JSONRPC: "2.0", ID: 1, Method: method, Params: params})
	if err != nil {
		return fmt.Errorf("%s: encode params: %w", method, err)
	}
	status, raw, err := c.Post(ctx, path, body)
	if err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	var reply response
	if err := json.Unmarshal(raw, &reply); err != nil {
		return fmt.Errorf("%s: HTTP %d: %s", method, status, bytes.TrimSpace(raw))
	}
	if e := reply.Error; e != nil {
		data := e.Data
		if bytes.Equal(data, []byte("null")) {
			data = nil
		}
		return fmt.Errorf("%s: %w", method, &Error{Code: e.Code, Message: e.Message, Data: data})
	}
	if result == nil {
		return nil
	}
	if err := json.Unmarshal(reply.Result, result); err != nil {
		return fmt.Errorf("%s: decode result: %w", method, err)
	}
	return nil
}

// Post sends body to path as a POST of application/json and returns the HTTP status and the
// whole reply body, whatever the status: for batches, pre-encoded calls and wire tests, which
// need the bytes. A body over MaxReplySize is an error.
func (c *Client) Post(ctx context.Context, path string, body []byte) (status int, reply []byte, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+path, bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.hc.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	reply, err = io.ReadAll(io.LimitReader(resp.Body, MaxReplySize+1))
	if err != nil {
		return resp.StatusCode, nil, fmt.Errorf("read reply: %w", err)
	}
	if len(reply) > MaxReplySize {
		return resp.StatusCode, nil, fmt.Errorf("read reply: longer than %d bytes", MaxReplySize)
	}
	return resp.StatusCode, reply, nil
}
