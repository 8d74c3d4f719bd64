package node_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	refinfo "github.com/ava-labs/avalanchego/api/info"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/config"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/node"
	"github.com/cornice-node/cornice/node/nodetest"
)

const (
	// peerChildBoot hands a node process its bootstrapper: "<ip:port> <NodeID>", or nothing.
	peerChildBoot = "CORNICE_PEER_CHILD_BOOT"
	// processWait bounds every wait of the multi-process test.
	processWait = 30 * time.Second
)

// TestPeerProcessChild is a node process of TestPeerProcesses: a node on free ports in its data
// dir, with the bootstrapper it is given.
func TestPeerProcessChild(t *testing.T) {
	cfg := config.Default()
	cfg.DataDir = nodetest.Dir(t)
	cfg.HTTPPort, cfg.StakingPort = 0, 0
	if boot := os.Getenv(peerChildBoot); boot != "" {
		ip, id, _ := strings.Cut(boot, " ")
		nodeID, err := ids.NodeIDFromString(id)
		require.NoError(t, err)
		cfg.P2P.BootstrapIPs, cfg.P2P.BootstrapIDs = []string{ip}, []ids.NodeID{nodeID}
	}
	n, err := node.New(cfg, nodetest.Logger(), nil)
	require.NoError(t, err)
	nodetest.Serve(t, n)
}

// peerProcess is a node process with its peer-to-peer identity.
type peerProcess struct {
	*nodetest.Child
	staking, id string
}

// startPeerProcess starts a node process in dir, bootstrapping from boot when it is not nil, and
// reads its NodeID and staking address from its Info API.
func startPeerProcess(t *testing.T, dir string, boot *peerProcess) *peerProcess {
	t.Helper()
	cfg := nodetest.Config{Test: "TestPeerProcessChild", Dir: dir, StartWait: processWait}
	if boot != nil {
		cfg.Env = []string{peerChildBoot + "=" + boot.staking + " " + boot.id}
	}
	p := &peerProcess{Child: nodetest.Start(t, cfg)}
	c := refinfo.NewClient(p.URL())
	nodeID, _, err := c.GetNodeID(t.Context())
	require.NoError(t, err)
	ip, err := c.GetNodeIP(t.Context())
	require.NoError(t, err)
	p.id, p.staking = nodeID.String(), ip.String()
	return p
}

// peerIDs returns the NodeIDs info.peers lists.
func (p *peerProcess) peerIDs(t *testing.T) []string {
	t.Helper()
	peers, err := refinfo.NewClient(p.URL()).Peers(t.Context(), nil)
	require.NoError(t, err)
	out := make([]string, len(peers))
	for i, q := range peers {
		out[i] = q.ID.String()
	}
	return out
}

// sees reports whether p lists exactly the others as peers.
func (p *peerProcess) sees(t *testing.T, others ...*peerProcess) bool {
	got := p.peerIDs(t)
	if len(got) != len(others) {
		return false
	}
	for _, o := range others {
		if !strings.Contains(strings.Join(got, " "), o.id) {
			return false
		}
	}
	return true
}

// Three node processes on loopback, each knowing one bootstrap peer, find each other; a killed
// one drops out of the others' info.peers and is back after a restart; a second process with the
// same staking key is refused while the first is connected.
func TestPeerProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts node processes")
	}
	t.Parallel()
	dirs := []string{t.TempDir(), t.TempDir(), t.TempDir()}
	n1 := startPeerProcess(t, dirs[0], nil)
	n2 := startPeerProcess(t, dirs[1], n1)
	n3 := startPeerProcess(t, dirs[2], n2)
	require.Eventually(t, func() bool {
		return n1.sees(t, n2, n3) && n2.sees(t, n1, n3) && n3.sees(t, n1, n2)
	}, processWait, 50*time.Millisecond)

	n3.Kill()
	require.Eventually(t, func() bool { return n1.sees(t, n2) && n2.sees(t, n1) }, processWait, 50*time.Millisecond)

	n3 = startPeerProcess(t, dirs[2], n2)
	require.Eventually(t, func() bool {
		return n1.sees(t, n2, n3) && n2.sees(t, n1, n3) && n3.sees(t, n1, n2)
	}, processWait, 50*time.Millisecond)

	// A copy of n3's identity is refused by n1 while n3 is connected.
	twin := t.TempDir()
	require.NoError(t, os.CopyFS(filepath.Join(twin, "staking"), os.DirFS(filepath.Join(dirs[2], "staking"))))
	dup := startPeerProcess(t, twin, n1)
	require.Equal(t, n3.id, dup.id)
	require.Eventually(t, func() bool {
		_, metrics := get(t, n1.URL()+"/ext/metrics")
		return strings.Contains(metrics, `network_peer_refused{reason="already_connected_to_this_node"}`)
	}, processWait, 50*time.Millisecond)
	require.Empty(t, dup.peerIDs(t))
	require.True(t, n1.sees(t, n2, n3))

	for _, p := range []*peerProcess{n1, n2, n3, dup} {
		p.Stop(t)
		p.RequireNoErrorLogs(t)
	}
}
