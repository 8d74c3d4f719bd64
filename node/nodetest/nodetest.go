// Package nodetest runs a node in a child process, for crash tests that kill it with SIGKILL and
// restart it on the same data dir (DESIGN.md: a crash leaves the whole block or none of it), and
// in the test's own process (Run) for the tests that only talk to it.
//
// The child is the test binary itself, re-executed to run one test function: the parent calls
// Start with that function's name and a data dir; the function calls Dir (which skips it when it
// runs as an ordinary test), builds its node over that dir, and hands it to Serve, which prints
// the node's HTTP address on stdout and serves until the parent closes the child's stdin (Stop)
// or kills it (Kill). Stdin is the child's lifeline: if the parent dies, the pipe closes and the
// child stops too.
//
// A Child is used by the one test goroutine that started it; Kill and Stop reap the process, and
// Start registers a cleanup that kills it, so no child outlives its test.
package nodetest

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

const (
	// dirEnv hands the child its data dir; a test function run without it is not a child.
	dirEnv = "CORNICE_NODETEST_DIR"
	// addrLine starts the line on which the child prints its node's HTTP address.
	addrLine = "cornice-nodetest http "
	// defaultStartWait bounds the wait for a child to serve when Config.StartWait is zero.
	defaultStartWait = 60 * time.Second
)

// Config says which child to start.
type Config struct {
	// Test names the test function the child runs; it calls Dir and Serve.
	Test string
	// Dir is the node's data dir, handed to the child in its environment.
	Dir string
	// Env is added to the child's environment (KEY=value), for whatever else the child needs.
	Env []string
	// StartWait bounds the wait for the child to print its address; zero means 60 s.
	StartWait time.Duration
}

// Child is one node process.
type Child struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	url   string
	// extra holds the fields the child passed to Serve after its node.
	extra []string
	// stderr holds the child's log, for failure reports and RequireNoErrorLogs.
	stderr *Buffer
	// stdoutDone is closed once stdout is read to its end, which Wait must come after.
	stdoutDone chan struct{}
}

// Start re-executes the test binary to run cfg.Test over cfg.Dir and waits until the child's node
// serves. It fails t if the child exits first or does not serve within cfg.StartWait. The child's
// log is printed if t fails.
func Start(t *testing.T, cfg Config) *Child {
	t.Helper()
	if cfg.StartWait == 0 {
		cfg.StartWait = defaultStartWait
	}
	cmd := exec.Command(os.Args[0], "-test.run=^"+cfg.Test+"$", "-test.count=1", "-test.timeout=5m")
	cmd.Env = append(append(os.Environ(), dirEnv+"="+cfg.Dir), cfg.Env...)
	c := &Child{cmd: cmd, stderr: &Buffer{}, stdoutDone: make(chan struct{})}
	cmd.Stderr = c.stderr
	var err error
	c.stdin, err = cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	// Whatever happens to the test, the process does not outlive it.
	t.Cleanup(c.Kill)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("node process %d stderr:\n%s", cmd.Process.Pid, c.stderr)
		}
	})

	addr := make(chan string, 1)
	go func() {
		defer close(c.stdoutDone)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if a, ok := strings.CutPrefix(sc.Text(), addrLine); ok {
				addr <- a
				break
			}
		}
		close(addr)
		_, _ = io.Copy(io.Discard, stdout) // until the process exits
	}()
	timeout := time.NewTimer(cfg.StartWait)
	defer timeout.Stop()
	select {
	case a, ok := <-addr:
		require.True(t, ok, "the node process exited before serving:\n%s", c.stderr)
		fields := strings.Fields(a)
		c.url, c.extra = "http://"+fields[0], fields[1:]
	case <-timeout.C:
		require.FailNow(t, "the node process did not start", c.stderr.String())
	}
	return c
}

// URL is the child's node's HTTP base URL, e.g. http://127.0.0.1:41234.
func (c *Child) URL() string { return c.url }

// Extra returns the fields the child passed to Serve besides its node (its NodeID, a second
// address), in order.
func (c *Child) Extra() []string { return c.extra }

// Stderr returns what the child has logged so far.
func (c *Child) Stderr() string { return c.stderr.String() }

// Kill ends the process with SIGKILL and reaps it; it does nothing if the process has exited.
func (c *Child) Kill() {
	if c.cmd.ProcessState != nil {
		return
	}
	_ = c.cmd.Process.Kill() // SIGKILL: nothing of the node runs after it
	<-c.stdoutDone
	_ = c.cmd.Wait()
}

// Stop asks the process to stop gracefully and waits for it; the child's test must pass.
func (c *Child) Stop(t *testing.T) {
	t.Helper()
	require.NoError(t, c.stdin.Close())
	<-c.stdoutDone
	require.NoError(t, c.cmd.Wait(), c.stderr.String())
}

// RequireNoErrorLogs fails t if the child logged at Error: a chain that failed to start, a
// failed recovery.
func (c *Child) RequireNoErrorLogs(t *testing.T) {
	t.Helper()
	for line := range strings.SplitSeq(c.stderr.String(), "\n") {
		require.NotContains(t, line, "level=ERROR", "the node process logged an error")
	}
}

// Dir returns the data dir of the node a child test function runs, and skips t when the function
// runs as an ordinary test rather than as a child of Start.
func Dir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv(dirEnv)
	if dir == "" {
		t.Skip("the node process of a crash test; runs only when that test starts it")
	}
	return dir
}

// Logger is the child's logger: Warn and above, as text on stderr, where the parent reads it.
func Logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

// Node is what Serve runs: a node.Node, whose listener is bound by the time it is built.
type Node interface {
	Run(ctx context.Context) error
	HTTPAddr() net.Addr
}

// Run runs n in the background until the test ends, when it stops n and requires a clean stop.
// stop stops n earlier and returns what its Run returned; later calls return nil.
func Run(t testing.TB, n Node) (stop func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- n.Run(ctx) }()
	var stopped bool
	stop = func() error {
		if stopped {
			return nil
		}
		stopped = true
		cancel()
		return <-done
	}
	t.Cleanup(func() { require.NoError(t, stop()) })
	return stop
}

// Serve runs n in the child, prints its HTTP address for the parent (with extra, fields without
// spaces that the parent reads with Child.Extra), and serves until the parent closes the child's
// stdin; then it stops n and requires a clean stop.
func Serve(t *testing.T, n Node, extra ...string) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- n.Run(ctx) }()
	fmt.Println(strings.Join(append([]string{addrLine + n.HTTPAddr().String()}, extra...), " "))

	_, _ = io.Copy(io.Discard, os.Stdin)
	cancel()
	require.NoError(t, <-done)
}

// Buffer is a bytes.Buffer that a process (or a goroutine) writes to while the test reads it:
// a child's stderr, a command's output.
type Buffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// Write appends p.
func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String returns what was written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
