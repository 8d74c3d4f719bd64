package jsonrpctest_test

import (
	"context"
	"flag"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/jsonrpc"
	"github.com/cornice-node/cornice/jsonrpc/jsonrpctest"
)

var update = flag.Bool("update", false, "rewrite the expected replies in testdata/*.txt")

type echoArgs struct {
	Name string `json:"name"`
}

// replayHandler serves t.echo on /ext/t; other paths answer 404.
func replayHandler() http.Handler {
	s := jsonrpc.NewServer("t", slog.New(slog.DiscardHandler))
	jsonrpc.Register(s, "echo", func(_ context.Context, a *echoArgs) (*echoArgs, error) { return a, nil })
	mux := http.NewServeMux()
	mux.Handle("/ext/t", s)
	return mux
}

func TestReplayDir(t *testing.T) {
	t.Parallel()
	var names []string
	jsonrpctest.ReplayDir(t, func(_ *testing.T, name string) http.Handler {
		names = append(names, name)
		return replayHandler()
	}, *update)
	t.Cleanup(func() { require.Equal(t, []string{"forms"}, names) })
}

// TestReplayUpdate rewrites wrong expectations with the replies, keeping everything else of the
// file, and the rewritten file then replays as it is.
func TestReplayUpdate(t *testing.T) {
	t.Parallel()
	want, err := os.ReadFile(filepath.Join("testdata", "forms.txt"))
	require.NoError(t, err)
	wrong := strings.NewReplacer(
		`"name":"current path"},"id":"a"}`, `"name":"stale"},"id":"a"}`,
		"<-- 404 404 page not found", "<-- 404 stale",
		"\n<--\n", "\n<-- {}\n",
	).Replace(string(want))
	require.NotEqual(t, string(want), wrong)
	file := filepath.Join(t.TempDir(), "forms.txt")
	require.NoError(t, os.WriteFile(file, []byte(wrong), 0o600))

	srv := httptest.NewServer(replayHandler())
	t.Cleanup(srv.Close)
	url := srv.URL
	jsonrpctest.Replay(t, url, file, true)
	got, err := os.ReadFile(file)
	require.NoError(t, err)
	require.Equal(t, string(want), string(got))
	jsonrpctest.Replay(t, url, file, false)
}
