package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/cornice-node/cornice/config"
	"github.com/cornice-node/cornice/localnet"
)

// newNetworkCmd builds `cornice network start|status|stop`: a local network of node processes
// (package localnet), in ~/.cornice/network unless --dir says otherwise.
func newNetworkCmd(stdout io.Writer) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "network",
		Short: "Start, inspect or stop a local network of cornice nodes, each a process of its own",
		Args:  cobra.NoArgs,
	}
	var dir string
	cmd.PersistentFlags().StringVar(&dir, "dir", "", "the network's directory (default ~/.cornice/network)")
	resolve := func() (string, error) {
		if dir != "" {
			return filepath.Abs(dir)
		}
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("--dir: no home directory: %w", err)
		}
		return filepath.Join(home, ".cornice", "network"), nil
	}

	var nodes, httpPort, stakingPort, l1Validators, relayNode int
	var l1Weight uint64
	var l1Files []string
	var l1Manager string
	var wait time.Duration
	start := &cobra.Command{
		Use:   "start",
		Short: "Start the local network's nodes (creating the network on first use) and wait until their chains are ready",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			d, err := resolve()
			if err != nil {
				return err
			}
			bin, err := os.Executable()
			if err != nil {
				return fmt.Errorf("find the cornice binary: %w", err)
			}
			switch have, err := localnet.Created(d); {
			case err == nil:
				if err := keepsShape(c.Flags(), d, have); err != nil {
					return err
				}
			case !errors.Is(err, os.ErrNotExist):
				return err
			}
			if err := os.MkdirAll(d, 0o700); err != nil {
				return err
			}
			var manager []byte
			if l1Manager != "" {
				if !common.IsHexAddress(l1Manager) {
					return fmt.Errorf("--l1-manager: %q is not a hex address", l1Manager)
				}
				manager = common.HexToAddress(l1Manager).Bytes()
			}
			var l1s []localnet.L1Config
			for _, f := range l1Files {
				req, err := readL1Genesis(f, "", defaultL1Balance, l1Weight, config.LocalID)
				if err != nil {
					return err
				}
				l1s = append(l1s, localnet.L1Config{Genesis: req.Genesis, Name: req.Name, Validators: l1Validators, Weight: l1Weight, Manager: manager})
			}
			ctx, cancel := context.WithTimeout(c.Context(), wait)
			defer cancel()
			cfg := localnet.Config{Binary: bin, Dir: d, Nodes: nodes, HTTPPort: httpPort, StakingPort: stakingPort, L1s: l1s}
			if relayNode != 0 {
				// The relay's auto setting is off on a network of several nodes: one of them
				// runs it, so that each message is delivered once.
				cfg.NodeArgs = map[string][]string{fmt.Sprintf("node%d", relayNode): {"--relay=true"}}
			}
			started, err := localnet.Start(ctx, cfg)
			if err != nil {
				return err
			}
			fmt.Fprintf(stdout, "local network of %d nodes in %s is ready\n", len(started), d)
			return printNodes(stdout, d)
		},
	}
	fs := start.Flags()
	fs.IntVar(&nodes, "nodes", localnet.DefaultNodes, "how many nodes a new network has: the first five are the local genesis's stakers, more join as non-validators")
	fs.IntVar(&httpPort, "http-port", localnet.DefaultHTTPPort, "node 1's HTTP port; node i's is this + 2(i-1)")
	fs.IntVar(&stakingPort, "staking-port", localnet.DefaultStakingPort, "node 1's staking port; node i's is this + 2(i-1)")
	fs.StringArrayVar(&l1Files, "l1", nil, "`genesis.json` of an L1 (Subnet-EVM genesis, see examples/l1-genesis.json) to create on the network once it is up, unless it has it already; repeat for more")
	fs.IntVar(&l1Validators, "l1-validators", 0, "how many nodes, the first ones, validate each new L1 (default: all); every node runs its chain")
	fs.Uint64Var(&l1Weight, "l1-weight", defaultL1Weight, "each validator's weight in a new L1")
	fs.StringVar(&l1Manager, "l1-manager", "", "the `address` of each new L1's validator manager (an ACP-99 contract its genesis holds); default the empty address")
	fs.IntVar(&relayNode, "relay-node", 0, "the node (1 to --nodes) of a new network that runs the Interchain Messaging relay (--relay=true); default none")
	fs.DurationVar(&wait, "wait", 2*time.Minute, "how long to wait for every node's chains (and for the L1s' creation)")

	status := &cobra.Command{
		Use:   "status",
		Short: "List the local network's nodes and whether each runs",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			d, err := resolve()
			if err != nil {
				return err
			}
			return printNodes(stdout, d)
		},
	}

	var stopWait time.Duration
	stop := &cobra.Command{
		Use:   "stop",
		Short: "Stop the local network's nodes; their data stays, and start resumes them",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			d, err := resolve()
			if err != nil {
				return err
			}
			ctx, cancel := context.WithTimeout(c.Context(), stopWait)
			defer cancel()
			if err := localnet.Stop(ctx, d); err != nil {
				return err
			}
			_, err = fmt.Fprintf(stdout, "local network in %s stopped\n", d)
			return err
		},
	}
	stop.Flags().DurationVar(&stopWait, "wait", 30*time.Second, "how long to wait for the nodes to exit before killing them")

	cmd.AddCommand(start, status, stop)
	return cmd
}

