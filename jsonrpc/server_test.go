package jsonrpc_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/jsonrpc"
)

var update = flag.Bool("update", false, "rewrite the expected responses in testdata/*.txt")

// Test service: an "info" server whose methods cover every path of the engine.

type versionReply struct {
	Version            string            `json:"version"`
	DatabaseVersion    string            `json:"databaseVersion"`
	RPCProtocolVersion jsonrpc.Uint32    `json:"rpcProtocolVersion"`
	GitCommit          string            `json:"gitCommit"`
	VMVersions         map[string]string `json:"vmVersions"`
}

type nodeIDReply struct {
	NodeID string `json:"nodeID"`
}

type chainArgs struct {
	Chain string `json:"chain"`
}

type bootstrappedReply struct {
	IsBootstrapped bool `json:"isBootstrapped"`
}

// values carries every value encoding of types.go, echoed back by info.echo.
type values struct {
	U64 jsonrpc.Uint64  `json:"u64"`
	U32 jsonrpc.Uint32  `json:"u32"`
	U8  jsonrpc.Uint8   `json:"u8"`
	F   jsonrpc.Float64 `json:"f"`
	S   string          `json:"s"`
}

// failArgs tells info.fail which error to return.
type failArgs struct {
	Plain   string          `json:"plain"`
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data"`
	Wrap    bool            `json:"wrap"`
}

type emptyReply struct {
	A string `json:"a"`
}

// badJSON fails to encode.
type badJSON struct{}

func (badJSON) MarshalJSON() ([]byte, error) { return nil, errors.New("cannot encode <this>") }

type badReply struct {
	B badJSON `json:"b"`
}

// testServer returns the test "info" server and a counter of handler runs.
func testServer(tb testing.TB) (*jsonrpc.Server, *atomic.Int64) {
	tb.Helper()
	var runs atomic.Int64
	s := jsonrpc.NewServer("info", slog.New(slog.DiscardHandler))
	jsonrpc.Register(s, "getNodeVersion", func(context.Context, *struct{}) (*versionReply, error) {
		runs.Add(1)
		return &versionReply{
			Version:            "avalanchego/1.14.2",
			DatabaseVersion:    "v1.4.5",
			RPCProtocolVersion: 45,
			VMVersions:         map[string]string{},
		}, nil
	})
	jsonrpc.Register(s, "getNodeID", func(context.Context, *struct{}) (*nodeIDReply, error) {
		runs.Add(1)
		return &nodeIDReply{NodeID: "NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg"}, nil
	})
	jsonrpc.Register(s, "isBootstrapped", func(_ context.Context, args *chainArgs) (*bootstrappedReply, error) {
		runs.Add(1)
		if args.Chain == "" {
			return nil, errors.New("argument 'chain' not given")
		}
		return &bootstrappedReply{IsBootstrapped: args.Chain == "X"}, nil
	})
	jsonrpc.Register(s, "echo", func(_ context.Context, args *values) (*values, error) {
		runs.Add(1)
		return args, nil
	})
	jsonrpc.Register(s, "fail", func(_ context.Context, args *failArgs) (*struct{}, error) {
		runs.Add(1)
		if args.Plain != "" {
			return nil, errors.New(args.Plain)
		}
		var err error = &jsonrpc.Error{Code: args.Code, Message: args.Message, Data: args.Data}
		if args.Wrap {
			err = fmt.Errorf("wrapped: %w", err)
		}
		return nil, err
	})
	jsonrpc.Register(s, "panic", func(context.Context, *struct{}) (*struct{}, error) {
		runs.Add(1)
		panic("boom")
	})
	jsonrpc.Register(s, "nothing", func(context.Context, *struct{}) (*emptyReply, error) {
		runs.Add(1)
		return nil, nil
	})
	jsonrpc.Register(s, "badResult", func(context.Context, *struct{}) (*badReply, error) {
		runs.Add(1)
		return &badReply{}, nil
	})
	jsonrpc.Register(s, "status", func(context.Context, *struct{}) (*emptyReply, error) {
		runs.Add(1)
		return &emptyReply{A: "status"}, nil
	})
	return s, &runs
}

// Transcripts
//
// A transcript file is a list of exchanges separated by comment lines (starting with '#') or blank
// lines. An exchange is one or two "-->" lines, the request, then the "<--" lines of the response.
//
// Request: an optional method line "--> METHOD CT" (METHOD in capitals; CT is "-" for no
// Content-Type header, "json" for application/json, a Go-quoted string, or the rest of the line),
// then an optional body line. Without a method line the request is POST application/json. A body
// line is "--> " and the body as is, or "--> %q " and the body Go-quoted.
//
// Response: a status line "<-- STATUS CT [nosniff] [len=N]", CT being "-" (none), "json" for
// application/json; charset=utf-8, "text" for text/plain; charset=utf-8, or Go-quoted; "nosniff"
// when X-Content-Type-Options: nosniff is set; len only for an empty body, giving Content-Length
// ("none" when absent). Then, for a non-empty body, one body line: "<-- " and the body without its
// final newline when the body is one line of UTF-8 ending in a newline, else "<-- %q " and the
// body Go-quoted. The rendering is one-to-one, so comparing it compares the bytes.

var methodLine = regexp.MustCompile(`^([A-Z]+)(?: (.*))?$`)

type exchange struct {
	line     int      // line number of the first request line
	request  []string // the "-->" lines, without the prefix
	response []string // the "<--" lines, without the prefix
}

type transcript struct {
	lines     []string // the file, for -update: exchange response lines are replaced
	exchanges []exchange
	respAt    []int // per exchange, the number of lines before its response
}

