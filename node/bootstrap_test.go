package node_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
)

// A node among other validators bootstraps its P-Chain from its bootstrap peers before anything
// else: while its only peer cannot be reached, info.isBootstrapped says false, the chain's API
// answers 503, and /ext/health fails naming the chain as bootstrapping, with its progress.
func TestNodeWaitsToBootstrap(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t)
	cfg.P2P.BootstrapIPs = []string{"127.0.0.1:1"} // nothing listens there
	cfg.P2P.BootstrapIDs = []ids.NodeID{{0xbe, 0xac, 0x04}}
	n := start(t, cfg)

	_, body := post(t, n.url+"/ext/info", `{"jsonrpc":"2.0","id":1,"method":"info.isBootstrapped","params":{"chain":"P"}}`)
	require.Equal(t, `{"jsonrpc":"2.0","result":{"isBootstrapped":false},"id":1}`, strings.TrimSpace(body))
	resp, _ := post(t, n.url+"/ext/bc/P", `{"jsonrpc":"2.0","id":1,"method":"platform.getHeight"}`)
	require.Equal(t, http.StatusServiceUnavailable, resp.StatusCode)
	code, health := get(t, n.url+"/ext/health")
	require.Equal(t, http.StatusServiceUnavailable, code, health)
	require.Contains(t, health, `"chain-P":{"message":{`)
	require.Contains(t, health, `"bootstrapping":{"fetched":0,"executed":0,"remaining":0}`)
	require.Contains(t, health, `"error":"chain is bootstrapping"`)
}
