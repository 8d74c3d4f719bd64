package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/big"
	"time"

	"github.com/cornice-node/cornice/config"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/node"
	"github.com/cornice-node/cornice/vms/evm"
	"github.com/cornice-node/cornice/vms/evm/l1params"
)

// benchFees is the C-Chain's default fee config with a gas target no load reaches, so the base
// fee stays at its minimum: pre-signed transfers never fall below it, and the run measures the
// node rather than the fee market. Everything else, the 8M gas limit included, is the C-Chain's.
func benchFees() l1params.FeeConfig {
	f := l1params.DefaultFeeConfig()
	f.TargetGas = big.NewInt(1 << 62)
	return f
}

// newBenchNode builds a node as `cornice run` builds it (network local, the C-Chain, indexing
// on, HTTP on 127.0.0.1:httpPort, staking port chosen by the OS) whose C-Chain uses benchFees.
func newBenchNode(dataDir string, httpPort uint16, blockTime time.Duration, log *slog.Logger) (*node.Node, error) {
	c := config.Default()
	c.DataDir = dataDir
	c.HTTPPort = httpPort
	c.StakingPort = 0
	c.EVMBlockTime = blockTime
	fees := benchFees()
	return node.New(c, log, node.VMs{ids.FromName("evm"): evm.Factory{Config: evm.Config{Fees: &fees}}})
}

// runNode runs newBenchNode until ctx is done or cfg.timeout has passed. It prints the HTTP
// address on stdout once it serves; the node logs warnings and errors on stderr.
func runNode(ctx context.Context, cfg cliConfig, stdout, stderr io.Writer) error {
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	n, err := newBenchNode(cfg.dataDir, uint16(cfg.httpPort), cfg.blockTime, log)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, cfg.timeout)
	defer cancel()
	fmt.Fprintf(stdout, "evmload: node serves http://%s\n", n.HTTPAddr())
	return n.Run(ctx)
}
