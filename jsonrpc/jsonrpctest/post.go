package jsonrpctest

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Post posts h one JSON-RPC 2.0 call (id 1) of method whose params are written as they are (a
// fuzzer's string, JSON or not), as application/json, and returns the recorded response.
func Post(t testing.TB, h http.Handler, method, params string) *httptest.ResponseRecorder {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"` + method + `","params":` + params + `}`
	req := httptest.NewRequestWithContext(t.Context(), http.MethodPost, "/", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// RequireEnvelope posts h a call as Post does and checks what the engine answers to anything:
// HTTP 200 with a JSON-RPC 2.0 envelope ending in a newline, or no body, as a notification gets
// (params can end the object early and null the id).
func RequireEnvelope(t testing.TB, h http.Handler, method, params string) {
	t.Helper()
	rec := Post(t, h, method, params)
	require.Equal(t, http.StatusOK, rec.Code)
	if rec.Body.Len() == 0 {
		return
	}
	require.True(t, bytes.HasPrefix(rec.Body.Bytes(), []byte(`{"jsonrpc":"2.0",`)), "body %q", rec.Body.Bytes())
	require.True(t, bytes.HasSuffix(rec.Body.Bytes(), []byte("\n")), "body %q", rec.Body.Bytes())
}
