// Command loadgen is cornice's JSON-RPC load generator: it POSTs one fixed request to a node's HTTP
// API at several concurrency levels and prints, per level, requests/s, exact p50/p99/max latency and
// errors as markdown table rows ready for docs/benchmarks.md.
//
// It only ever talks to this machine: a target whose host is not 127.0.0.0/8, ::1 or localhost is
// refused, and the dialer checks every resolved address again. Each level is bounded by both a
// request count (-n) and a duration (-duration, warm-up included), so a run always stops by itself;
// SIGINT and SIGTERM stop it early.
//
//	go run ./bench/loadgen -url http://127.0.0.1:9650/ext/info -method info.getNodeVersion -c 1,16,64
//
// With -bare, loadgen first starts an in-process net/http server on 127.0.0.1:0 that answers every
// request with fixed bytes and headers (copied once from -url when -url is given, else a sample
// info.getNodeVersion reply) and loads that instead: the ceiling of this machine for a reply of that
// size. Client and server then share the same cores, as they do when loading a node on the same
// machine. With -serve ADDR it only serves that fixed reply on ADDR until interrupted (10 minutes at
// most), so the ceiling can also be measured across processes, like a node. With -node-settings
// the bare server has the node's connection timeouts and cleartext HTTP/2, which tells their cost
// from that of the node's handlers.
//
// An error is a transport failure, a non-200 status, or a reply that is not a JSON-RPC success.
// Latency is measured from sending the request to reading the last byte of the reply; requests that
// failed in transport have no latency sample. Percentiles are exact (nearest rank over all samples).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/cornice-node/cornice/bench/internal/loopback"
	"github.com/cornice-node/cornice/clock"
)

// maxServe bounds -serve mode, so a forgotten server stops by itself.
const maxServe = 10 * time.Minute

// config holds the parsed flags.
type config struct {
	url      string
	urlSet   bool // -url was given explicitly: in -bare mode, copy the reply from it
	method   string
	params   string
	levels   []int
	n        int
	duration time.Duration
	warmup   int
	bare     bool
	serve    string
	// nodeSettings gives the bare server the node's connection settings (-node-settings).
	nodeSettings bool
	label        string
	header       bool
}

// parseFlags parses args into a config and reports every problem at once.
func parseFlags(args []string, stderr io.Writer) (config, error) {
	var (
		cfg    config
		levels string
		fs     = flag.NewFlagSet("loadgen", flag.ContinueOnError)
	)
	fs.SetOutput(stderr)
	fs.StringVar(&cfg.url, "url", "http://127.0.0.1:9650/ext/info", "JSON-RPC endpoint (loopback only)")
	fs.StringVar(&cfg.method, "method", "info.getNodeVersion", "JSON-RPC method")
	fs.StringVar(&cfg.params, "params", "", "raw JSON params (default: no params key)")
	fs.StringVar(&levels, "c", "1,16,64", "concurrency levels, comma-separated")
	fs.IntVar(&cfg.n, "n", 20000, "measured requests per concurrency level")
	fs.DurationVar(&cfg.duration, "duration", 10*time.Second, "time limit per level, warm-up included")
	fs.IntVar(&cfg.warmup, "warmup", 500, "unmeasured requests before each level, at that level's concurrency")
	fs.BoolVar(&cfg.bare, "bare", false, "load an in-process server returning a fixed reply (copied from -url if given)")
	fs.StringVar(&cfg.serve, "serve", "", "only serve the fixed reply on this loopback host:port until interrupted")
	fs.BoolVar(&cfg.nodeSettings, "node-settings", false, "give the bare server the node's timeouts and cleartext HTTP/2")
	fs.StringVar(&cfg.label, "label", "", `target column of the table (default "bare" with -bare, else "node")`)
	fs.BoolVar(&cfg.header, "header", true, "print the markdown table header")
	if err := fs.Parse(args); err != nil {
		return config{}, err
	}
	fs.Visit(func(f *flag.Flag) { cfg.urlSet = cfg.urlSet || f.Name == "url" })
	if cfg.label == "" {
		cfg.label = "node"
		if cfg.bare {
			cfg.label = "bare"
		}
	}

	var errs []error
	if _, err := loopback.CheckURL(cfg.url); err != nil {
		errs = append(errs, err)
	}
	var err error
	if cfg.levels, err = parseLevels(levels); err != nil {
		errs = append(errs, err)
	}
	if _, err := requestBody(cfg.method, cfg.params); err != nil {
		errs = append(errs, err)
	}
	if cfg.n <= 0 || cfg.duration <= 0 || cfg.warmup < 0 {
		errs = append(errs, errBadBound)
	}
	return cfg, errors.Join(errs...)
}

