package e2e_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

// exampleGenesis is the example L1 genesis of examples/README.md.
const exampleGenesis = "../examples/l1-genesis.json"

// binDir holds the binary the tests build, once one is; TestMain removes it.
var binDir string

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		_ = os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// binary builds cmd/cornice once per test process, the first time a test asks for it, into a
// temporary directory made then, and returns its path. The node processes of the crash tests,
// which re-execute the test binary and are killed with SIGKILL, never ask: they leave no
// directory behind. `go test` puts its own go command first on the PATH.
var binary = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "cornice-e2e-")
	if err != nil {
		return "", err
	}
	binDir = dir
	path := filepath.Join(dir, "cornice")
	var out bytes.Buffer
	cmd := exec.Command("go", "build", "-o", path, "github.com/cornice-node/cornice/cmd/cornice")
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("build cornice: %w\n%s", err, out.Bytes())
	}
	return path, nil
})

// startCLI starts the cornice binary with args, its output going to stdout and stderr, and
// returns a channel that receives its exit code once it has exited and its output is written.
// Cancelling ctx sends it SIGTERM, as an operator's Ctrl-C would.
func startCLI(t testing.TB, ctx context.Context, stdout, stderr io.Writer, args ...string) <-chan int {
	t.Helper()
	path, err := binary()
	require.NoError(t, err)
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.Stdout, cmd.Stderr = stdout, stderr
	require.NoError(t, cmd.Start())
	code := make(chan int, 1)
	go func() {
		_ = cmd.Wait() // the exit code says it all
		code <- cmd.ProcessState.ExitCode()
	}()
	return code
}

// runCLI runs the cornice binary with args until it exits.
func runCLI(t testing.TB, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = <-startCLI(t, t.Context(), &out, &errOut, args...)
	return code, out.String(), errOut.String()
}
