// Command evmload is cornice's C-Chain load tool: it sends pre-signed transfers with
// eth_sendRawTransaction and times them until they are accepted, measures eth_call calls/s, and
// can run the node it loads.
//
// Modes:
//
//	evmload [flags] transfers   fund -senders accounts from the local key, pre-sign -n transfers
//	                            (sender i%senders, in nonce order), send them over -c connections,
//	                            -batch calls per JSON-RPC request (1: not batched), in waves of
//	                            -wave, and time each wave from its first call until the chain has
//	                            accepted as many transactions; prints transfers/s
//	evmload [flags] call        deploy a storage contract and call its get() with eth_call on -c
//	                            connections until -n calls or -duration; prints calls/s and latency
//	evmload [flags] node        run a node as `cornice run` does (network local, the C-Chain, HTTP
//	                            on 127.0.0.1:-http-port, data in -data-dir), but with a C-Chain fee
//	                            config whose gas target no load reaches (benchFees), until SIGTERM
//	                            or -timeout
//
// Why a node mode: with the C-Chain's fee config, a sustained load of thousands of transfers a
// second fills the 10-second gas window many times over and the base fee climbs by a sixth or
// more with every block, so pre-signed transfers soon fall below it and wait; what is then
// measured is the fee market, not the node. The node mode changes only the gas target.
//
// Acceptance is watched by polling eth_blockNumber every 2 ms and adding up
// eth_getBlockTransactionCountByNumber of the new blocks, so the node must carry no other
// traffic during a run. After the last wave every sender's nonce is checked. With -pid, the
// VmRSS and VmHWM of that process (the node) are printed after the run.
//
// It only talks to this machine: a URL whose host is not loopback is refused, and the dialer
// checks every resolved address again. Every wave is bounded by -timeout, the call mode by
// -duration; SIGINT and SIGTERM stop it early.
//
//	go run ./bench/evmload -url http://127.0.0.1:9650 -n 10000 -batch 100 -c 2 transfers
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/cornice-node/cornice/clock"
)

// cliConfig holds the parsed flags.
type cliConfig struct {
	mode       string
	url        string
	n          int
	senders    int
	batch      int
	conns      int
	wave       int
	feeCapGwei uint64
	timeout    time.Duration
	duration   time.Duration
	pid        int
	label      string
	dataDir    string
	httpPort   uint
	blockTime  time.Duration
	header     bool
}

// parseFlags parses args into a config and reports every problem at once.
func parseFlags(args []string, stderr io.Writer) (cliConfig, error) {
	var cfg cliConfig
	fs := flag.NewFlagSet("evmload", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&cfg.url, "url", "http://127.0.0.1:9650", "node's HTTP base (loopback only); the C-Chain is at /ext/bc/C/rpc")
	fs.IntVar(&cfg.n, "n", 10000, "transfers to send, or eth_calls to make")
	fs.IntVar(&cfg.senders, "senders", 100, "accounts the transfers come from")
	fs.IntVar(&cfg.batch, "batch", 1, "calls per JSON-RPC request; 1 sends each call alone")
	fs.IntVar(&cfg.conns, "c", 4, "connections sending at once")
	fs.IntVar(&cfg.wave, "wave", 0, "transfers per wave, each waited for before the next (default -n)")
	fs.Uint64Var(&cfg.feeCapGwei, "fee-cap-gwei", 1000, "max fee per gas of every transaction, in gwei")
	fs.DurationVar(&cfg.timeout, "timeout", 5*time.Minute, "bound on each wave, and on the node mode's run")
	fs.DurationVar(&cfg.duration, "duration", 10*time.Second, "bound on the call mode")
	fs.IntVar(&cfg.pid, "pid", 0, "process whose resident memory to print after the run")
	fs.StringVar(&cfg.label, "label", "cornice", "target column of the table")
	fs.StringVar(&cfg.dataDir, "data-dir", "", "node mode: data directory (required)")
	fs.UintVar(&cfg.httpPort, "http-port", 0, "node mode: HTTP port on 127.0.0.1; 0 lets the OS choose")
	fs.DurationVar(&cfg.blockTime, "block-time", 0, "node mode: the C-Chain's --evm-block-time")
	fs.BoolVar(&cfg.header, "header", true, "print the markdown table header")
	if err := fs.Parse(args); err != nil {
		return cliConfig{}, err
	}
	if fs.NArg() != 1 {
		return cliConfig{}, errUsage
	}
	cfg.mode = fs.Arg(0)
	if cfg.wave == 0 {
		cfg.wave = cfg.n
	}

	var errs []error
	switch cfg.mode {
	case "node":
		if cfg.dataDir == "" {
			errs = append(errs, errors.New("node mode needs -data-dir"))
		}
		if cfg.httpPort > 65535 {
			errs = append(errs, fmt.Errorf("-http-port %d is not a port", cfg.httpPort))
		}
	case "transfers", "call":
		if _, err := checkLoopback(cfg.url); err != nil {
			errs = append(errs, err)
		}
	default:
		errs = append(errs, fmt.Errorf("%w: unknown mode %q", errUsage, cfg.mode))
	}
	if cfg.n <= 0 || cfg.senders <= 0 || cfg.batch <= 0 || cfg.wave <= 0 || cfg.conns <= 0 ||
		cfg.timeout <= 0 || cfg.duration <= 0 {
		errs = append(errs, errBadBound)
	}
	return cfg, errors.Join(errs...)
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, clock.Real{}, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "evmload:", err)
		}
		os.Exit(1)
	}
}

// run is the whole command: table rows go to stdout, progress to stderr.
func run(ctx context.Context, clk clock.Clock, args []string, stdout, stderr io.Writer) error {
	cfg, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	if cfg.mode == "node" {
		return runNode(ctx, cfg, stdout, stderr)
	}
	logf := func(format string, args ...any) { fmt.Fprintf(stderr, "evmload: "+format+"\n", args...) }
	c := newRPCClient(strings.TrimRight(cfg.url, "/")+"/ext/bc/C/rpc", cfg.conns+1, time.Minute)
	defer c.http.CloseIdleConnections()

	switch cfg.mode {
	case "transfers":
		res, err := runTransfers(ctx, clk, c, cfg, logf)
		if err != nil {
			return err
		}
		if cfg.header {
			fmt.Fprintln(stdout, transferHeader())
		}
		fmt.Fprintln(stdout, res.row(cfg.label))
	case "call":
		res, err := runCalls(ctx, clk, c, cfg)
		if err != nil {
			return err
		}
		if cfg.header {
			fmt.Fprintln(stdout, callHeader())
		}
		fmt.Fprintln(stdout, res.row(cfg.label, "eth_call"))
	}
	if cfg.pid > 0 {
		rss, hwm, err := residentMemory(cfg.pid)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "\nnode resident memory after the run: VmRSS %.1f MiB, VmHWM (peak) %.1f MiB\n",
			float64(rss)/1024, float64(hwm)/1024)
	}
	return nil
}

// residentMemory reads VmRSS and VmHWM, in KiB, of process pid.
func residentMemory(pid int) (rss, hwm int, err error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0, fmt.Errorf("read memory of process %d: %w", pid, err)
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		var v int
		if _, err := fmt.Sscanf(line, "VmRSS: %d kB", &v); err == nil {
			rss = v
		}
		if _, err := fmt.Sscanf(line, "VmHWM: %d kB", &v); err == nil {
			hwm = v
		}
	}
	return rss, hwm, nil
}
