package info_test

import (
	"testing"

	"github.com/cornice-node/cornice/jsonrpc/jsonrpctest"
)

// BenchmarkCall measures Info calls through the JSON-RPC engine, without HTTP or the network.
func BenchmarkCall(b *testing.B) {
	h := newFixture(b).service(b).Handler()
	for _, method := range []string{"getNodeVersion", "getNodeID", "peers"} {
		b.Run(method, func(b *testing.B) {
			body := []byte(`{"jsonrpc":"2.0","id":1,"method":"info.` + method + `"}`)
			jsonrpctest.ServeLoop(b, h, "/ext/info", func(int) []byte { return body })
		})
	}
}
