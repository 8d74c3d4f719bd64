package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/big"
	"os"
	"runtime/pprof"
	"time"

	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/config"
	"github.com/cornice-node/cornice/genesis"
	"github.com/cornice-node/cornice/internal/gcfloor"
	"github.com/cornice-node/cornice/node"
	"github.com/cornice-node/cornice/node/vmset"
	"github.com/cornice-node/cornice/vms/evm"
	"github.com/cornice-node/cornice/vms/evm/l1params"
)

// benchFees is the C-Chain's default fee config with a gas target no load reaches, so the base
// fee stays at its minimum: pre-signed transfers never fall below it, and the run measures the
// node rather than the fee market. Everything else, the 8M gas limit included, is the C-Chain's.
// The L1 of -l1 has the same fee config in its genesis.
func benchFees() l1params.FeeConfig {
	f := l1params.DefaultFeeConfig()
	f.TargetGas = big.NewInt(1 << 62)
	return f
}

// benchVMs are the VMs of `cornice run` (vmset.For, with the default settings of the local
// network), but the C-Chain runs without Fortuna, so that its base fee is the window's of
// benchFees rather than ACP-176's, whose capacity (10M gas, refilled at 2M a second) holds a
// burst to 95 transfers a second by design.
func benchVMs(c config.Config) node.VMs {
	vms := vmset.For(c)
	cChain := vms[genesis.EVMID].(evm.Factory)
	fees := benchFees()
	cChain.Config.Fees = &fees
	upgrades := c.Upgrades
	upgrades.FortunaTime = time.Date(9999, time.December, 1, 0, 0, 0, 0, time.UTC)
	cChain.Config.Upgrades = &upgrades
	vms[genesis.EVMID] = cChain
	return vms
}

// newBenchNode builds a node as `cornice run` builds it (network local, the X-, P- and C-Chains
// and L1s of the Subnet-EVM VM, indexing on, HTTP on 127.0.0.1:httpPort, staking port chosen by
// the OS) whose C-Chain uses benchFees.
func newBenchNode(dataDir string, httpPort uint16, blockTime time.Duration, log *slog.Logger) (*node.Node, error) {
	c := config.Default()
	c.DataDir = dataDir
	c.HTTPPort = httpPort
	c.StakingPort = 0
	c.EVMBlockTime = blockTime
	return node.New(c, log, benchVMs(c))
}

// runNode runs newBenchNode until ctx is done or cfg.timeout has passed. It prints the HTTP
// address on stdout once it serves; with cfg.l1 it then creates the L1 (l1Genesis for the first
// cfg.senders senders) and prints its RPC URL. A failure to create the L1 stops the node. The
// node logs warnings and errors on stderr.
func runNode(ctx context.Context, clk clock.Clock, cfg cliConfig, stdout, stderr io.Writer) (err error) {
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	// As `cornice run` does.
	defer gcfloor.Start(gcfloor.DefaultFloor).Stop()
	n, err := newBenchNode(cfg.dataDir, uint16(cfg.httpPort), cfg.blockTime, log)
	if err != nil {
		return err
	}
	if cfg.cpuProfile != "" {
		stop, err := startCPUProfile(cfg.cpuProfile)
		if err != nil {
			return err
		}
		defer func() { err = errors.Join(err, stop()) }()
	}
	ctx, cancel := context.WithTimeout(ctx, cfg.timeout)
	defer cancel()
	nodeURL := "http://" + n.HTTPAddr().String()
	fmt.Fprintf(stdout, "evmload: node serves %s\n", nodeURL)
	if !cfg.l1 {
		return n.Run(ctx)
	}
	done := make(chan error, 1)
	// The listener is bound: requests wait in its backlog until Run serves them.
	go func() { done <- n.Run(ctx) }()
	chainID, err := newL1(ctx, clk, nodeURL, cfg.senders)
	if err != nil {
		cancel()
		return errors.Join(err, <-done)
	}
	fmt.Fprintf(stdout, "evmload: L1 serves %s\n", l1RPCURL(nodeURL, chainID))
	return <-done
}

// startCPUProfile starts profiling the process's CPU into path; the returned function stops it
// and closes the file.
func startCPUProfile(path string) (func() error, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("create CPU profile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		return nil, errors.Join(fmt.Errorf("start CPU profile: %w", err), f.Close())
	}
	return func() error {
		pprof.StopCPUProfile()
		return f.Close()
	}, nil
}