func parseTranscript(t *testing.T, path string) *transcript {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	tr := &transcript{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	var cur *exchange
	flush := func() {
		if cur != nil {
			tr.exchanges = append(tr.exchanges, *cur)
			cur = nil
		}
	}
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "--> "):
			// A second request line only follows a method line.
			if cur == nil || len(cur.response) > 0 || len(cur.request) != 1 || !methodLine.MatchString(cur.request[0]) {
				flush()
				cur = &exchange{line: n}
				tr.respAt = append(tr.respAt, 0)
			}
			cur.request = append(cur.request, line[4:])
			tr.lines = append(tr.lines, line)
			tr.respAt[len(tr.respAt)-1] = len(tr.lines)
		case strings.HasPrefix(line, "<-- "):
			require.NotNil(t, cur, "%s:%d: response without request", path, n)
			cur.response = append(cur.response, line[4:]) // regenerated on -update
		default:
			flush()
			tr.lines = append(tr.lines, line)
		}
	}
	flush()
	require.NoError(t, sc.Err())
	return tr
}

// request builds the HTTP request of an exchange.
func (ex *exchange) httpRequest(t *testing.T, url string) *http.Request {
	t.Helper()
	method, ct, hasCT := http.MethodPost, "application/json", true
	lines := ex.request
	if m := methodLine.FindStringSubmatch(lines[0]); m != nil {
		method = m[1]
		switch rest := m[2]; {
		case rest == "-":
			hasCT = false
		case rest == "json":
		case strings.HasPrefix(rest, `"`):
			var err error
			ct, err = strconv.Unquote(rest)
			require.NoError(t, err, "line %d", ex.line)
		default:
			ct = rest
		}
		lines = lines[1:]
	}
	var body string
	if len(lines) > 0 {
		body = lines[0]
		if q, ok := strings.CutPrefix(body, "%q "); ok {
			var err error
			body, err = strconv.Unquote(q)
			require.NoError(t, err, "line %d", ex.line)
		}
	}
	req, err := http.NewRequestWithContext(t.Context(), method, url, strings.NewReader(body))
	require.NoError(t, err)
	if hasCT {
		req.Header.Set("Content-Type", ct)
	}
	return req
}

// renderResponse renders a response in the transcript format.
func renderResponse(resp *http.Response, body []byte) []string {
	var status strings.Builder
	status.WriteString(strconv.Itoa(resp.StatusCode))
	switch ct := resp.Header.Get("Content-Type"); ct {
	case "":
		status.WriteString(" -")
	case "application/json; charset=utf-8":
		status.WriteString(" json")
	case "text/plain; charset=utf-8":
		status.WriteString(" text")
	default:
		status.WriteString(" " + strconv.Quote(ct))
	}
	switch xcto := resp.Header.Get("X-Content-Type-Options"); xcto {
	case "":
	case "nosniff":
		status.WriteString(" nosniff")
	default:
		status.WriteString(" xcto=" + strconv.Quote(xcto))
	}
	if len(body) == 0 {
		cl := resp.Header.Get("Content-Length")
		if cl == "" {
			cl = "none"
		}
		status.WriteString(" len=" + cl)
		return []string{status.String()}
	}
	s := string(body)
	if line, ok := strings.CutSuffix(s, "\n"); ok && !strings.ContainsAny(line, "\n\r") && isPlainUTF8(line) && !strings.HasPrefix(line, "%q ") {
		return []string{status.String(), line}
	}
	return []string{status.String(), "%q " + strconv.Quote(s)}
}

// isPlainUTF8 reports whether s is valid UTF-8 that strconv.Quote would not escape.
func isPlainUTF8(s string) bool {
	return strconv.Quote(s) == `"`+strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s)+`"`
}

func TestTranscripts(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join("testdata", "*.txt"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, path := range files {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txt"), func(t *testing.T) {
			t.Parallel()
			s, _ := testServer(t)
			srv := httptest.NewServer(s)
			t.Cleanup(srv.Close)
			tr := parseTranscript(t, path)
			actual := make([][]string, len(tr.exchanges))
			for i := range tr.exchanges {
				ex := &tr.exchanges[i]
				req := ex.httpRequest(t, srv.URL)
				resp, err := srv.Client().Do(req)
				require.NoError(t, err, "%s:%d", path, ex.line)
				body, err := io.ReadAll(resp.Body)
				require.NoError(t, err)
				require.NoError(t, resp.Body.Close())
				if cl := resp.Header.Get("Content-Length"); cl != "" && req.Method != http.MethodHead {
					require.Equal(t, strconv.Itoa(len(body)), cl, "%s:%d: Content-Length", path, ex.line)
				}
				actual[i] = renderResponse(resp, body)
				if !*update {
					require.Equal(t, ex.response, actual[i], "%s:%d: response to %q", path, ex.line, ex.request)
				}
			}
			if *update {
				writeTranscript(t, path, tr, actual)
			}
		})
	}
}

// writeTranscript rewrites path with the actual responses in place of the expected ones.
func writeTranscript(t *testing.T, path string, tr *transcript, actual [][]string) {
	var out strings.Builder
	next := 0
	for i, line := range tr.lines {
		out.WriteString(line + "\n")
		for next < len(tr.respAt) && tr.respAt[next] == i+1 {
			for _, r := range actual[next] {
				out.WriteString("<-- " + r + "\n")
			}
			next++
		}
	}
	require.Equal(t, len(actual), next, "%s: responses not placed", path)
	require.NoError(t, os.WriteFile(path, []byte(out.String()), 0o644))
}
