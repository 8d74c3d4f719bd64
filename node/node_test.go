package node_test

import (
	"bytes"
	"flag"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/config"
	"github.com/cornice-node/cornice/jsonrpc/jsonrpctest"
	"github.com/cornice-node/cornice/node"
	"github.com/cornice-node/cornice/node/nodetest"
	"github.com/cornice-node/cornice/storage"
)

// stakerConfig is a local-network config on port 0 in a temp dir whose identity is the local
// staker1's, so NodeID and proof of possession are the reference's (node-api.md §4).
func stakerConfig(t *testing.T) config.Config {
	t.Helper()
	cfg := testConfig(t)
	cfg.StakingTLSKeyFile = filepath.Join("..", "testdata", "local-stakers", "staker1.key")
	cfg.StakingTLSCertFile = filepath.Join("..", "testdata", "local-stakers", "staker1.crt")
	cfg.StakingSignerKeyFile = filepath.Join("..", "testdata", "local-stakers", "signer1.key")
	return cfg
}

// testConfig is a default local-network config on port 0 in a fresh temp dir.
func testConfig(t *testing.T) config.Config {
	t.Helper()
	cfg := config.Default()
	cfg.DataDir = t.TempDir()
	cfg.HTTPPort = 0
	cfg.StakingPort = 0
	return cfg
}

// running is a node serving in the background of a test.
type running struct {
	*node.Node
	url  string
	stop func() error
}

// start builds and runs a node with the extra chains; the test stops it at cleanup unless it was
// stopped already.
func start(t *testing.T, cfg config.Config, extra ...node.Chain) *running {
	t.Helper()
	n, err := node.New(cfg, slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelWarn})), nil, extra...)
	require.NoError(t, err)
	return &running{Node: n, url: "http://" + n.HTTPAddr().String(), stop: nodetest.Run(t, n)}
}

func post(t *testing.T, url, body string) (*http.Response, string) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, string(out)
}

var update = flag.Bool("update", false, "rewrite the expected replies in testdata/*.txt")

// TestWire replays testdata/*.txt against a real node: each `--> PATH BODY` line is posted, and
// the next `<-- STATUS BODY` line is the exact expected reply (without its final newline). With
// -update the replies are rewritten from what the node answers; review the diff.
func TestWire(t *testing.T) {
	t.Parallel()
	n := start(t, stakerConfig(t))
	// The files show the default staking port; the node under test binds a free one.
	port := strconv.Itoa(n.StakingAddr().(*net.TCPAddr).Port)
	files, err := filepath.Glob(filepath.Join("testdata", "*.txt"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			jsonrpctest.ReplayRewrite(t, n.url, file, *update, func(b []byte) []byte {
				return bytes.ReplaceAll(b, []byte("127.0.0.1:"+port), []byte("127.0.0.1:9651"))
			})
		})
	}
}

func TestHeaders(t *testing.T) {
	t.Parallel()
	n := start(t, stakerConfig(t))
	resp, _ := post(t, n.url+"/ext/info", `{"jsonrpc":"2.0","id":1,"method":"info.getNodeID"}`)
	require.Equal(t, "NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg", resp.Header.Get("node-id"))
	require.Equal(t, "nosniff", resp.Header.Get("X-Content-Type-Options"))
	require.Equal(t, "application/json; charset=utf-8", resp.Header.Get("Content-Type"))

	resp, _ = post(t, n.url+"/ext/info", `{"jsonrpc":"2.0","id":1,"method":"info.nope"}`)
	require.Empty(t, resp.Header.Get("X-Content-Type-Options"), "no method ran")

	resp, err := http.Get(n.url + "/ext/info")
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode)
	require.Equal(t, "rpc: POST method required, received GET", string(body))
	require.Equal(t, "NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg", resp.Header.Get("node-id"))

	req, err := http.NewRequest(http.MethodPost, n.url+"/ext/info", strings.NewReader(`{}`))
	require.NoError(t, err)
	resp, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	require.Equal(t, http.StatusUnsupportedMediaType, resp.StatusCode)
	require.Equal(t, "rpc: unrecognized Content-Type: ", string(body))
}

