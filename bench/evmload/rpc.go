package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/cornice-node/cornice/bench/internal/loopback"
	"github.com/cornice-node/cornice/jsonrpc"
)

// rpcClient calls one JSON-RPC endpoint over loopback HTTP.
type rpcClient struct {
	rpc  *jsonrpc.Client
	http *http.Client
}

// newRPCClient makes a client for url that keeps up to conns connections open and gives every
// request at most timeout.
func newRPCClient(url string, conns int, timeout time.Duration) *rpcClient {
	hc := loopback.NewClient(conns, timeout)
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
