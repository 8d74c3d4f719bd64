// Command cornice is the cornice node's command line: `cornice run` starts a node (and with --l1
// creates L1s on it), `cornice x` sends and creates assets on a node's X-Chain, `cornice p` does
// the same for the P-Chain's subnets, chains and L1s, `cornice l1 create` makes an EVM L1 in one
// step, `cornice keys` prints a key's addresses, `cornice network` runs a local network of node
// processes and `cornice version` prints the version.
//
// The CLI is thin: it parses flags and an optional config file into a config.Config, then hands
// it to package node; the wallet commands hand their flags to package wallet. It is the only code
// in cornice that reads os.Args, installs signal handlers or calls os.Exit. Errors are printed on
// stderr as `cornice: <message>`, one line per problem, with exit code 1; a node stopped by
// SIGINT or SIGTERM exits 0. Flags are documented in docs/configuration.md, the wallet commands
// in docs/cli.md.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/config"
	"github.com/cornice-node/cornice/internal/gcfloor"
	"github.com/cornice-node/cornice/node"
	"github.com/cornice-node/cornice/node/vmset"
	"github.com/cornice-node/cornice/wallet"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	// After the first signal, restore the default handling so a second one kills a stuck
	// shutdown.
	context.AfterFunc(ctx, stop)
	code := execute(ctx, os.Args[1:], os.Stdout, os.Stderr, startNode)
	stop()
	os.Exit(code)
}

// startFunc runs a node with a validated config until ctx is done. Tests replace startNode with
// a function that records the config.
type startFunc func(ctx context.Context, cfg config.Config, log *slog.Logger, opts runOptions) error

// runOptions are what `cornice run` asks of the node beyond its config.
type runOptions struct {
	// L1s are the L1s of --l1, in order, created (or found) once the node serves.
	L1s []wallet.L1Request
	// Stdout receives the banner; Stderr the warning of an L1 that --force let share a chain ID.
	Stdout, Stderr io.Writer
}

// startNode builds the node and runs it until ctx is done. Once the node serves, it creates each
// L1 of --l1 (or finds the one a previous run created) with the well-known local key, then
// prints the banner; a failure to create an L1 stops the node and is returned.
func startNode(ctx context.Context, cfg config.Config, log *slog.Logger, opts runOptions) error {
	// The process is the node's: its garbage collector waits for a heap of a node's size
	// (gcfloor), unless GOGC is set.
	defer gcfloor.Start(gcfloor.DefaultFloor).Stop()
	n, err := node.New(cfg, log, vmset.For(cfg))
	if err != nil {
		return err
	}
	if err := n.AttachRelay(vmset.Relay); err != nil {
		// Run with a done context only shuts the node down.
		stopped, stop := context.WithCancel(ctx)
		stop()
		return errors.Join(err, n.Run(stopped))
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan error, 1)
	// The listener is bound: requests wait in its backlog until Run serves them.
	go func() { done <- n.Run(ctx) }()
	uri := "http://" + n.HTTPAddr().String()
	l1s, err := createL1s(ctx, uri, opts)
	if err != nil {
		cancel()
		return errors.Join(err, <-done)
	}
	if ctx.Err() == nil {
		if err := newBanner(ctx, n, cfg, l1s).write(opts.Stdout); err != nil {
			log.Warn("could not print the banner", "err", err)
		}
	}
	return <-done
}

// createL1s creates the L1s of opts on the node at uri, one after the other, with the well-known
// local key.
func createL1s(ctx context.Context, uri string, opts runOptions) ([]wallet.L1Result, error) {
	if len(opts.L1s) == 0 {
		return nil, nil
	}
	client, err := wallet.NewClient(uri, nil)
	if err != nil {
		return nil, err
	}
	key, err := wallet.ParseKey(wallet.LocalKey)
	if err != nil {
		return nil, err
	}
	var made []wallet.L1Result
	for _, req := range opts.L1s {
		res, err := wallet.CreateL1(ctx, client, key, req, defaultWait, clock.Real{})
		if errors.Is(err, wallet.ErrChainIDInUse) {
			return nil, fmt.Errorf("--l1 %s: %w; give the genesis another chainId, or pass --force", req.Name, err)
		}
		if err != nil {
			return nil, fmt.Errorf("--l1 %s: %w", req.Name, err)
		}
		if res.SharedWith != "" {
			warnSharedChainID(opts.Stderr, res)
		}
		made = append(made, res)
	}
	return made, nil
}

// execute runs the command line args and returns the process exit code: 0 on success, 1 after
// printing the error on stderr.
func execute(ctx context.Context, args []string, stdout, stderr io.Writer, start startFunc) int {
	root := newRootCmd(stdout, stderr, start)
	root.SetArgs(args)
	if err := root.ExecuteContext(ctx); err != nil {
		printError(stderr, err)
		return 1
	}
	return 0
}

// printError writes err as `cornice: <line>` for each line of its message: errors joined with
// errors.Join (Config.Validate reports every problem at once) come out one per line.
func printError(w io.Writer, err error) {
	for line := range strings.SplitSeq(err.Error(), "\n") {
		fmt.Fprintf(w, "cornice: %s\n", line)
	}
}

// newRootCmd builds the `cornice` command and its subcommands.
func newRootCmd(stdout, stderr io.Writer, start startFunc) *cobra.Command {
	root := groupCmd(&cobra.Command{
		Use:   "cornice",
		Short: "cornice is a single-binary blockchain node",
		// Errors are printed once, by execute, and usage only on request.
		SilenceErrors:     true,
		SilenceUsage:      true,
		CompletionOptions: cobra.CompletionOptions{DisableDefaultCmd: true},
	})
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(flagError)
	root.AddCommand(newRunCmd(stdout, stderr, start), newXCmd(stdout), newPCmd(stdout, stderr), newCCmd(stdout), newL1Cmd(stdout), newICMCmd(stdout), newKeysCmd(stdout), newVersionCmd(stdout), newNetworkCmd(stdout),
		newTransferCmd(stdout))
	return root
}
