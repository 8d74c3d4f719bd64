package node_test

import (
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	refinfo "github.com/ava-labs/avalanchego/api/info"
	refids "github.com/ava-labs/avalanchego/ids"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
)

// Two nodes in one process peer: each lists the other in info.peers with the reference's fields,
// the nodeIDs filter selects, health has its network check, metrics count the peer.
func TestTwoNodesPeer(t *testing.T) {
	t.Parallel()
	a := start(t, stakerConfig(t))
	cfg := testConfig(t)
	cfg.ACPSupport = []uint32{103}
	cfg.P2P.BootstrapIPs = []string{a.StakingAddr().String()}
	cfg.P2P.BootstrapIDs = []ids.NodeID{a.NodeID()}
	b := start(t, cfg)

	ca, cb := refinfo.NewClient(a.url), refinfo.NewClient(b.url)
	var peers []refinfo.Peer
	require.Eventually(t, func() bool {
		var err error
		peers, err = ca.Peers(t.Context(), nil)
		require.NoError(t, err)
		bp, err := cb.Peers(t.Context(), nil)
		require.NoError(t, err)
		return len(peers) == 1 && len(bp) == 1
	}, processWait, 20*time.Millisecond)
	p := peers[0]
	require.Equal(t, b.NodeID().String(), p.ID.String())
	require.Equal(t, "cornice/1.14.2", p.Version)
	require.Equal(t, b.StakingAddr().(*net.TCPAddr).AddrPort(), p.PublicIP)
	require.True(t, p.TrackedSubnets.Contains(refids.Empty))
	require.True(t, p.SupportedACPs.Contains(103))

	// The filter: request order, unknown IDs skipped, duplicates repeated.
	bID, err := refids.NodeIDFromString(b.NodeID().String())
	require.NoError(t, err)
	filtered, err := ca.Peers(t.Context(), []refids.NodeID{bID, refids.GenerateTestNodeID(), bID})
	require.NoError(t, err)
	require.Len(t, filtered, 2)

	// info.acps counts b's support only once b is a validator; it is not.
	_, acps := post(t, a.url+"/ext/info", `{"jsonrpc":"2.0","id":1,"method":"info.acps"}`)
	require.Equal(t, `{"jsonrpc":"2.0","result":{"acps":{}},"id":1}`, strings.TrimSpace(acps))

	code, health := get(t, a.url+"/ext/health")
	require.Equal(t, http.StatusOK, code, health)
	require.Contains(t, health, `"network":{"message":{"connectedPeers":1`)
	_, metrics := get(t, a.url+"/ext/metrics")
	require.Contains(t, metrics, "network_peers 1\n")
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(body)
}
