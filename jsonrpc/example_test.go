package jsonrpc_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/cornice-node/cornice/jsonrpc"
)

type greetArgs struct {
	Name string `json:"name"`
}

type greetReply struct {
	Greeting string         `json:"greeting"`
	Count    jsonrpc.Uint64 `json:"count"`
}

func Example() {
	s := jsonrpc.NewServer("hello", slog.New(slog.DiscardHandler))
	jsonrpc.Register(s, "greet", func(_ context.Context, args *greetArgs) (*greetReply, error) {
		if args.Name == "" {
			return nil, &jsonrpc.Error{Code: -32001, Message: "name is required"}
		}
		return &greetReply{Greeting: "hello, " + args.Name, Count: 1}, nil
	})

	for _, body := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"hello.greet","params":{"name":"<you>"}}`,
		`{"jsonrpc":"2.0","id":2,"method":"hello.greet","params":[{}]}`,
		`[{"jsonrpc":"2.0","id":3,"method":"hello.Greet"},{"jsonrpc":"2.0","method":"hello.greet"}]`,
	} {
		req := httptest.NewRequest(http.MethodPost, "/ext/hello", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		fmt.Print(rec.Body.String())
	}
	// Output:
	// {"jsonrpc":"2.0","result":{"greeting":"hello, \u003cyou\u003e","count":"1"},"id":1}
	// {"jsonrpc":"2.0","error":{"code":-32001,"message":"name is required","data":null},"id":2}
	// [{"jsonrpc":"2.0","error":{"code":-32000,"message":"method must start with a non-uppercase letter","data":null},"id":3}]
}
