package wallet

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// maxReplySize bounds a reply body: the largest is a page of 1024 UTXOs in hex.
const maxReplySize = 16 << 20

// Client calls a node's JSON-RPC 2.0 services over HTTP. It is safe for concurrent use.
type Client struct {
	base string
	hc   *http.Client
}

// NewClient returns a client of the node at uri, e.g. http://127.0.0.1:9650, using hc (nil:
// http.DefaultClient's transport with no timeout; bound calls with their context).
func NewClient(uri string, hc *http.Client) (*Client, error) {
	u, err := url.Parse(uri)
	if err != nil {
		return nil, fmt.Errorf("%w %q: %w", ErrInvalidURI, uri, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("%w %q: want http://host:port", ErrInvalidURI, uri)
	}
	if hc == nil {
		hc = &http.Client{}
	}
	return &Client{base: strings.TrimSuffix(uri, "/"), hc: hc}, nil
}

// URI returns the node's URI, without a trailing slash.
func (c *Client) URI() string { return c.base }

// request is a JSON-RPC 2.0 request.
type request struct {
	JSONRPC string `json:"jsonrpc"`
	ID      int    `json:"id"`
	Method  string `json:"method"`
	Params  any    `json:"params"`
}

// response is a JSON-RPC 2.0 response.
type response struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// Call calls method on the service at path (e.g. "/ext/bc/X") with params, and decodes the
// result into result unless it is nil. An error reply is returned as a *RPCError wrapped with
// the method's name.
func (c *Client) Call(ctx context.Context, path, method string, params, result any) error {
	if params == nil {
		params = struct{}{}
	}
	body, err := json.Marshal(request{JSONRPC: "2.0", ID: 1, Method: method, Params: params})
	if err != nil {
		return fmt.Errorf("%s: encode params: %w", method, err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+path, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.hc.Do(req)
	if err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxReplySize))
	if err != nil {
		return fmt.Errorf("%s: read reply: %w", method, err)
	}
	var reply response
	if err := json.Unmarshal(raw, &reply); err != nil {
		return fmt.Errorf("%s: HTTP %d: %s", method, resp.StatusCode, bytes.TrimSpace(raw))
	}
	if reply.Error != nil {
		return fmt.Errorf("%s: %w", method, &RPCError{Code: reply.Error.Code, Message: reply.Error.Message})
	}
	if result == nil {
		return nil
	}
	if err := json.Unmarshal(reply.Result, result); err != nil {
		return fmt.Errorf("%s: decode result: %w", method, err)
	}
	return nil
}
