package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/platform"
	"github.com/cornice-node/cornice/wallet"
)

// newPCmd builds `cornice p` and its subcommands, which build, sign and issue P-Chain
// transactions through a node's API (docs/cli.md).
func newPCmd(stdout io.Writer) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "p",
		Short: "Send AVAX, create subnets and create chains on the P-Chain",
		Args:  cobra.NoArgs,
	}
	cmd.AddCommand(newPSendCmd(stdout), newPCreateSubnetCmd(stdout), newPCreateChainCmd(stdout))
	return cmd
}

// newPSendCmd builds `cornice p send`.
func newPSendCmd(stdout io.Writer) *cobra.Command {
	var (
		f      walletFlags
		to     string
		amount uint64
	)
	cmd := &cobra.Command{
		Use:   "send",
		Short: "Send AVAX to a P-Chain address",
		Long: "Send --amount nAVAX to --to, paying the dynamic fee, with change back to the key's address;\n" +
			"then wait until the node commits the transaction.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			p, err := f.openP(ctx)
			if err != nil {
				return err
			}
			tx, err := p.Send(ctx, to, amount)
			if err != nil {
				return err
			}
			return f.issueP(ctx, stdout, p, tx, "")
		},
	}
	fs := cmd.Flags()
	fs.SortFlags = false
	fs.StringVar(&to, "to", "", "recipient's P-Chain `address`, e.g. P-local1…")
	fs.Uint64Var(&amount, "amount", 0, "amount in nAVAX")
	f.register(fs)
	_ = cmd.MarkFlagRequired("to")
	_ = cmd.MarkFlagRequired("amount")
	return cmd
}

// newPCreateSubnetCmd builds `cornice p create-subnet`.
func newPCreateSubnetCmd(stdout io.Writer) *cobra.Command {
	var (
		f     walletFlags
		owner string
	)
	cmd := &cobra.Command{
		Use:   "create-subnet",
		Short: "Create a subnet owned by one address",
		Long: "Create a subnet owned by --owner (default: the key's address) with a threshold of 1, paying\n" +
			"the dynamic fee; then wait until the node commits it. The subnet ID is the tx ID.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			p, err := f.openP(ctx)
			if err != nil {
				return err
			}
			tx, err := p.CreateSubnet(ctx, owner)
			if err != nil {
				return err
			}
			return f.issueP(ctx, stdout, p, tx, "subnetID")
		},
	}
	fs := cmd.Flags()
	fs.SortFlags = false
	fs.StringVar(&owner, "owner", "", "owner's P-Chain `address`; default the key's")
	f.register(fs)
	return cmd
}

// newPCreateChainCmd builds `cornice p create-chain`.
func newPCreateChainCmd(stdout io.Writer) *cobra.Command {
	var (
		f                       walletFlags
		subnet, name, vm, gfile string
	)
	cmd := &cobra.Command{
		Use:   "create-chain",
		Short: "Create a blockchain on a subnet the key owns",
		Long: "Create a blockchain named --name running --vm with the genesis in --genesis on --subnet, signed\n" +
			"by the key as the subnet's owner and paying the dynamic fee; then wait until the node commits\n" +
			"it. The blockchain ID is the tx ID.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			subnetID, err := ids.FromString(subnet)
			if err != nil {
				return fmt.Errorf("--subnet: %w", err)
			}
			vmID, err := parseVMID(vm)
			if err != nil {
				return err
			}
			genesis, err := os.ReadFile(gfile)
			if err != nil {
				return fmt.Errorf("--genesis: %w", err)
			}
			p, err := f.openP(ctx)
			if err != nil {
				return err
			}
			tx, err := p.CreateChain(ctx, subnetID, name, vmID, genesis)
			if err != nil {
				return err
			}
			return f.issueP(ctx, stdout, p, tx, "blockchainID")
		},
	}
	fs := cmd.Flags()
	fs.SortFlags = false
	fs.StringVar(&subnet, "subnet", "", "subnet `ID`")
	fs.StringVar(&name, "name", "", "chain name: at most 128 letters, digits and spaces")
	fs.StringVar(&vm, "vm", "", "VM `ID` in CB58, or a VM name of at most 32 bytes (e.g. subnetevm)")
	fs.StringVar(&gfile, "genesis", "", "`file` holding the chain's genesis bytes")
	f.register(fs)
	for _, name := range []string{"subnet", "name", "vm", "genesis"} {
		_ = cmd.MarkFlagRequired(name)
	}
	return cmd
}

// parseVMID reads a VM ID in CB58, else a VM name padded with zeros to 32 bytes (node-api.md §6).
func parseVMID(s string) (ids.ID, error) {
	if id, err := ids.FromString(s); err == nil {
		return id, nil
	}
	if s == "" || len(s) > ids.IDLen {
		return ids.ID{}, fmt.Errorf("--vm %q: %w", s, errVMName)
	}
	return ids.FromName(s), nil
}

// openP connects to the node and opens the key's P-Chain wallet there.
func (f *walletFlags) openP(ctx context.Context) (*wallet.P, error) {
	key, err := wallet.ParseKey(f.key)
	if err != nil {
		return nil, fmt.Errorf("--key: %w", err)
	}
	client, err := wallet.NewClient(f.nodeURI, nil)
	if err != nil {
		return nil, fmt.Errorf("--node-uri: %w", err)
	}
	return wallet.NewP(ctx, client, key, clock.Real{})
}

// issueP issues tx, prints its ID (and, if label is set, the same ID under label), waits for
// the commit and says so.
func (f *walletFlags) issueP(ctx context.Context, stdout io.Writer, p *wallet.P, tx *platform.Tx, label string) error {
	txID, err := p.Issue(ctx, tx)
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintf(stdout, "txID: %s\n", txID); err != nil {
		return err
	}
	if label != "" {
		if _, err := fmt.Fprintf(stdout, "%s: %s\n", label, txID); err != nil {
			return err
		}
	}
	if err := p.WaitAccepted(ctx, txID, f.wait); err != nil {
		return err
	}
	_, err = fmt.Fprintln(stdout, "status: Committed")
	return err
}
