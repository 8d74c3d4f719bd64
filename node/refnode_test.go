package node_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Environment of the tests against a running reference node.
const (
	// referenceNodeEnv names the avalanchego v1.14.2 binary (build it with
	// `go build -C e2e/refnode -o <path> github.com/ava-labs/avalanchego/main`); without it the
	// tests are skipped. .ci/run builds it and sets it.
	referenceNodeEnv = "CORNICE_REFERENCE_NODE"
	// referenceSoakEnv is how long the peers must stay connected with pings flowing (a duration;
	// default 15s). A longer soak is a documented command: CORNICE_REFERENCE_SOAK=5m.
	referenceSoakEnv = "CORNICE_REFERENCE_SOAK"
)

// refPing is the ping frequency of both sides, so that several pings cross within the soak.
const refPing = time.Second

// refNode is a reference node process.
type refNode struct {
	url, staking, id string
}

// startRefNode starts the reference node with the local network's staker n (1..5), bootstrapping
// from boot when it is not nil; the process is stopped when the test ends.
func startRefNode(t *testing.T, bin string, n int, boot *peerProcess) *refNode {
	t.Helper()
	dir := t.TempDir()
	var lim syscall.Rlimit
	require.NoError(t, syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim))
	stakers := filepath.Join("..", "testdata", "local-stakers")
	args := []string{
		"--network-id=local",
		"--data-dir=" + dir,
		"--http-port=0", "--staking-port=0",
		"--http-host=127.0.0.1", "--staking-host=127.0.0.1", "--public-ip=127.0.0.1",
		fmt.Sprintf("--staking-tls-cert-file=%s/staker%d.crt", stakers, n),
		fmt.Sprintf("--staking-tls-key-file=%s/staker%d.key", stakers, n),
		fmt.Sprintf("--staking-signer-key-file=%s/signer%d.key", stakers, n),
		"--fd-limit=" + strconv.FormatUint(min(lim.Max, 32768), 10),
		"--network-ping-frequency=" + refPing.String(),
		"--log-display-level=warn",
	}
	if boot != nil {
		args = append(args, "--bootstrap-ips="+boot.staking, "--bootstrap-ids="+boot.id)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = 20 * time.Second
	out, err := os.Create(filepath.Join(dir, "stdout.log"))
	require.NoError(t, err)
	cmd.Stdout, cmd.Stderr = out, out
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		cancel()
		_ = cmd.Wait() // stopped by us; its exit code says nothing
		_ = out.Close()
		if t.Failed() {
			b, _ := os.ReadFile(out.Name())
			t.Logf("reference node %d output:\n%s", n, b)
		}
	})

	// The node writes its API URI and staking address to process.json once both listen.
	var pc struct {
		URI            string `json:"uri"`
		StakingAddress string `json:"stakingAddress"`
	}
	require.Eventually(t, func() bool {
		b, err := os.ReadFile(filepath.Join(dir, "process.json"))
		return err == nil && json.Unmarshal(b, &pc) == nil && pc.URI != ""
	}, processWait, 50*time.Millisecond, "the reference node did not start")
	addr, err := netip.ParseAddrPort(pc.StakingAddress)
	require.NoError(t, err)
	r := &refNode{url: pc.URI, staking: netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), addr.Port()).String()}
	_, body := post(t, r.url+"/ext/info", `{"jsonrpc":"2.0","id":1,"method":"info.getNodeID"}`)
	var id struct {
		Result struct {
			NodeID string `json:"nodeID"`
		} `json:"result"`
	}
	require.NoError(t, json.Unmarshal([]byte(body), &id), body)
	r.id = id.Result.NodeID
	return r
}

// infoPeer is the part of an info.peers entry the tests read.
type infoPeer struct {
	NodeID       string    `json:"nodeID"`
	Version      string    `json:"version"`
	PublicIP     string    `json:"publicIP"`
	LastReceived time.Time `json:"lastReceived"`
	LastSent     time.Time `json:"lastSent"`
	// ObservedUptime is what the peer's last Ping reported of this node.
	ObservedUptime string `json:"observedUptime"`
}

// infoPeers calls info.peers at url and returns the peers by NodeID.
func infoPeers(t *testing.T, url string) map[string]infoPeer {
	t.Helper()
	_, body := post(t, url+"/ext/info", `{"jsonrpc":"2.0","id":1,"method":"info.peers"}`)
	var resp struct {
		Result struct {
			Peers []infoPeer `json:"peers"`
		} `json:"result"`
	}
	require.NoError(t, json.Unmarshal([]byte(body), &resp), body)
	out := map[string]infoPeer{}
	for _, p := range resp.Result.Peers {
		out[p.NodeID] = p
	}
	return out
}

