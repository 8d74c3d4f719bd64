package e2e_test

import (
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/node/nodetest"
)

// logRecord is one line of the node's JSON log.
type logRecord map[string]any

// records parses a JSON log line by line; every line must be one JSON object with a time, a
// level and a message.
func records(t *testing.T, log string) []logRecord {
	t.Helper()
	var recs []logRecord
	for line := range strings.Lines(log) {
		var r logRecord
		require.NoError(t, json.Unmarshal([]byte(line), &r), "not a JSON log line: %q", line)
		for _, key := range []string{"time", "level", "msg"} {
			require.Contains(t, r, key, line)
		}
		recs = append(recs, r)
	}
	return recs
}

// find returns the records of log with message msg whose attributes include want (string
// values are matched as regular expressions, anchored).
func find(t *testing.T, log, msg string, want logRecord) []logRecord {
	t.Helper()
	var found []logRecord
	for _, r := range records(t, log) {
		if r["msg"] == msg && matches(r, want) {
			found = append(found, r)
		}
	}
	return found
}

func matches(r, want logRecord) bool {
	for k, w := range want {
		if s, ok := w.(string); ok {
			got, ok := r[k].(string)
			if !ok || !regexp.MustCompile("^(?:"+s+")$").MatchString(got) {
				return false
			}
			continue
		}
		if r[k] != w {
			return false
		}
	}
	return true
}

// whole returns the whole lines b holds: the node may be writing the next one.
func whole(b *nodetest.Buffer) string {
	text := b.String()
	return text[:strings.LastIndexByte(text, '\n')+1]
}

// runLogged starts `cornice run` with args at the default log level, its log going to a file
// (so in JSON, as --log-format auto writes it when stderr is not a terminal), and returns its
// log and HTTP base URL once it serves; the node stops at the test's end.
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
	var started []logRecord
	require.Eventually(t, func() bool {
		started = find(t, whole(log), "cornice node started", nil)
		return len(started) == 1
	}, acceptWait, 10*time.Millisecond, "the node did not start: %s", log)
	return log, "http://" + started[0]["httpAddr"].(string), started[0]["chains"].(string)
}

// TestLogsAtInfo: at the default level the node logs each chain once at start and names the
// chains it runs, then one line per accepted block and per transaction issued through the API
// (issue #17 §5); the registry's own events are at debug. Written to a file, the log is JSON,
// one object a line (issue #16 §3).
func TestLogsAtInfo(t *testing.T) {
	t.Parallel()
	log, base, chains := runLogged(t)
	require.Equal(t, "P,X,C", chains)
	start := whole(log)
	for _, alias := range []string{"P", "X", "C"} {
		require.Len(t, find(t, start, "chain created", logRecord{
			"level": "INFO", "component": "chains", "chainID": `\S+`, "chain": `\S+`, "alias": alias,
			"vmID": `\S+`, "lastAccepted": `\S+`, "height": float64(0),
		}), 1, start)
	}
	require.Len(t, find(t, start, "chain created", nil), 3)
	// The first screen of the log is short: what ran, and that it serves (the banner on stdout
	// says where); the rest of start-up is at debug.
	var msgs []string
	for _, r := range records(t, start) {
		if r["lib"] != nil {
			continue // a library's warning (Pebble's "low disk space" on a full disk), not the node's
		}
		msgs = append(msgs, r["msg"].(string))
		if r["msg"] == "cornice node started" {
			break
		}
	}
	// The C-Chain says which gas target it prefers, as developer methods are on
	// (docs/configuration.md), and the built-in relay, on for the lone local node, that it runs.
	require.Equal(t, []string{"database opened", "chain created", "chain created", "gas target preferred", "chain created", "relay started", "cornice node started"}, msgs)
	require.Len(t, find(t, start, "gas target preferred", logRecord{
		"level": "INFO", "chain": "C-Chain", "gasPerSecond": float64(1_000_000_000), "reached": `at the next block \(developer methods on\)`,
	}), 1, start)
	for _, internal := range []string{"chain registered", "chain state changed", "chain indexed", "Chain ready", "EVM chain ready"} {
		require.NotContains(t, start, internal)
	}

	l1Transfer(t, base+"/ext/bc/C/rpc")
	blockLine := logRecord{
		"level": "INFO", "component": "chains", "chainID": `\S+`, "chain": "C-Chain", "alias": "C",
		"height": float64(1), "blockID": `\S+`, "txs": float64(1), "time": `\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ`,
	}
	require.Eventually(t, func() bool {
		return len(find(t, whole(log), "block accepted", blockLine)) == 1
	}, acceptWait, 10*time.Millisecond, log.String())
	// The HTTP server's own start line (the start line has its address) is at debug too.
	require.NotContains(t, whole(log), "HTTP API server listening")
	require.Len(t, find(t, whole(log), "transaction issued", logRecord{
		"level": "INFO", "component": "chains", "chainID": `\S+`, "chain": "C-Chain", "txID": `0x[0-9a-f]{64}`,
		"from": "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC",
	}), 1, log.String())
}

// TestLogsOtherNetwork: on a network without a built-in genesis the node says at start that no
// chain runs and what answers (issue #17 §3).
func TestLogsOtherNetwork(t *testing.T) {
	t.Parallel()
	log, _, chains := runLogged(t, "--network-id", "fuji")
	require.Equal(t, "none", chains)
	require.Len(t, find(t, whole(log), "cornice has a genesis for the local network only: on this network no chain runs, and /ext/bc/P, /ext/bc/X and /ext/bc/C answer 404 (the Info, Index, health and metrics APIs do run); use --network-id local",
		logRecord{"level": "WARN", "networkID": float64(5), "networkName": "fuji"}), 1)
}

// TestLogsText: with --log-format text the log is our terminal form even into a file: time of
// day, the level in five columns, the message padded so that attributes start in one column,
// and no colour, as stderr is not a terminal (issue #16 §3).
func TestLogsText(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	log := &nodetest.Buffer{}
	code := startCLI(t, ctx, &nodetest.Buffer{}, log, "run", "--data-dir", t.TempDir(), "--http-port=0", "--staking-port=0", "--log-format", "text")
	t.Cleanup(func() {
		cancel()
		require.Equal(t, 0, <-code, log.String())
	})
	require.Eventually(t, func() bool { return strings.Contains(whole(log), " cornice node started ") },
		acceptWait, 10*time.Millisecond, "the node did not start: %s", log)
	line := regexp.MustCompile(`^\d\d:\d\d:\d\d\.\d{3} (?:DEBUG|INFO |WARN |ERROR) (\S.*?) +(\w+=.*)$`)
	lines := strings.Split(strings.TrimSuffix(whole(log), "\n"), "\n")
	require.GreaterOrEqual(t, len(lines), 5, "the chains and the start line")
	column := -1
	for _, l := range lines {
		require.NotContains(t, l, "\x1b", "colour in a file")
		m := line.FindStringSubmatchIndex(l)
		require.NotNil(t, m, l)
		if msg := l[m[2]:m[3]]; len(msg) < 30 {
			if column < 0 {
				column = m[4]
			}
			require.Equal(t, column, m[4], "attributes of %q start in another column", l)
		}
	}
	require.Contains(t, whole(log), " INFO  chain created                  component=chains ")
}
