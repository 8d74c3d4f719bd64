package api

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/jsonrpc"
)

// discardWriter is a minimal, reusable ResponseWriter.
type discardWriter struct{ h http.Header }

func (w *discardWriter) Header() http.Header         { return w.h }
func (w *discardWriter) Write(b []byte) (int, error) { return len(b), nil }
func (w *discardWriter) WriteHeader(int)             {}

type versionReply struct {
	Version string `json:"version"`
}

// BenchmarkServeHTTP measures one JSON-RPC call through the whole middleware chain (node-id
// header, CORS, host filter, routing, metrics, deadline) and the engine, without the network.
func BenchmarkServeHTTP(b *testing.B) {
	s, err := New(Config{}, ids.EmptyNodeID, slog.New(slog.DiscardHandler), prometheus.NewRegistry())
	if err != nil {
		b.Fatal(err)
	}
	rpc := jsonrpc.NewServer("info", slog.New(slog.DiscardHandler))
	reply := &versionReply{Version: "cornice/0.1.0"}
	jsonrpc.Register(rpc, "getNodeVersion", func(context.Context, *struct{}) (*versionReply, error) { return reply, nil })
	if err := s.AddRoute("info", rpc); err != nil {
		b.Fatal(err)
	}
	body := `{"jsonrpc":"2.0","id":1,"method":"info.getNodeVersion"}`
	req, err := http.NewRequest(http.MethodPost, "http://127.0.0.1:9650/ext/info", nil)
	if err != nil {
		b.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	r := strings.NewReader(body)
	w := &discardWriter{h: http.Header{}}
	b.ReportAllocs()
	for b.Loop() {
		r.Reset(body)
		req.Body = http.NoBody
		req.Body = readCloser{r}
		clear(w.h)
		s.srv.Handler.ServeHTTP(w, req)
	}
}

type readCloser struct{ *strings.Reader }

func (readCloser) Close() error { return nil }
