package node_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/config"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/node"
	"github.com/cornice-node/cornice/node/nodetest"
)

// peerChildBoot is the environment of a node child process (TestPeerProcessChild) that names its
// bootstrapper: "<ip:port> <NodeID>", or empty.
const peerChildBoot = "CORNICE_PEER_CHILD_BOOT"

// peerChildPing is the environment of a node child process that sets its ping frequency (a
// duration), so that a test sees pings flow within seconds.
const peerChildPing = "CORNICE_PEER_CHILD_PING"

// peerChildStaker is the environment of a node child process that runs with the local network's
// staker n's keys (1..5, testdata/local-stakers), a genesis validator; empty: keys of its own.
const peerChildStaker = "CORNICE_PEER_CHILD_STAKER"

// processWait bounds every wait of the multi-process test.
const processWait = 60 * time.Second

// TestPeerProcessChild is a node process of TestPeerProcesses, started with nodetest: it runs a
// node on free ports in the directory it is given, with the bootstrapper it is given, and passes
// its staking address and ID to the parent.
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
	if n := os.Getenv(peerChildStaker); n != "" {
		// The child runs in the package directory, as go test runs tests.
		dir := filepath.Join("..", "testdata", "local-stakers")
		cfg.StakingTLSCertFile = filepath.Join(dir, "staker"+n+".crt")
		cfg.StakingTLSKeyFile = filepath.Join(dir, "staker"+n+".key")
		cfg.StakingSignerKeyFile = filepath.Join(dir, "signer"+n+".key")
	}
	if ping := os.Getenv(peerChildPing); ping != "" {
		d, err := time.ParseDuration(ping)
		require.NoError(t, err)
		cfg.P2P.PingFrequency = d
	}
	n, err := node.New(cfg, nodetest.Logger(), nil)
	require.NoError(t, err)
	nodetest.Serve(t, n, n.StakingAddr().String(), n.NodeID().String())
}

// peerProcess is a node child process.
type peerProcess struct {
	*nodetest.Child
	url, staking, id string
}

// startPeerProcess starts a node process in dir, bootstrapping from boot when it is not nil.
func startPeerProcess(t *testing.T, dir string, boot *peerProcess, env ...string) *peerProcess {
	t.Helper()
	cfg := nodetest.Config{Test: "TestPeerProcessChild", Dir: dir, StartWait: processWait, Env: env}
	if boot != nil {
		cfg.Env = append(cfg.Env, peerChildBoot+"="+boot.staking+" "+boot.id)
	}
	c := nodetest.Start(t, cfg)
	extra := c.Extra()
	require.Len(t, extra, 2)
	return &peerProcess{Child: c, url: c.URL(), staking: extra[0], id: extra[1]}
}

// peerIDs returns the NodeIDs info.peers lists.
func (p *peerProcess) peerIDs(t *testing.T) []string {
	t.Helper()
	_, body := post(t, p.url+"/ext/info", `{"jsonrpc":"2.0","id":1,"method":"info.peers"}`)
	var out []string
	for _, part := range strings.Split(body, `"nodeID":"`)[1:] {
		id, _, _ := strings.Cut(part, `"`)
		out = append(out, id)
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
		_, metrics := get(t, n1.url+"/ext/metrics")
		return strings.Contains(metrics, `network_peer_refused{reason="already_connected_to_this_node"}`)
	}, processWait, 50*time.Millisecond)
	require.Empty(t, dup.peerIDs(t))
	require.True(t, n1.sees(t, n2, n3))
}