// A cornice node and reference nodes (avalanchego v1.14.2) on the local network, each a genesis
// staker, peer in both directions: cornice bootstrapping from a reference node, and a reference
// node bootstrapping from cornice, which learns of the first reference node through cornice's
// PeerList. Each lists the other in info.peers with the right fields, pings flow both ways for
// the soak without a drop, and cornice measures the reference nodes as Primary Network
// validators: the uptime its Pings carry shows as their observedUptime of it, whatever consensus
// and bootstrapping messages the reference sends cornice's chains.
func TestReferenceNodePeers(t *testing.T) {
	bin := os.Getenv(referenceNodeEnv)
	if bin == "" {
		t.Skipf("%s is not set: build the reference node with `go build -C e2e/refnode -o /tmp/avalanchego github.com/ava-labs/avalanchego/main` and set %s=/tmp/avalanchego", referenceNodeEnv, referenceNodeEnv)
	}
	soak := 15 * time.Second
	if s := os.Getenv(referenceSoakEnv); s != "" {
		d, err := time.ParseDuration(s)
		require.NoError(t, err)
		soak = d
	}
	t.Parallel()

	ref1 := startRefNode(t, bin, 1, nil)
	c := startPeerProcess(t, t.TempDir(), &peerProcess{staking: ref1.staking, id: ref1.id}, peerChildPing+"="+refPing.String(), peerChildStaker+"=3")
	ref2 := startRefNode(t, bin, 2, c)

	connected := func() bool {
		cp, r1, r2 := infoPeers(t, c.url), infoPeers(t, ref1.url), infoPeers(t, ref2.url)
		return cp[ref1.id].Version == "avalanchego/1.14.2" && cp[ref2.id].Version == "avalanchego/1.14.2" &&
			r1[c.id].Version == "cornice/1.14.2" && r2[c.id].Version == "cornice/1.14.2"
	}
	require.Eventually(t, connected, processWait, 100*time.Millisecond, "cornice and the reference nodes did not connect")
	// ref2 knew only cornice: it found ref1 in cornice's PeerList (signed IP claims it verified).
	require.Eventually(t, func() bool { _, ok := infoPeers(t, ref2.url)[ref1.id]; return ok }, processWait, 100*time.Millisecond,
		"the reference node did not learn of its peer from cornice's PeerList")

	cp := infoPeers(t, c.url)
	require.Equal(t, ref1.staking, cp[ref1.id].PublicIP, "the reference's signed IP claim")
	require.Equal(t, c.staking, infoPeers(t, ref1.url)[c.id].PublicIP, "cornice's signed IP claim, as the reference read it")

	// For the soak, every peer stays listed on both sides and both sides keep receiving.
	start := time.Now()
	first := map[string]time.Time{}
	for _, side := range []struct{ url, peer string }{{c.url, ref1.id}, {c.url, ref2.id}, {ref1.url, c.id}, {ref2.url, c.id}} {
		first[side.url+side.peer] = infoPeers(t, side.url)[side.peer].LastReceived
	}
	for time.Since(start) < soak {
		require.True(t, connected(), "a peer was dropped during the soak")
		time.Sleep(500 * time.Millisecond)
	}
	for _, side := range []struct{ url, peer string }{{c.url, ref1.id}, {c.url, ref2.id}, {ref1.url, c.id}, {ref2.url, c.id}} {
		p := infoPeers(t, side.url)[side.peer]
		require.True(t, p.LastReceived.After(first[side.url+side.peer]), "%s stopped receiving from %s", side.url, side.peer)
		require.False(t, p.LastSent.IsZero())
		// Cornice measures each reference node from the genesis stakers' start, connected since a
		// moment after tracking began, and pings 99 or 100 (a truncated percentage). A reference
		// node pings 0 until its P-Chain is bootstrapped (its uptime calculator answers only
		// then), which takes more of the stake connected than these three nodes hold.
		u, err := strconv.Atoi(p.ObservedUptime)
		require.NoError(t, err)
		if side.url == c.url {
			ref := map[string]string{ref1.id: ref1.url, ref2.id: ref2.url}[side.peer]
			_, boot := post(t, ref+"/ext/info", `{"jsonrpc":"2.0","id":1,"method":"info.isBootstrapped","params":{"chain":"P"}}`)
			if strings.Contains(boot, `"isBootstrapped":false`) {
				require.Zero(t, u, "a reference node still bootstrapping reports 0")
				continue
			}
		}
		require.GreaterOrEqual(t, u, 99, "%s's uptime as %s reports it", side.url, side.peer)
	}
	_, metrics := get(t, c.url+"/ext/metrics")
	require.Contains(t, metrics, "network_times_disconnected 0", "cornice dropped a reference peer")
	require.True(t, strings.Contains(metrics, "network_peers 2"), "cornice's peer gauge")
}
