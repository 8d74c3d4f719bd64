package wallet

import (
	"context"
	"fmt"
	"net/http"
	"net/url"

	"github.com/cornice-node/cornice/jsonrpc"
)

// Client calls a node's JSON-RPC 2.0 services over HTTP: a jsonrpc.Client whose URI the user gave
// and the wallet checked. It is safe for concurrent use.
type Client struct {
	rpc *jsonrpc.Client
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
	return &Client{rpc: jsonrpc.NewClient(uri, hc)}, nil
}

// URI returns the node's URI, without a trailing slash.
func (c *Client) URI() string { return c.rpc.URL() }

// Call calls method on the service at path (e.g. "/ext/bc/X") with params, and decodes the
// result into result unless it is nil. An error reply is returned as a *jsonrpc.Error wrapped
// with the method's name (jsonrpc.Client.Call).
func (c *Client) Call(ctx context.Context, path, method string, params, result any) error {
	return c.rpc.Call(ctx, path, method, params, result)
}
