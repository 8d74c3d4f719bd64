package jsonrpc_test

import (
	"context"
	"log/slog"
	"testing"

	"github.com/cornice-node/cornice/jsonrpc"
	"github.com/cornice-node/cornice/jsonrpc/jsonrpctest"
)

// BenchmarkDispatch measures one call through ServeHTTP with a reused request and writer, so that
// what is counted is the engine (plus the handler's own reply).
func BenchmarkDispatch(b *testing.B) {
	static := &versionReply{
		Version:            "cornice/0.1.0",
		DatabaseVersion:    "v1.4.5",
		RPCProtocolVersion: 45,
		GitCommit:          "0123456789abcdef0123456789abcdef01234567",
		VMVersions:         map[string]string{},
	}
	s := jsonrpc.NewServer("info", slog.New(slog.DiscardHandler))
	// getNodeVersion builds a fresh reply with a map on every call: the cost of a handler that
	// encodes through reflection (the real info.getNodeVersion shares one pre-encoded reply; see
	// BenchmarkCall in api/info).
	jsonrpc.Register(s, "getNodeVersion", func(context.Context, *struct{}) (*versionReply, error) {
		return &versionReply{
			Version:            "cornice/0.1.0",
			DatabaseVersion:    "v1.4.5",
			RPCProtocolVersion: 45,
			GitCommit:          "0123456789abcdef0123456789abcdef01234567",
			VMVersions:         map[string]string{"avm": "cornice/0.1.0", "evm": "v0.1.0", "platform": "cornice/0.1.0"},
		}, nil
	})
	// staticVersion returns a ready reply: what remains is the engine's own cost.
	jsonrpc.Register(s, "staticVersion", func(context.Context, *struct{}) (*versionReply, error) {
		return static, nil
	})
	jsonrpc.Register(s, "isBootstrapped", func(_ context.Context, args *chainArgs) (*bootstrappedReply, error) {
		return &bootstrappedReply{IsBootstrapped: args.Chain == "X"}, nil
	})
	cases := []struct {
		name string
		body string
	}{
		{name: "fresh-map-reply", body: `{"jsonrpc":"2.0","id":1,"method":"info.getNodeVersion"}`},
		{name: "engine-only", body: `{"jsonrpc":"2.0","id":1,"method":"info.staticVersion"}`},
		{name: "params", body: `{"jsonrpc":"2.0","id":1,"method":"info.isBootstrapped","params":{"chain":"X"}}`},
		{name: "unknown-method", body: `{"jsonrpc":"2.0","id":1,"method":"info.nope"}`},
		{name: "batch-10", body: batchOf(10)},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			body := []byte(c.body)
			jsonrpctest.ServeLoop(b, s, "/ext/info", func(int) []byte { return body })
		})
	}
}
