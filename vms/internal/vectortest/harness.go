package vectortest

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/jsonrpc"
	"github.com/cornice-node/cornice/storage"
)

// Routes records the handlers the chain manager registers for its (one) chain.
type Routes struct {
	mu       sync.Mutex
	handlers map[string]http.Handler
}

// AddChainRoutes implements the chain manager's route table: it keeps h.
func (r *Routes) AddChainRoutes(_ ids.ID, h map[string]http.Handler, _ []string, _ func() bool) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.handlers = h
	return nil
}

// Handler returns the handler registered at path ("" for the chain's base path), or nil.
func (r *Routes) Handler(path string) http.Handler {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.handlers[path]
}

// Recorder is a chains.Indexer that records what the accept path indexes.
type Recorder struct {
	mu     sync.Mutex
	blocks []chains.Container
	txs    []chains.Container
}

// Accept implements chains.Indexer.
func (r *Recorder) Accept(_ context.Context, _ *storage.Batch, _ ids.ID, block chains.Container, txs []chains.Container) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.blocks = append(r.blocks, block)
	r.txs = append(r.txs, txs...)
	return nil
}

// Blocks returns the blocks accepted so far, in order.
func (r *Recorder) Blocks() []chains.Container {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]chains.Container(nil), r.blocks...)
}

// Txs returns the txs of the blocks accepted so far, in order.
func (r *Recorder) Txs() []chains.Container {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]chains.Container(nil), r.txs...)
}

// Client calls the JSON-RPC API of a chain served at URL, its methods in Namespace ("avm",
// "platform"). It fails the test TB on any transport or decoding error.
type Client struct {
	TB        testing.TB
	URL       string
	Namespace string
}

// Call posts one call and returns the whole response body, without its final newline.
func (c *Client) Call(method, params string) string {
	c.TB.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"` + c.Namespace + `.` + method + `","params":` + params + `}`
	_, b, err := jsonrpc.NewClient(c.URL, nil).Post(c.TB.Context(), "", []byte(body))
	require.NoError(c.TB, err)
	return strings.TrimSuffix(string(b), "\n")
}

// Result calls method and decodes its result into v; it fails the test on an error reply.
func (c *Client) Result(method, params string, v any) {
	c.TB.Helper()
	var reply struct {
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	raw := c.Call(method, params)
	require.NoError(c.TB, json.Unmarshal([]byte(raw), &reply))
	require.Nil(c.TB, reply.Error, "%s: %s", method, raw)
	require.NoError(c.TB, json.Unmarshal(reply.Result, v))
}

// RawResult returns the result of method, compacted.
func (c *Client) RawResult(method, params string) string {
	c.TB.Helper()
	var reply struct {
		Result json.RawMessage `json:"result"`
	}
	raw := c.Call(method, params)
	require.NoError(c.TB, json.Unmarshal([]byte(raw), &reply))
	require.NotEmpty(c.TB, reply.Result, "%s: %s", method, raw)
	return Compact(c.TB, reply.Result)
}

// CallError calls method and returns the message of its error reply, which must have code
// -32000.
func (c *Client) CallError(method, params string) string {
	c.TB.Helper()
	var reply struct {
		Error *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	raw := c.Call(method, params)
	require.NoError(c.TB, json.Unmarshal([]byte(raw), &reply))
	require.NotNil(c.TB, reply.Error, "%s: %s", method, raw)
	require.Equal(c.TB, -32000, reply.Error.Code)
	return reply.Error.Message
}

// Compact returns raw without insignificant white space, key order kept.
func Compact(tb testing.TB, raw []byte) string {
	tb.Helper()
	var b bytes.Buffer
	require.NoError(tb, json.Compact(&b, raw))
	return b.String()
}

// MustJSON returns v encoded as JSON.
func MustJSON(tb testing.TB, v any) string {
	tb.Helper()
	b, err := json.Marshal(v)
	require.NoError(tb, err)
	return string(b)
}