func TestHealthAndMetrics(t *testing.T) {
	t.Parallel()
	n := start(t, testConfig(t))
	resp, err := http.Get(n.url + "/ext/health")
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode, string(body))
	require.Contains(t, string(body), `"database":`)
	// Each running chain has a check with its last accepted block: the P-Chain always runs.
	require.Contains(t, string(body), `"chain-P":{"message":{"lastAccepted":`)
	require.Contains(t, string(body), `"healthy":true`)

	post(t, n.url+"/ext/info", `{"jsonrpc":"2.0","id":1,"method":"info.getNodeVersion"}`)
	resp, err = http.Get(n.url + "/ext/metrics")
	require.NoError(t, err)
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Contains(t, string(body), `api_requests_total{method="POST",route="/ext/info"}`)
	require.Contains(t, string(body), "go_goroutines")
}

// A generated identity is written once and reused: NodeID and PoP survive a restart.
func TestIdentitySurvivesRestart(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t)
	const call = `{"jsonrpc":"2.0","id":1,"method":"info.getNodeID"}`

	first := start(t, cfg)
	_, before := post(t, first.url+"/ext/info", call)
	require.NoError(t, first.stop())

	for _, name := range []string{"staker.key", "staker.crt", "signer.key"} {
		fi, err := os.Stat(filepath.Join(cfg.DataDir, "staking", name))
		require.NoError(t, err)
		require.Equal(t, os.FileMode(0o400), fi.Mode().Perm(), name)
	}
	fi, err := os.Stat(filepath.Join(cfg.DataDir, "staking"))
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o750), fi.Mode().Perm())

	second := start(t, cfg)
	_, after := post(t, second.url+"/ext/info", call)
	require.Equal(t, before, after)
	require.Contains(t, after, first.NodeID().String())
}

// A data directory made for one network is refused under another, before anything is written,
// and still opens under its own.
func TestDataDirRefusesAnotherNetwork(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t)
	require.NoError(t, start(t, cfg).stop())

	other := cfg
	other.NetworkID = cfg.NetworkID + 1
	_, err := node.New(other, slog.New(slog.DiscardHandler), nil)
	require.ErrorContains(t, err, "was made for network")

	require.NoError(t, start(t, cfg).stop())
}

// A second node on the same data dir fails at once, and the first keeps serving.
func TestSecondNodeOnSameDataDirFails(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t)
	first := start(t, cfg)

	_, err := node.New(cfg, slog.New(slog.DiscardHandler), nil)
	require.ErrorIs(t, err, storage.ErrLocked)

	resp, _ := post(t, first.url+"/ext/info", `{"jsonrpc":"2.0","id":1,"method":"info.getNetworkID"}`)
	require.Equal(t, http.StatusOK, resp.StatusCode)
}

// Shutdown lets an in-flight request finish and then refuses new connections.
func TestShutdown(t *testing.T) {
	t.Parallel()
	n := start(t, testConfig(t))
	// A request whose body arrives slowly is in flight when the node is told to stop.
	pr, pw := io.Pipe()
	result := make(chan string, 1)
	go func() {
		resp, err := http.Post(n.url+"/ext/info", "application/json", pr)
		if err != nil {
			result <- err.Error()
			return
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		result <- string(b)
	}()
	_, err := pw.Write([]byte(`{"jsonrpc":"2.0","id":7,`))
	require.NoError(t, err)
	// The polls go on connections of their own, closed after each answer.
	poll := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	// The request is in flight once its handler runs: the gauge counts it beside the scrape
	// itself. Stopping before (a fixed sleep did, on a loaded machine) refuses it unanswered.
	require.Eventually(t, func() bool {
		resp, err := poll.Get(n.url + "/ext/metrics")
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		return err == nil && strings.Contains(string(b), "\napi_requests_in_flight 2\n")
	}, 30*time.Second, 5*time.Millisecond, "the slow request never reached its handler")
	stopped := make(chan error, 1)
	go func() { stopped <- n.stop() }()
	// Stopping has begun once a new request is refused; the slow one is still answered.
	require.Eventually(t, func() bool {
		resp, err := poll.Post(n.url+"/ext/info", "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"info.getNetworkID"}`))
		if err != nil {
			return true
		}
		resp.Body.Close()
		return false
	}, 30*time.Second, 5*time.Millisecond, "the node still takes new requests")
	_, err = pw.Write([]byte(`"method":"info.getNetworkName"}`))
	require.NoError(t, err)
	require.NoError(t, pw.Close())
	require.Equal(t, `{"jsonrpc":"2.0","result":{"networkName":"local"},"id":7}`+"\n", <-result)
	require.NoError(t, <-stopped)

	_, err = http.Post(n.url+"/ext/info", "application/json", bytes.NewReader(nil))
	require.Error(t, err)
}
