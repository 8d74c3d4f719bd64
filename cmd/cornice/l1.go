package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/spf13/cobra"

	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/config"
	"github.com/cornice-node/cornice/vms/evm/l1params"
	"github.com/cornice-node/cornice/wallet"
)

// Defaults and limits of `cornice l1 create` and `cornice run --l1`.
const (
	// defaultL1Balance is the node's validator balance for the L1's continuous fee: 1 AVAX.
	defaultL1Balance = wallet.DefaultL1Balance
	// defaultL1Weight is the node's weight as the L1's validator.
	defaultL1Weight = wallet.DefaultL1Weight
	// maxChainNameLen is the longest chain name a CreateChainTx takes (platform-exchange.md).
	maxChainNameLen = 128
)

// readL1Genesis reads a genesis file, checks it as a node of network networkID would, and names
// the chain after it when name is empty. Every problem with the file reads
// `L1 genesis <file>[:line:column]: <problem>`.
func readL1Genesis(path, name string, balance, weight uint64, networkID uint32) (wallet.L1Request, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return wallet.L1Request{}, fmt.Errorf("L1 genesis %s: %w", path, unwrapPathError(err))
	}
	if err := config.CheckJSON(path, b); err != nil {
		return wallet.L1Request{}, fmt.Errorf("L1 genesis %w", err)
	}
	if _, err := l1params.ParseGenesis(b, nil, networkID); err != nil {
		return wallet.L1Request{}, fmt.Errorf("L1 genesis %s: %w", path, err)
	}
	if name == "" {
		name = chainNameFromFile(path)
	}
	if err := checkChainName(name); err != nil {
		return wallet.L1Request{}, err
	}
	return wallet.L1Request{Genesis: b, Name: name, Balance: balance, Weight: weight}, nil
}

// unwrapPathError drops the operation and path of an *fs.PathError, which the caller names
// already: "no such file or directory" rather than "open x: no such file or directory".
func unwrapPathError(err error) error {
	if pe, ok := errors.AsType[*fs.PathError](err); ok {
		return pe.Err
	}
	return err
}

// chainNameFromFile makes a chain name from a file name: its base name without extension, each
// run of characters other than letters and digits turned into one space ("l1-genesis.json" →
// "l1 genesis"), cut to 128 bytes; "l1" if nothing is left.
func chainNameFromFile(path string) string {
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	words := strings.FieldsFunc(base, func(r rune) bool {
		return r > unicode.MaxASCII || !(unicode.IsLetter(r) || unicode.IsDigit(r))
	})
	name := strings.Join(words, " ")
	if len(name) > maxChainNameLen {
		name = strings.TrimSpace(name[:maxChainNameLen])
	}
	if name == "" {
		return "l1"
	}
	return name
}

// checkChainName refuses a name a CreateChainTx would not take: 1 to 128 ASCII letters, digits
// and spaces (platform-exchange.md).
func checkChainName(name string) error {
	if name == "" || len(name) > maxChainNameLen {
		return fmt.Errorf("--name %q: %w", name, errChainName)
	}
	for _, r := range name {
		if r > unicode.MaxASCII || !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == ' ') {
			return fmt.Errorf("--name %q: %w", name, errChainName)
		}
	}
	return nil
}

// l1Symbol is the native coin symbol printed for a wallet's "add network": a Subnet-EVM genesis
// names none, so any symbol a user types is as right as another (docs/decisions.md).
const l1Symbol = "L1"

