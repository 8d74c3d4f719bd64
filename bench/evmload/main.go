// Command evmload is cornice's EVM load tool: it sends pre-signed transfers with
// eth_sendRawTransaction and times them until they are accepted, measures eth_call calls/s, and
// can run the node it loads. It loads the C-Chain, or an L1 EVM chain by its RPC URL.
//
// Modes:
//
//	evmload [flags] transfers   fund -senders accounts from the local key, pre-sign -n transfers
//	                            (sender i%senders, in nonce order), send them over -c connections,
//	                            -batch calls per JSON-RPC request (1: not batched), in waves of
//	                            -wave, and time each wave from its first call until the chain has
//	                            accepted as many transactions; prints transfers/s. With
//	                            -allow-senders the local key first enables the senders in the
//	                            chain's tx allow list (an L1 whose genesis makes it the admin)
//	evmload [flags] call        deploy a storage contract and call its get() with eth_call on -c
//	                            connections until -n calls or -duration; prints calls/s and latency
//	evmload [flags] mine        call evm_mine -n times in a row on one connection; prints
//	                            mines/s and the round trip's latency
//	evmload [flags] snapshot    mine -blocks empty blocks with one anvil_mine, then -rounds times
//	                            evm_snapshot, evm_mine and evm_revert on that long chain, then
//	                            evm_revert of all -blocks; prints the time of each step
//	evmload [flags] node        run a node as `cornice run` does (network local, the X-, P- and
//	                            C-Chains, HTTP on 127.0.0.1:-http-port, data in -data-dir), but
//	                            with a C-Chain fee config whose gas target no load reaches
//	                            (benchFees), until SIGTERM or -timeout. With -l1 it also creates an
//	                            L1 on itself once it serves, and prints the L1's RPC URL. With
//	                            -cpuprofile, it writes its CPU profile (go tool pprof) on exit.
//
// The mine and snapshot modes need the developer methods of issue #16 §1 (cornice's local
// network alone, or anvil): they load anvil as they load cornice, for bench/anvil.sh.
//
// -url is a node's HTTP base, whose C-Chain is loaded (/ext/bc/C/rpc), or any chain's RPC URL
// (a URL with a path is used as it is, and so is any with -as-is), such as the one
// `evmload -l1 node` prints.
//
// Why a node mode: with the C-Chain's fee config, a sustained load of thousands of transfers a
// second fills the 10-second gas window many times over and the base fee climbs by a sixth or
// more with every block, so pre-signed transfers soon fall below it and wait; what is then
// measured is the fee market, not the node. The node mode changes only the gas target.
//
// The L1 of -l1 (issue #6 §7) is the C-Chain of the node mode as an L1 with the transaction
// allow list on: a Subnet-EVM genesis with benchFees, the allow list active from genesis with
// the local key as admin and the first -senders senders Enabled, and the local key and those
// senders funded. It is created through the node's P-Chain with the local key's wallet
// (CreateSubnetTx, CreateChainTx of the Subnet-EVM VM, ConvertSubnetToL1Tx with the node as the
// only validator), as `cornice l1 create` does. Loading it with more senders than it enables
// fails: the allow list refuses the others.
//
// Acceptance is watched by polling eth_blockNumber every 2 ms and adding up
// eth_getBlockTransactionCountByNumber of the new blocks, so the chain must carry no other
// traffic during a run. After the last wave every sender's nonce is checked. With -pid, the
// VmRSS and VmHWM of that process (the node) are printed after the run.
//
// It only talks to this machine: a URL whose host is not loopback is refused, and the dialer
// checks every resolved address again. Every wave, and every call of the snapshot mode, is
// bounded by -timeout, the call mode by -duration; SIGINT and SIGTERM stop it early.
//
//	go run ./bench/evmload -url http://127.0.0.1:9650 -n 10000 -batch 100 -c 2 transfers
//	go run ./bench/evmload -l1 -data-dir /tmp/l1bench node   # prints "evmload: L1 serves <url>"
//	go run ./bench/evmload -url <that url> -n 10000 -batch 100 -c 2 transfers
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/cornice-node/cornice/bench/internal/loopback"
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
	l1         bool
	// allowSenders enables the senders in the chain's tx allow list before the transfers.
	allowSenders bool
	cpuProfile   string
	blocks       int
	rounds       int
	// asIs takes -url as the chain's RPC URL even without a path (anvil serves at /).
	asIs bool
	// rpcURL is the loaded chain's eth_* endpoint, from url.
	rpcURL string
}

