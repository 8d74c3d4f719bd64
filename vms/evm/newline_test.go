package evm_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/require"
)

// TestRPCRepliesEndWithNewline: every JSON reply on /rpc ends with one newline, counted in
// Content-Length, as the reference's (single, batch, error, oversized-batch replies); a
// refused request keeps http.Error's text, a health check stays empty, and websocket frames
// are unchanged.
func TestRPCRepliesEndWithNewline(t *testing.T) {
	n := startNode(t, t.TempDir())
	post := func(body string) (*http.Response, string) {
		t.Helper()
		resp, err := http.Post(n.srv.URL, "application/json", strings.NewReader(body))
		require.NoError(t, err)
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return resp, string(b)
	}
	for _, tc := range []struct{ name, req, want string }{
		{"single", `{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}`,
			`{"jsonrpc":"2.0","id":1,"result":"0xa868"}` + "\n"},
		{"batch", `[{"jsonrpc":"2.0","id":1,"method":"eth_chainId"},{"jsonrpc":"2.0","id":2,"method":"net_version"}]`,
			`[{"jsonrpc":"2.0","id":1,"result":"0xa868"},{"jsonrpc":"2.0","id":2,"result":"43112"}]` + "\n"},
		{"unknown method", `{"jsonrpc":"2.0","id":1,"method":"eth_nope"}`,
			`{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"the method eth_nope does not exist/is not available"}}` + "\n"},
		{"parse error", `{`,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}` + "\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := post(tc.req)
			require.Equal(t, tc.want, body)
			require.Equal(t, strconv.Itoa(len(body)), resp.Header.Get("Content-Length"))
		})
	}

	t.Run("refused content type", func(t *testing.T) {
		resp, err := http.Post(n.srv.URL, "text/plain", strings.NewReader(`{}`))
		require.NoError(t, err)
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		require.Equal(t, http.StatusUnsupportedMediaType, resp.StatusCode)
		require.Equal(t, "invalid content type, only application/json is supported\n", string(b))
	})
	t.Run("health check", func(t *testing.T) {
		resp, err := http.Get(n.srv.URL)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, resp.StatusCode)
		require.Empty(t, b)
	})
	t.Run("websocket", func(t *testing.T) {
		vm, ok := n.m.VM(cChainID)
		require.True(t, ok)
		handlers, err := vm.Handlers(t.Context())
		require.NoError(t, err)
		srv := httptest.NewServer(handlers["/ws"])
		defer srv.Close()
		conn, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(srv.URL, "http"), nil)
		require.NoError(t, err)
		defer conn.Close()
		require.NoError(t, conn.WriteMessage(websocket.TextMessage, []byte(`{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}`)))
		_, msg, err := conn.ReadMessage()
		require.NoError(t, err)
		require.Equal(t, `{"jsonrpc":"2.0","id":1,"result":"0xa868"}`, string(msg))
	})
}
