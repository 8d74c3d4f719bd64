package info_test

import (
	"net/http"
	"strings"
	"testing"
)

// discardWriter is a reusable ResponseWriter that drops the body.
type discardWriter struct{ h http.Header }

func (w *discardWriter) Header() http.Header         { return w.h }
func (w *discardWriter) Write(b []byte) (int, error) { return len(b), nil }
func (w *discardWriter) WriteHeader(int)             {}

type nopCloser struct{ *strings.Reader }

func (nopCloser) Close() error { return nil }

// BenchmarkCall measures Info calls through the JSON-RPC engine, without HTTP or the network.
func BenchmarkCall(b *testing.B) {
	h := newFixture(b).service(b).Handler()
	for _, method := range []string{"getNodeVersion", "getNodeID", "peers"} {
		b.Run(method, func(b *testing.B) {
			body := `{"jsonrpc":"2.0","id":1,"method":"info.` + method + `"}`
			req, err := http.NewRequest(http.MethodPost, "/ext/info", nil)
			if err != nil {
				b.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			r := strings.NewReader(body)
			w := &discardWriter{h: http.Header{}}
			b.ReportAllocs()
			for b.Loop() {
				r.Reset(body)
				req.Body = nopCloser{r}
				clear(w.h)
				h.ServeHTTP(w, req)
			}
		})
	}
}