// parseFlags parses args into a config and reports every problem at once.
func parseFlags(args []string, stderr io.Writer) (cliConfig, error) {
	var cfg cliConfig
	fs := flag.NewFlagSet("evmload", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&cfg.url, "url", "http://127.0.0.1:9650", "node's HTTP base, whose C-Chain is loaded, or a chain's RPC URL (loopback only)")
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
	fs.DurationVar(&cfg.blockTime, "block-time", 0, "node mode: --evm-block-time, the least time between two blocks of each EVM chain")
	fs.BoolVar(&cfg.header, "header", true, "print the markdown table header")
	fs.StringVar(&cfg.cpuProfile, "cpuprofile", "", "node mode: write the node's CPU profile to this file")
	fs.IntVar(&cfg.blocks, "blocks", 10000, "snapshot mode: length of the chain to snapshot and revert")
	fs.IntVar(&cfg.rounds, "rounds", 20, "snapshot mode: snapshot-and-revert rounds on the long chain")
	fs.BoolVar(&cfg.asIs, "as-is", false, "use -url as the chain's RPC URL even without a path (anvil, which serves at /)")
	fs.BoolVar(&cfg.allowSenders, "allow-senders", false, "transfers mode: enable the senders in the chain's tx allow list first, from the local key (its admin)")
	fs.BoolVar(&cfg.l1, "l1", false, "node mode: create an L1 with the tx allow list on the node and print its RPC URL")
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
	case "transfers", "call", "mine", "snapshot":
		u, err := loopback.CheckURL(cfg.url)
		if err != nil {
			errs = append(errs, err)
			break
		}
		cfg.rpcURL = rpcURL(u)
		if cfg.asIs {
			cfg.rpcURL = u.String()
		}
		if cfg.l1 {
			errs = append(errs, errL1Mode)
		}
	default:
		errs = append(errs, fmt.Errorf("%w: unknown mode %q", errUsage, cfg.mode))
	}
	if cfg.n <= 0 || cfg.senders <= 0 || cfg.batch <= 0 || cfg.wave <= 0 || cfg.conns <= 0 ||
		cfg.timeout <= 0 || cfg.duration <= 0 || cfg.blocks <= 0 || cfg.rounds <= 0 {
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
		return runNode(ctx, clk, cfg, stdout, stderr)
	}
	logf := func(format string, args ...any) { fmt.Fprintf(stderr, "evmload: "+format+"\n", args...) }
	// A request gets a minute, but the snapshot mode's anvil_mine of many blocks and its revert
	// of them all get -timeout: anvil takes minutes to mine 10,000 blocks on a loaded machine;
	// and so does a transfers batch, which anvil mines one block per call.
	reqTimeout := time.Minute
	if cfg.mode == "snapshot" || cfg.mode == "transfers" {
		reqTimeout = cfg.timeout
	}
	c := newRPCClient(cfg.rpcURL, cfg.conns+1, reqTimeout)
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
	case "mine":
		res, err := runMine(ctx, clk, c, cfg)
		if err != nil {
			return err
		}
		if cfg.header {
			fmt.Fprintln(stdout, callHeader())
		}
		fmt.Fprintln(stdout, res.row(cfg.label, methodMine))
	case "snapshot":
		res, err := runSnapshot(ctx, clk, c, cfg)
		if err != nil {
			return err
		}
		if cfg.header {
			fmt.Fprintln(stdout, snapshotHeader())
		}
		fmt.Fprintln(stdout, res.rows(cfg.label))
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

// rpcURL is the eth_* endpoint of a -url: the URL itself when it has a path, else the C-Chain's.
func rpcURL(u *url.URL) string {
	if strings.Trim(u.Path, "/") == "" {
		u = u.JoinPath("/ext/bc/C/rpc")
	}
	return strings.TrimRight(u.String(), "/")
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
