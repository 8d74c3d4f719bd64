package jsonrpc_test

import (
	"context"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/jsonrpc"
)

// keptReply keeps its JSON (jsonrpc.Encoded); its MarshalJSON gives other bytes, so that the
// test sees which one the engine used.
type keptReply struct{ kept []byte }

func (r *keptReply) EncodedJSON() []byte          { return r.kept }
func (r *keptReply) MarshalJSON() ([]byte, error) { return []byte(`{ "marshalled" : true }`), nil }

func TestEncodedReplyIsCopied(t *testing.T) {
	t.Parallel()
	s := jsonrpc.NewServer("test", slog.New(slog.DiscardHandler))
	var reply keptReply
	jsonrpc.Register(s, "kept", func(context.Context, *struct{}) (*keptReply, error) { return &reply, nil })

	reply.kept = []byte(`{"version":"cornice/0.1.0"}`)
	rec := post(s, `{"jsonrpc":"2.0","method":"test.kept","id":7}`)
	require.Equal(t, `{"jsonrpc":"2.0","result":{"version":"cornice/0.1.0"},"id":7}`+"\n", rec.Body.String())

	// nil: encoded as usual, through MarshalJSON and encoding/json's compaction.
	reply.kept = nil
	rec = post(s, `{"jsonrpc":"2.0","method":"test.kept","id":7}`)
	require.Equal(t, `{"jsonrpc":"2.0","result":{"marshalled":true},"id":7}`+"\n", rec.Body.String())
}
