package api

import (
	"context"
	"log/slog"
	"net/http"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/jsonrpc"
	"github.com/cornice-node/cornice/jsonrpc/jsonrpctest"
)

type versionReply struct {
	Version string `json:"version"`
}

// BenchmarkServeHTTP measures one JSON-RPC call through the whole middleware chain (node-id
// header, CORS, host filter, routing, metrics, deadline) and the engine, without the network:
// on a route with a request deadline, and on an Instant one, as the node mounts info.
func BenchmarkServeHTTP(b *testing.B) {
	for _, bb := range []struct {
		name string
		wrap func(http.Handler) http.Handler
	}{
		{"deadline", func(h http.Handler) http.Handler { return h }},
		{"instant", Instant},
	} {
		b.Run(bb.name, func(b *testing.B) {
			s, err := New(Config{}, ids.EmptyNodeID, slog.New(slog.DiscardHandler), prometheus.NewRegistry())
			if err != nil {
				b.Fatal(err)
			}
			rpc := jsonrpc.NewServer("info", slog.New(slog.DiscardHandler))
			reply := &versionReply{Version: "cornice/0.1.0"}
			jsonrpc.Register(rpc, "getNodeVersion", func(context.Context, *struct{}) (*versionReply, error) { return reply, nil })
			if err := s.AddRoute("info", bb.wrap(rpc)); err != nil {
				b.Fatal(err)
			}
			body := []byte(`{"jsonrpc":"2.0","id":1,"method":"info.getNodeVersion"}`)
			jsonrpctest.ServeLoop(b, s.srv.Handler, "http://127.0.0.1:9650/ext/info", func(int) []byte { return body })
		})
	}
}