// parseLevels parses "1,16,64" into positive concurrencies, in the order given.
func parseLevels(s string) ([]int, error) {
	var levels []int
	for f := range strings.SplitSeq(s, ",") {
		c, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || c <= 0 {
			return nil, fmt.Errorf("%w: %q", errBadLevels, s)
		}
		levels = append(levels, c)
	}
	return levels, nil
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, clock.Real{}, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "loadgen:", err)
		}
		os.Exit(1)
	}
}

// run is the whole command: table rows go to stdout, diagnostics to stderr.
func run(ctx context.Context, clk clock.Clock, args []string, stdout, stderr io.Writer) (retErr error) {
	cfg, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	body, err := requestBody(cfg.method, cfg.params)
	if err != nil {
		return err
	}
	client := newClient(slices.Max(cfg.levels))
	defer client.CloseIdleConnections()
	t := target{url: cfg.url, body: body}

	if cfg.bare || cfg.serve != "" {
		reply, err := replyFor(ctx, cfg, client, t, stderr)
		if err != nil {
			return err
		}
		if cfg.serve != "" {
			return serve(ctx, clk, cfg.serve, reply, cfg.nodeSettings, stderr)
		}
		srv, err := startBare("127.0.0.1:0", reply, cfg.nodeSettings)
		if err != nil {
			return err
		}
		defer func() { retErr = errors.Join(retErr, srv.Close()) }()
		t.url = srv.URL()
	}

	if cfg.header {
		fmt.Fprintln(stdout, tableHeader())
	}
	for _, c := range cfg.levels {
		r := runLevel(ctx, clk, client, t, c, cfg.n, cfg.warmup, cfg.duration)
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("interrupted at c=%d: %w", c, err)
		}
		fmt.Fprintln(stdout, summarize(r).row(cfg.label, cfg.method))
	}
	return nil
}

// replyFor returns the fixed reply of -bare and -serve: copied from -url when it was given,
// else the built-in sample.
func replyFor(ctx context.Context, cfg config, client *http.Client, t target, stderr io.Writer) (bareReply, error) {
	if !cfg.urlSet {
		reply := sampleReply()
		fmt.Fprintf(stderr, "loadgen: fixed reply is the built-in info.getNodeVersion sample (%d bytes)\n", len(reply.body))
		return reply, nil
	}
	reply, err := fetchReply(ctx, client, t)
	if err != nil {
		return bareReply{}, err
	}
	fmt.Fprintf(stderr, "loadgen: fixed reply copied from %s (%d bytes)\n", cfg.url, len(reply.body))
	return reply, nil
}

// serve serves reply on addr until ctx is done or maxServe has passed.
func serve(ctx context.Context, clk clock.Clock, addr string, reply bareReply, nodeSettings bool, stderr io.Writer) error {
	srv, err := startBare(addr, reply, nodeSettings)
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "loadgen: serving the fixed reply on %s for at most %s\n", srv.URL(), maxServe)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	timer := clk.AfterFunc(maxServe, cancel)
	defer timer.Stop()
	<-ctx.Done()
	return srv.Close()
}
