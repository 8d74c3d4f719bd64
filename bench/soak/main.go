// Command soak runs one cornice node in-process under a mixed load for a bounded time and checks
// that nothing leaked, failed or went missing.
//
// It starts a node as `cornice run` does (network local, indexing on) on a fresh data directory
// with HTTP on 127.0.0.1 and an OS-chosen port, creates an L1 whose genesis turns on the tx
// allow list and the native minter with the local key as their admin (as `cornice l1 create`
// does, through the P-Chain), and then, until -duration has passed, runs at once and at modest
// rates: C-Chain transfers, L1 transfers and mintNativeCoin calls (each waited for with
// eth_sendRawTransactionSync), X-Chain and P-Chain BaseTx sends (the wallet package, each waited
// for), and readers (eth_getBlockByNumber, eth_call and eth_getLogs on both EVM chains,
// platform.getCurrentValidators, avm.getBalance and index.getLastAccepted on every chain).
// Every -sample it records heap in use, goroutines, open descriptors, the Pebble directory's
// size and every chain's height.
//
// When the load ends it checks: every tx a client saw accepted is still found (a successful
// receipt, Accepted on X, Committed on P); every chain's block index ends at its last accepted
// block; the EVM senders' nonces and balances, and their recipients' balances, moved by exactly
// what was sent (fees from the receipts); the minter logged one event per mint; the X and P
// recipients got exactly what was sent; no load operation failed; goroutines came back to
// within goroutineSlack of the level before the load; and the node logged nothing at ERROR
// level. It prints a summary and exits non-zero when an invariant is broken. Heap and
// descriptors are reported, not asserted: caches may keep what they grew.
//
// The P-Chain's dynamic fee caps a sustained BaseTx load at about 19/s; the default rates stay
// far below every chain's limits, so fees stay payable for any -duration.
//
//	go run ./bench/soak -duration 2m
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/cornice-node/cornice/clock"
)

// cliConfig holds the parsed flags.
type cliConfig struct {
	duration, sample time.Duration
	dataDir          string
	logLevel         slog.Level
	// Operations per second of each stream; 0 turns it off.
	cRate, l1Rate, mintRate, xRate, pRate, readRate float64
}

// parseFlags parses args into a config and reports every problem at once.
func parseFlags(args []string, stderr io.Writer) (cliConfig, error) {
	var cfg cliConfig
	fs := flag.NewFlagSet("soak", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.DurationVar(&cfg.duration, "duration", 60*time.Second, "how long the load runs")
	fs.DurationVar(&cfg.sample, "sample", 5*time.Second, "time between two samples of memory, goroutines, descriptors, disk and heights")
	fs.StringVar(&cfg.dataDir, "data-dir", "", "the node's data directory, which must be new or empty (default: a temporary one, removed afterwards)")
	fs.TextVar(&cfg.logLevel, "log-level", slog.LevelWarn, "the least level of the node's log lines shown on stderr (ERROR lines are always counted)")
	fs.Float64Var(&cfg.cRate, "c-rate", 10, "C-Chain transfers per second")
	fs.Float64Var(&cfg.l1Rate, "l1-rate", 5, "L1 transfers per second")
	fs.Float64Var(&cfg.mintRate, "mint-rate", 2, "L1 mintNativeCoin calls per second")
	fs.Float64Var(&cfg.xRate, "x-rate", 4, "X-Chain sends per second")
	fs.Float64Var(&cfg.pRate, "p-rate", 2, "P-Chain sends per second (the dynamic fee allows about 19 sustained)")
	fs.Float64Var(&cfg.readRate, "read-rate", 5, "rounds of reads per second (12 calls each)")
	if err := fs.Parse(args); err != nil {
		return cliConfig{}, err
	}
	if fs.NArg() != 0 {
		return cliConfig{}, fmt.Errorf("%w: unexpected arguments %q", errBadFlag, fs.Args())
	}
	if cfg.duration <= 0 || cfg.sample <= 0 || min(cfg.cRate, cfg.l1Rate, cfg.mintRate, cfg.xRate, cfg.pRate, cfg.readRate) < 0 {
		return cliConfig{}, errBadFlag
	}
	return cfg, nil
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, clock.Real{}, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "soak:", err)
		}
		os.Exit(1)
	}
}

// run is the whole command: the summary goes to stdout, progress and the node's log to stderr.
func run(ctx context.Context, clk clock.Clock, args []string, stdout, stderr io.Writer) error {
	cfg, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	dir := cfg.dataDir
	if dir == "" {
		if dir, err = os.MkdirTemp("", "cornice-soak-"); err != nil {
			return err
		}
		defer os.RemoveAll(dir)
	}
	res, err := soak(ctx, clk, cfg, dir, stderr)
	if res != nil {
		res.print(stdout)
	}
	if err != nil {
		return err
	}
	if len(res.checks.broken) > 0 {
		return fmt.Errorf("%w: %d of %d", errBroken, len(res.checks.broken), len(res.checks.broken)+len(res.checks.passed))
	}
	return nil
}
