package e2e_test

import (
	"context"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/node/nodetest"
)

// startedLine is the node's start line, with its HTTP address and the chains it runs.
var startedLine = regexp.MustCompile(`msg="cornice node started" .*httpAddr=(\S+) .*chains=(\S+)`)

// runLogged starts `cornice run` with args at the default log level and returns its log (stderr)
// and HTTP base URL once it serves; the node stops at the test's end.
func runLogged(t *testing.T, args ...string) (log *nodetest.Buffer, base, chains string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	log = &nodetest.Buffer{}
	code := startCLI(t, ctx, &nodetest.Buffer{}, log, append([]string{"run", "--data-dir", t.TempDir(), "--http-port=0", "--staking-port=0"}, args...)...)
	t.Cleanup(func() {
		http.DefaultClient.CloseIdleConnections() // see xNode.stop
		cancel()
		require.Equal(t, 0, <-code, log.String())
	})
	var m []string
	require.Eventually(t, func() bool {
		m = startedLine.FindStringSubmatch(log.String())
		return m != nil
	}, acceptWait, 10*time.Millisecond, "the node did not start: %s", log)
	return log, "http://" + m[1], m[2]
}

// TestLogsAtInfo: at the default level the node logs each chain once at start and names the
// chains it runs, then one line per accepted block and per transaction issued through the API
// (issue #17 §5); the registry's own events are at debug.
func TestLogsAtInfo(t *testing.T) {
	t.Parallel()
	log, base, chains := runLogged(t)
	require.Equal(t, "P,X,C", chains)
	start := log.String()
	for _, alias := range []string{"P", "X", "C"} {
		require.Regexp(t, `level=INFO msg="chain created" component=chains chainID=\S+ chain=\S+ alias=`+alias+` vmID=\S+ lastAccepted=\S+ height=0`, start)
	}
	require.Equal(t, 3, strings.Count(start, `msg="chain created"`))
	for _, internal := range []string{"chain registered", "chain state changed", "chain indexed", "Chain ready", "EVM chain ready"} {
		require.NotContains(t, start, internal)
	}

	l1Transfer(t, base+"/ext/bc/C/rpc")
	require.Eventually(t, func() bool {
		return regexp.MustCompile(`level=INFO msg="block accepted" component=chains chainID=\S+ chain=C-Chain alias=C height=1 blockID=\S+ txs=1 time=\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ`).MatchString(log.String())
	}, acceptWait, 10*time.Millisecond, log.String())
	require.Regexp(t, `level=INFO msg="transaction issued" component=chains chainID=\S+ chain=C-Chain txID=0x[0-9a-f]{64} from=0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC`, log.String())
}

// TestLogsOtherNetwork: on a network without a built-in genesis the node says at start that no
// chain runs and what answers (issue #17 §3).
func TestLogsOtherNetwork(t *testing.T) {
	t.Parallel()
	log, _, chains := runLogged(t, "--network-id", "fuji")
	require.Equal(t, "none", chains)
	require.Contains(t, log.String(), `level=WARN msg="cornice has a genesis for the local network only: on this network no chain runs, and /ext/bc/P, /ext/bc/X and /ext/bc/C answer 404 (the Info, Index, health and metrics APIs do run); use --network-id local" networkID=5 networkName=fuji`)
}
