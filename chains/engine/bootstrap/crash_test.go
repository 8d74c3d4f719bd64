package bootstrap_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/chains/chainstest"
	"github.com/cornice-node/cornice/chains/engine/bootstrap"
	"github.com/cornice-node/cornice/chains/engine/enginetest"
	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
)

// The crash helper's settings: the directory holding the source chain and the node, and how
// many blocks the node executes before it kills itself.
const (
	crashDirEnv   = "CORNICE_BOOTSTRAP_CRASH_DIR"
	crashAfterEnv = "CORNICE_BOOTSTRAP_CRASH_AFTER"
)

// A node killed (SIGKILL) while it bootstraps, its executed blocks not yet synced, restarts with
// a prefix of the beacons' chain, each kept block whole, and bootstraps the rest again: it ends
// with the beacons' chain, the blocks it lost indexed once, in order, like the others.
func TestKilledWhileBootstrapping(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts and kills a helper process")
	}
	const n, killAfter = 400, 250
	dir := t.TempDir()
	require.NoError(t, os.CopyFS(filepath.Join(dir, "source"), os.DirFS(buildChain(t, n, 8))))

	cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestBootstrapCrashHelper$", "-test.v=false")
	// The helper's own temporary directories (its beacons' copies) go under dir: killed, it
	// never removes them, and each run left one in the system's.
	tmp := filepath.Join(dir, "tmp")
	require.NoError(t, os.Mkdir(tmp, 0o700))
	cmd.Env = append(os.Environ(), crashDirEnv+"="+dir, crashAfterEnv+"="+strconv.Itoa(killAfter), "TMPDIR="+tmp)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	exit, ok := errors.AsType[*exec.ExitError](err)
	require.True(t, ok, "helper ended with %v: %s", err, out.String())
	require.Equal(t, syscall.SIGKILL, exit.Sys().(syscall.WaitStatus).Signal(), out.String())

	tn := crashNet(t, dir)
	source := tn.beacons[0].accepted(t)
	kept := tn.node.accepted(t)
	t.Logf("kept %d of the %d blocks executed before the kill", len(kept)-1, killAfter)
	require.LessOrEqual(t, len(kept)-1, killAfter, "no block beyond the kill")
	require.Equal(t, source[:len(kept)], kept, "the kept blocks are the beacons' chain")

	tn.start()
	require.True(t, tn.net.Run(t.Context(), 1_000_000))
	require.True(t, tn.b.Done())
	require.Equal(t, source, tn.node.accepted(t))
	require.Equal(t, source[len(kept):], tn.node.indexed.Get(), "the rest executed and indexed once, in order")
}

// crashNet is the test network of the crash test over dir: two beacons with copies of the
// source chain, and the node whose database is dir/node (created on first use), bootstrapping
// from them.
func crashNet(t testing.TB, dir string) *testNet {
	tn := &testNet{t: t, net: enginetest.New(t, 5)}
	weights := map[ids.NodeID]uint64{}
	for i := range 2 {
		b := openNode(t, ids.NodeID{byte(i + 1)}, filepath.Join(dir, "source"), nil)
		tn.beacons = append(tn.beacons, b)
		tn.net.Set(b.id, b.getter(tn.net))
		weights[b.id] = 1
	}
	tn.node = &node{id: ids.NodeID{0xee}, engines: &chainstest.Idle{}, indexed: &chainstest.Recorder[ids.ID]{}}
	tn.node.env = chainstest.NewEnv(t, filepath.Join(dir, "node"), recordingIndexer{tn.node.indexed}, tn.node.engines)
	tn.node.env.Create(chainID, nil)
	t.Cleanup(tn.node.env.Close)
	tn.b = bootstrap.New(bootstrap.Config{Self: tn.node.id, Beacons: weights}, bootstrap.Deps{
		VM: tn.node.ctx().VM, Acceptor: tn.node.ctx().Acceptor, Sender: tn.net.Sender(tn.node.id),
		Clock: clock.Real{}, Log: slog.New(slog.DiscardHandler),
	})
	tn.net.Set(tn.node.id, tn.b)
	return tn
}

// killingAcceptor is the node's accept path, killing the process once it has accepted after
// blocks (unsynced, as the bootstrapper accepts them).
type killingAcceptor struct {
	*chains.Acceptor
	after int
}

func (k *killingAcceptor) AcceptUnsynced(ctx context.Context, blk chains.Block) error {
	if err := k.Acceptor.AcceptUnsynced(ctx, blk); err != nil {
		return err
	}
	if k.after--; k.after == 0 {
		_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {} // the signal is on its way
	}
	return nil
}

// TestBootstrapCrashHelper is not a test: it is the helper process of
// TestKilledWhileBootstrapping, and does nothing unless run as one.
func TestBootstrapCrashHelper(t *testing.T) {
	dir := os.Getenv(crashDirEnv)
	if dir == "" {
		t.Skip("helper process only")
	}
	after, err := strconv.Atoi(os.Getenv(crashAfterEnv))
	require.NoError(t, err)
	tn := crashNet(t, dir)
	acc := &killingAcceptor{Acceptor: tn.node.ctx().Acceptor, after: after}
	tn.b = bootstrap.New(bootstrap.Config{Self: tn.node.id, Beacons: map[ids.NodeID]uint64{tn.beacons[0].id: 1, tn.beacons[1].id: 1}},
		bootstrap.Deps{VM: tn.node.ctx().VM, Acceptor: acc, Sender: tn.net.Sender(tn.node.id),
			Clock: clock.Real{}, Log: slog.New(slog.DiscardHandler)})
	tn.net.Set(tn.node.id, tn.b)
	tn.start()
	tn.net.Run(t.Context(), 1_000_000)
	fmt.Fprintln(os.Stderr, "helper: bootstrapping ended without the kill")
	os.Exit(1)
}
