package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/spf13/cobra"

	"github.com/cornice-node/cornice/clock"
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

// readL1Genesis reads a genesis file and names the chain after it when name is empty.
func readL1Genesis(path, name string, balance, weight uint64) (wallet.L1Request, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return wallet.L1Request{}, fmt.Errorf("read L1 genesis: %w", err)
	}
	if !json.Valid(b) {
		return wallet.L1Request{}, fmt.Errorf("L1 genesis %s: %w", path, errGenesisJSON)
	}
	if name == "" {
		name = chainNameFromFile(path)
	}
	if err := checkChainName(name); err != nil {
		return wallet.L1Request{}, err
	}
	return wallet.L1Request{Genesis: b, Name: name, Balance: balance, Weight: weight}, nil
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

// printL1 writes where the L1 lives, one "name: value" line each, with the node's base URI.
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
	_, err := fmt.Fprintf(w, "blockchainID: %s\nsubnetID: %s\nrpc: %s/rpc\nws: %s/ws\nvalidators: %s/validators\nstatus: %s\n",
		res.BlockchainID, res.SubnetID, base, ws, base, status)
	return err
}

// newL1Cmd builds `cornice l1` and its subcommands.
func newL1Cmd(stdout io.Writer) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "l1",
		Short: "Create L1 EVM chains",
		Args:  cobra.NoArgs,
	}
	cmd.AddCommand(newL1CreateCmd(stdout))
	return cmd
}

// newL1CreateCmd builds `cornice l1 create`.
func newL1CreateCmd(stdout io.Writer) *cobra.Command {
	var (
		f               walletFlags
		gfile, name     string
		balance, weight uint64
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
			req, err := readL1Genesis(gfile, name, balance, weight)
			if err != nil {
				return err
			}
			key, client, err := f.connect()
			if err != nil {
				return err
			}
			res, err := wallet.CreateL1(ctx, client, key, req, f.wait, clock.Real{})
			if err != nil {
				return err
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
	f.register(fs)
	_ = cmd.MarkFlagRequired("genesis")
	return cmd
}
