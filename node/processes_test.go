package node_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/config"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/node"
)

// Environment of a node child process (TestPeerProcessChild).
const (
	peerChildDir  = "CORNICE_PEER_CHILD_DIR"
	peerChildBoot = "CORNICE_PEER_CHILD_BOOT" // "<ip:port> <NodeID>" or empty
	peerReadyLine = "peer-child-ready "
	// processWait bounds every wait of the multi-process test.
	processWait = 30 * time.Second
)

// TestPeerProcessChild is a node process of TestPeerProcesses: it runs a node on free ports in
// the directory it is given, with the bootstrapper it is given, prints its addresses and ID, and
// runs until it is killed.
func TestPeerProcessChild(t *testing.T) {
	dir := os.Getenv(peerChildDir)
	if dir == "" {
		t.Skip("a child process of TestPeerProcesses")
	}
	cfg := config.Default()
	cfg.DataDir = dir
	cfg.HTTPPort, cfg.StakingPort = 0, 0
	if boot := os.Getenv(peerChildBoot); boot != "" {
		ip, id, _ := strings.Cut(boot, " ")
		nodeID, err := ids.NodeIDFromString(id)
		require.NoError(t, err)
		cfg.P2P.BootstrapIPs, cfg.P2P.BootstrapIDs = []string{ip}, []ids.NodeID{nodeID}
	}
	n, err := node.New(cfg, slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})), nil)
	require.NoError(t, err)
	fmt.Printf("%s%s %s %s\n", peerReadyLine, n.HTTPAddr(), n.StakingAddr(), n.NodeID())
	require.NoError(t, n.Run(context.Background()))
}

// peerProcess is a node child process.
type peerProcess struct {
	cmd              *exec.Cmd
	url, staking, id string
	done             chan struct{}
}

// startPeerProcess starts a node process in dir, bootstrapping from boot when it is not nil.
func startPeerProcess(t *testing.T, dir string, boot *peerProcess) *peerProcess {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestPeerProcessChild$", "-test.count=1", "-test.timeout=5m")
	cmd.Env = append(os.Environ(), peerChildDir+"="+dir)
	if boot != nil {
		cmd.Env = append(cmd.Env, peerChildBoot+"="+boot.staking+" "+boot.id)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	p := &peerProcess{cmd: cmd, done: make(chan struct{})}
	t.Cleanup(p.kill)
	ready := make(chan string, 1)
	go func() {
		defer close(p.done)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if line, ok := strings.CutPrefix(sc.Text(), peerReadyLine); ok {
				ready <- line
			}
		}
		close(ready)
		_, _ = io.Copy(io.Discard, stdout)
	}()
	select {
	case line, ok := <-ready:
		require.True(t, ok, "the node process exited: %s", &stderr)
		f := strings.Fields(line)
		p.url, p.staking, p.id = "http://"+f[0], f[1], f[2]
	case <-time.After(processWait):
		require.FailNow(t, "the node process did not start")
	}
	return p
}

// kill ends the process with SIGKILL and reaps it; it does nothing the second time.
func (p *peerProcess) kill() {
	if p.cmd.ProcessState != nil {
		return
	}
	_ = p.cmd.Process.Kill()
	<-p.done
	_ = p.cmd.Wait()
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

	n3.kill()
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
