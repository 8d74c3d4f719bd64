// Package jsonrpctest replays JSON-RPC wire transcripts against a real HTTP server and compares
// every reply byte for byte (STYLE.md rule 12), as go-ethereum's rpc/testdata files do. Services
// keep their transcripts in testdata/*.txt and replay them with [ReplayDir] (a server per file)
// or [Replay] (one file against a running server); `go test -update` rewrites the expected
// replies from what the server answers, for review in the diff.
//
// # Format
//
// A transcript is read line by line:
//
//   - `--> BODY` posts BODY (one line, as is) as application/json to the current path;
//     `--> /PATH BODY` posts it to /PATH instead.
//   - `POST /PATH` makes /PATH the current path for the requests after it; it starts as "" (the
//     URL given to Replay).
//   - `<-- BODY` is the exact reply to the request before it: HTTP 200 and the bytes BODY plus a
//     newline. `<-- STATUS BODY` (STATUS three digits) expects that status instead of 200, and a
//     bare `<--` (or `<-- STATUS`) an empty body, as a notification gets.
//   - Any other line is a comment, kept as it is by -update.
//
// Replay sends the requests one after another through a jsonrpc.Client; it is for tests only.
package jsonrpctest

import (
	"bufio"
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/jsonrpc"
)

// ReplayDir replays every testdata/*.txt of the package under test, each in a parallel subtest
// named after the file (without .txt) against a server of its own: an httptest.Server running
// the handler that serve builds for that name. It fails t if there is no transcript.
func ReplayDir(t *testing.T, serve func(t *testing.T, name string) http.Handler, update bool) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "*.txt"))
	require.NoError(t, err)
	require.NotEmpty(t, files, "no transcript in testdata")
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".txt")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(serve(t, name))
			t.Cleanup(srv.Close)
			Replay(t, srv.URL, file, update)
		})
	}
}

// Replay sends each request of the transcript file to the server at url and requires each reply
// to be exactly the one the file gives. With update, it writes the replies it got into the file
// instead of comparing them.
func Replay(t *testing.T, url, file string, update bool) {
	t.Helper()
	ReplayRewrite(t, url, file, update, nil)
}

// ReplayRewrite is Replay with each reply body passed through rewrite (when not nil) before it is
// compared or written: for replies that carry a value the test cannot fix in advance, such as a
// port the node under test bound.
func ReplayRewrite(t *testing.T, url, file string, update bool, rewrite func([]byte) []byte) {
	t.Helper()
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	client := jsonrpc.NewClient(url, nil)

	var out bytes.Buffer
	var path string
	var got *reply // the reply to the last request
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "POST /"):
			path = strings.TrimPrefix(line, "POST ")
		case strings.HasPrefix(line, "--> "):
			reqPath, body := path, strings.TrimPrefix(line, "--> ")
			if strings.HasPrefix(body, "/") {
				reqPath, body, _ = strings.Cut(body, " ")
			}
			status, raw, err := client.Post(t.Context(), reqPath, []byte(body))
			require.NoError(t, err, "%s:%d", file, n)
			if rewrite != nil {
				raw = rewrite(raw)
			}
			got = &reply{status: status, body: raw}
		case line == "<--" || strings.HasPrefix(line, "<-- "):
			require.NotNil(t, got, "%s:%d: a reply without a request", file, n)
			want := parseReply(strings.TrimPrefix(strings.TrimPrefix(line, "<--"), " "))
			if update {
				line = got.render(want.explicit)
			} else {
				require.Equal(t, want.status, got.status, "%s:%d: HTTP status", file, n)
				require.Equal(t, string(want.body), string(got.body), "%s:%d: reply", file, n)
			}
			got = nil
		}
		out.WriteString(line + "\n")
	}
	require.NoError(t, sc.Err())
	if update {
		require.NoError(t, os.WriteFile(file, out.Bytes(), 0o644))
	}
}

// reply is one HTTP reply: its status and its whole body.
type reply struct {
	status int
	body   []byte
	// explicit says the transcript line spelled the status out.
	explicit bool
}

// parseReply reads what follows `<--`: an optional three-digit status, then the body, which gets
// back the newline the line dropped unless it is empty.
func parseReply(s string) reply {
	r := reply{status: 200}
	if code, rest, _ := strings.Cut(s, " "); len(code) == 3 {
		if n, err := strconv.Atoi(code); err == nil {
			r.status, r.explicit, s = n, true, rest
		}
	}
	if s != "" {
		r.body = []byte(s + "\n")
	}
	return r
}

// render writes r as a transcript line, its status spelled out when it is not 200 or when the
// line it replaces had it. A body that is not one line ending in a newline cannot be written
// as one and fails the comparison when the file is replayed again.
func (r *reply) render(explicit bool) string {
	line := "<--"
	if explicit || r.status != 200 {
		line += " " + strconv.Itoa(r.status)
	}
	if len(r.body) > 0 {
		line += " " + strings.TrimSuffix(string(r.body), "\n")
	}
	return line
}