// shapeFlags are the flags of `network start` that shape a new network, which an existing one keeps.
var shapeFlags = []string{"nodes", "http-port", "staking-port", "relay-node"}

// keepsShape refuses the shapeFlags given that differ from what the network in dir was created
// with (have): start resumes a network as it was created, so such a flag would be ignored. A
// flag equal to the network's own value is accepted.
func keepsShape(fs *pflag.FlagSet, dir string, have localnet.Config) error {
	stored := map[string]int{
		"nodes":        have.Nodes,
		"http-port":    have.HTTPPort,
		"staking-port": have.StakingPort,
		"relay-node":   relayNodeOf(have.NodeArgs),
	}
	var given, was []string
	for _, name := range shapeFlags {
		f := fs.Lookup(name)
		if f == nil || !f.Changed || f.Value.String() == strconv.Itoa(stored[name]) {
			continue
		}
		given = append(given, "--"+name+" "+f.Value.String())
		was = append(was, fmt.Sprintf("--%s %d", name, stored[name]))
	}
	if len(given) == 0 {
		return nil
	}
	return shapeError(dir, given, was)
}

// relayNodeOf returns the node (1 to n) a network's per-node flags give the relay, 0 if none.
func relayNodeOf(nodeArgs map[string][]string) int {
	for name, args := range nodeArgs {
		if !slices.Contains(args, "--relay=true") {
			continue
		}
		if k, err := strconv.Atoi(strings.TrimPrefix(name, "node")); err == nil {
			return k
		}
	}
	return 0
}

// printNodes prints one line per node: name, NodeID, URI and whether it runs; then each L1's
// line (name, blockchain and subnet IDs, validators) and its RPC URL on every node.
func printNodes(w io.Writer, dir string) error {
	nodes, err := localnet.Status(dir)
	if err != nil {
		return err
	}
	for _, n := range nodes {
		state := "stopped"
		if n.Running {
			state = fmt.Sprintf("running (pid %d)", n.PID)
		}
		id := n.NodeID
		if id == "" {
			id = "(non-validator)"
		}
		if _, err := fmt.Fprintf(w, "%s  %s  %s  staking 127.0.0.1:%d  %s\n", n.Name, id, n.URI(), n.StakingPort, state); err != nil {
			return err
		}
	}
	l1s, err := localnet.L1s(dir)
	if err != nil {
		return err
	}
	for _, l := range l1s {
		if _, err := fmt.Fprintf(w, "L1 %q  blockchainID %s  subnetID %s  validators %s (weight %d each)\n",
			l.Name, l.BlockchainID, l.SubnetID, strings.Join(l.Validators, ","), l.Weight); err != nil {
			return err
		}
		for _, n := range nodes {
			if _, err := fmt.Fprintf(w, "  %s  rpc %s\n", n.Name, l.RPC(n.Node)); err != nil {
				return err
			}
		}
	}
	return nil
}
