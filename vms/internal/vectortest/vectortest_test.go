package vectortest_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/internal/vectortest"
)

type file struct {
	Vectors         vectortest.Vectors     `json:"vectors"`
	LiveNodeSamples vectortest.LiveSamples `json:"liveNodeSamples"`
}

type rawFile struct {
	Vectors []map[string]json.RawMessage `json:"vectors"`
}

func TestLoad(t *testing.T) {
	t.Parallel()
	f := vectortest.Load[file](t)
	require.NotSame(t, f, vectortest.Load[file](t))
	txs := f.Vectors.Select("X", "signedBytesHex")
	require.NotEmpty(t, txs)
	for _, vec := range txs {
		require.Equal(t, "X", vec["chain"])
		name := vectortest.Str(t, vec, "name")
		require.Equal(t, vec, f.Vectors.Named(t, name))
		require.NotEmpty(t, vectortest.Unhex(t, vectortest.Str(t, vec, "signedBytesHex")))
		raw := vectortest.RawVector(t, vectortest.Load[rawFile](t).Vectors, name)
		require.Equal(t, name, vectortest.RawString(t, raw, "name"))
	}
	require.NotEmpty(t, f.LiveNodeSamples.Calls)
	c := f.LiveNodeSamples.Calls[0]
	require.Equal(t, vectortest.Compact(t, c.Response),
		f.LiveNodeSamples.Response(t, c.Endpoint, c.Method, vectortest.Compact(t, c.Params)))
}

func TestHelpers(t *testing.T) {
	t.Parallel()
	m := map[string]any{"n": float64(42), "s": "0x0a0b"}
	require.Equal(t, uint64(42), vectortest.Num(t, m, "n"))
	require.Equal(t, []byte{10, 11}, vectortest.Unhex(t, vectortest.Str(t, m, "s")))
	require.Equal(t, `{"a":1}`, vectortest.Compact(t, []byte("{ \"a\" : 1 }")))
	require.Equal(t, `{"a":"\u003c"}`, vectortest.MustJSON(t, map[string]string{"a": "<"}))
	require.Equal(t, ids.Empty, vectortest.CB58(t, ids.Empty.String()))
}