// printL1 writes where the L1 lives and what a wallet's "add network" asks for, one "name: value" line each, with the node's base URI.
func printL1(w io.Writer, nodeURI string, res wallet.L1Result) error {
	base := strings.TrimSuffix(nodeURI, "/") + "/ext/bc/" + res.BlockchainID.String()
	ws := base
	switch {
	case strings.HasPrefix(ws, "https://"):
		ws = "wss://" + strings.TrimPrefix(ws, "https://")
	case strings.HasPrefix(ws, "http://"):
		ws = "ws://" + strings.TrimPrefix(ws, "http://")
	}
	status := "created"
	if res.Reused {
		status = "reused"
	}
	_, err := fmt.Fprintf(w, "blockchainID: %s\nsubnetID: %s\nrpc: %s/rpc\nws: %s/ws\nvalidators: %s/validators\nstatus: %s\nchainID: %s\nsymbol: %s\n",
		res.BlockchainID, res.SubnetID, base, ws, base, status, res.ChainID, l1Symbol)
	return err
}

// warnSharedChainID says that --force let the L1 of res share its EVM chain ID.
func warnSharedChainID(w io.Writer, res wallet.L1Result) {
	fmt.Fprintf(w, "warning: the L1's EVM chain ID %s is also that of %s: a transaction signed for one is valid on the other\n", res.ChainID, res.SharedWith)
}

// newL1Cmd builds `cornice l1` and its subcommands.
func newL1Cmd(stdout io.Writer) *cobra.Command {
	cmd := groupCmd(&cobra.Command{
		Use:   "l1",
		Short: "Create L1 EVM chains and manage their validators",
	})
	cmd.AddCommand(newL1CreateCmd(stdout), newL1InitValidatorSetCmd(stdout), newL1AddValidatorCmd(stdout), newL1SetWeightCmd(stdout), newL1RemoveValidatorCmd(stdout))
	return cmd
}

// newL1CreateCmd builds `cornice l1 create`.
func newL1CreateCmd(stdout io.Writer) *cobra.Command {
	var (
		f               walletFlags
		gfile, name     string
		balance, weight uint64
		force           bool
	)
	cmd := &cobra.Command{
		Use:   "create",
		Short: "Create an L1 EVM chain validated by the node",
		Long: "Create an L1 from the Subnet-EVM genesis in --genesis: a subnet owned by the key, a chain of\n" +
			"the Subnet-EVM VM with that genesis, and the subnet's conversion into an L1 managed by the new\n" +
			"chain, with the node (info.getNodeID) as its validator of --weight and --balance nAVAX. A chain\n" +
			"with the same genesis already on the P-Chain is reused, as is a subnet an interrupted earlier\n" +
			"run made for it. Waits until the chain answers, then\n" +
			"prints its blockchain ID, subnet ID, and RPC, websocket and validators URLs.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			// The node's network is not known yet: check as a local node would, and CreateL1
			// checks again as the node's network does before any tx.
			req, err := readL1Genesis(gfile, name, balance, weight, config.LocalID)
			if err != nil {
				return err
			}
			req.AllowSharedChainID = force
			key, client, err := f.connect()
			if err != nil {
				return err
			}
			res, err := wallet.CreateL1(ctx, client, key, req, f.wait, clock.Real{})
			if errors.Is(err, wallet.ErrChainIDInUse) {
				return fmt.Errorf("%w; give the genesis another chainId, or pass --force", err)
			}
			if err != nil {
				return unreachableError(client.URI(), err)
			}
			if res.SharedWith != "" {
				warnSharedChainID(cmd.ErrOrStderr(), res)
			}
			return printL1(stdout, client.URI(), res)
		},
	}
	fs := cmd.Flags()
	fs.SortFlags = false
	fs.StringVar(&gfile, "genesis", "", "`file` of the L1's Subnet-EVM genesis (see examples/l1-genesis.json)")
	fs.StringVar(&name, "name", "", "chain name: at most 128 letters, digits and spaces (default: from the genesis file's name)")
	fs.Uint64Var(&balance, "balance", defaultL1Balance, "the node's validator balance in nAVAX, paid by the key")
	fs.Uint64Var(&weight, "weight", defaultL1Weight, "the node's validator weight")
	fs.BoolVar(&force, "force", false, "create the L1 even if the C-Chain or another L1 has its EVM chain ID")
	f.register(fs)
	_ = cmd.MarkFlagRequired("genesis")
	return cmd
}
