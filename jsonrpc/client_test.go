package jsonrpc_test

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/jsonrpc"
)

type echoArgs struct {
	Name string `json:"name"`
}

type echoReply struct {
	Name string `json:"name"`
}

// clientServer serves a "t" service on /ext/t: t.echo returns its name, t.fail an *Error with
// data, t.plain a plain error. Other paths answer 404 with the text of http.NotFound.
func clientServer(t *testing.T) *httptest.Server {
	t.Helper()
	s := jsonrpc.NewServer("t", slog.New(slog.DiscardHandler))
	jsonrpc.Register(s, "echo", func(_ context.Context, a *echoArgs) (*echoReply, error) {
		return &echoReply{Name: a.Name}, nil
	})
	jsonrpc.Register(s, "fail", func(context.Context, *struct{}) (*echoReply, error) {
		return nil, &jsonrpc.Error{Code: 3, Message: "refused", Data: json.RawMessage(`{"why":1}`)}
	})
	jsonrpc.Register(s, "plain", func(context.Context, *struct{}) (*echoReply, error) {
		return nil, errors.New("no luck")
	})
	mux := http.NewServeMux()
	mux.Handle("/ext/t", s)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

func TestClientCall(t *testing.T) {
	t.Parallel()
	srv := clientServer(t)
	c := jsonrpc.NewClient(srv.URL+"/", nil)
	require.Equal(t, srv.URL, c.URL())

	var got echoReply
	require.NoError(t, c.Call(t.Context(), "/ext/t", "t.echo", echoArgs{Name: "a<b"}, &got))
	require.Equal(t, "a<b", got.Name)
	require.NoError(t, c.Call(t.Context(), "/ext/t", "t.echo", nil, nil), "nil params are {}, a nil result is not decoded")

	tests := []struct {
		name, method, path string
		want               *jsonrpc.Error // nil: not a JSON-RPC error
		wantMsg            string
	}{
		{name: "error with data", method: "t.fail", path: "/ext/t",
			want: &jsonrpc.Error{Code: 3, Message: "refused", Data: json.RawMessage(`{"why":1}`)}, wantMsg: "t.fail: refused"},
		{name: "null data", method: "t.plain", path: "/ext/t",
			want: &jsonrpc.Error{Code: jsonrpc.CodeServer, Message: "no luck"}, wantMsg: "t.plain: no luck"},
		{name: "no such method", method: "t.nope", path: "/ext/t",
			want: &jsonrpc.Error{Code: jsonrpc.CodeServer, Message: `rpc: can't find method "t.Nope"`}, wantMsg: `t.nope: rpc: can't find method "t.Nope"`},
		{name: "not JSON-RPC", method: "t.echo", path: "/ext/none", wantMsg: "t.echo: HTTP 404: 404 page not found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := c.Call(t.Context(), tt.path, tt.method, nil, &got)
			require.EqualError(t, err, tt.wantMsg)
			rpcErr, ok := errors.AsType[*jsonrpc.Error](err)
			if tt.want == nil {
				require.False(t, ok)
				return
			}
			require.True(t, ok)
			require.Equal(t, tt.want, rpcErr)
		})
	}
}

func TestClientCallErrors(t *testing.T) {
	t.Parallel()
	srv := clientServer(t)
	c := jsonrpc.NewClient(srv.URL, srv.Client())
	err := c.Call(t.Context(), "/ext/t", "t.echo", func() {}, nil)
	require.ErrorContains(t, err, "t.echo: encode params: ")

	var wrong struct{ Name int }
	err = c.Call(t.Context(), "/ext/t", "t.echo", echoArgs{Name: "x"}, &wrong)
	require.ErrorContains(t, err, "t.echo: decode result: ")

	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	require.ErrorIs(t, c.Call(ctx, "/ext/t", "t.echo", nil, nil), context.Canceled)
}

// TestClientPost gets the exact bytes and status, whatever they are.
func TestClientPost(t *testing.T) {
	t.Parallel()
	srv := clientServer(t)
	c := jsonrpc.NewClient(srv.URL, nil)
	status, body, err := c.Post(t.Context(), "/ext/t", []byte(`[{"jsonrpc":"2.0","id":1,"method":"t.echo","params":{"name":"&"}},{"jsonrpc":"2.0","method":"t.echo"}]`))
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, `[{"jsonrpc":"2.0","result":{"name":"\u0026"},"id":1}]`+"\n", string(body))

	status, body, err = c.Post(t.Context(), "/ext/t", []byte(`{"jsonrpc":"2.0","method":"t.echo"}`))
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, status)
	require.Empty(t, body, "a notification gets an empty body")

	status, body, err = c.Post(t.Context(), "/nowhere", nil)
	require.NoError(t, err)
	require.Equal(t, http.StatusNotFound, status)
	require.Equal(t, "404 page not found\n", string(body))
}

// TestClientReplyLimit refuses a reply larger than MaxReplySize rather than holding it.
func TestClientReplyLimit(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("x", jsonrpc.MaxReplySize+1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte(big))
	}))
	t.Cleanup(srv.Close)
	_, _, err := jsonrpc.NewClient(srv.URL, nil).Post(t.Context(), "", nil)
	require.EqualError(t, err, "read reply: longer than 33554432 bytes")
}
