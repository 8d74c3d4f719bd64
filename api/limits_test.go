package api_test

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/api"
	"github.com/cornice-node/cornice/jsonrpc"
)

type wordReply struct {
	Word string `json:"word"`
}

// TestLimitsReachEveryRoute checks that the server's limits are in every request's context: a
// batch over BatchResponseMaxSize is cut, and with the one heavy slot held a light call is still
// answered.
func TestLimitsReachEveryRoute(t *testing.T) {
	t.Parallel()
	ts := start(t, api.Config{BatchResponseMaxSize: 50, HeavyCalls: 1})
	held, release := make(chan struct{}), make(chan struct{})
	rpc := jsonrpc.NewServer("test", slog.New(slog.DiscardHandler))
	jsonrpc.Register(rpc, "word", func(context.Context, *struct{}) (*wordReply, error) {
		return &wordReply{Word: "abc"}, nil
	})
	jsonrpc.RegisterHeavy(rpc, "hold", func(context.Context, *struct{}) (*wordReply, error) {
		held <- struct{}{}
		<-release
		return &wordReply{Word: "held"}, nil
	})
	require.NoError(t, ts.srv.AddRoute("test", rpc))

	post := func(body string) response {
		req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, ts.base+"/ext/test", strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		return do(t, req)
	}
	word := `{"jsonrpc":"2.0","method":"test.word","id":1}`
	// Each answer is 49 bytes: the second crosses the cap of 50, the third is refused.
	got := post("[" + word + "," + word + "," + word + "]")
	require.Equal(t, `[{"jsonrpc":"2.0","result":{"word":"abc"},"id":1},{"jsonrpc":"2.0","result":{"word":"abc"},"id":1},`+
		`{"jsonrpc":"2.0","error":{"code":-32003,"message":"response too large","data":null},"id":1}]`+"\n", got.body)

	first := make(chan response)
	go func() { first <- post(`{"jsonrpc":"2.0","method":"test.hold","id":1}`) }()
	<-held
	// The slot is held: a light call is answered at once.
	require.Equal(t, `{"jsonrpc":"2.0","result":{"word":"abc"},"id":1}`+"\n", post(word).body)
	// A second heavy call waits for the slot (jsonrpc's tests check that it does not run
	// before); it runs once the first is answered.
	second := make(chan response)
	go func() { second <- post(`{"jsonrpc":"2.0","method":"test.hold","id":2}`) }()
	release <- struct{}{}
	require.Contains(t, (<-first).body, `"held"`)
	<-held
	release <- struct{}{}
	require.Contains(t, (<-second).body, `"held"`)
}
