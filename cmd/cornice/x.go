package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/exchange"
	"github.com/cornice-node/cornice/wallet"
)

// newXCmd builds `cornice x` and its subcommands, which build, sign and issue X-Chain
// transactions through a node's API (docs/cli.md).
func newXCmd(stdout io.Writer) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "x",
		Short: "Send assets and create assets on the X-Chain",
		Args:  cobra.NoArgs,
	}
	cmd.AddCommand(newXSendCmd(stdout), newXCreateAssetCmd(stdout))
	return cmd
}

// newXSendCmd builds `cornice x send`.
func newXSendCmd(stdout io.Writer) *cobra.Command {
	var (
		f      walletFlags
		to     string
		amount uint64
		asset  string
	)
	cmd := &cobra.Command{
		Use:   "send",
		Short: "Send AVAX or another asset to an X-Chain address",
		Long: "Send --amount (in the asset's smallest unit) of --asset to --to, paying the fee in AVAX,\n" +
			"with change back to the key's address; then wait until the node accepts the transaction.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			x, err := f.open(ctx)
			if err != nil {
				return err
			}
			desc, err := x.Asset(ctx, asset)
			if err != nil {
				return err
			}
			tx, err := x.Send(ctx, to, desc.AssetID, amount)
			if err != nil {
				return err
			}
			return f.issue(ctx, stdout, x, tx, nil)
		},
	}
	fs := cmd.Flags()
	fs.SortFlags = false
	fs.StringVar(&to, "to", "", "recipient's X-Chain `address`, e.g. X-local1…")
	fs.Uint64Var(&amount, "amount", 0, "amount in the asset's smallest unit (nAVAX for AVAX)")
	fs.StringVar(&asset, "asset", "AVAX", "asset `ID` or alias")
	f.register(fs)
	_ = cmd.MarkFlagRequired("to")
	_ = cmd.MarkFlagRequired("amount")
	return cmd
}

// newXCreateAssetCmd builds `cornice x create-asset`.
func newXCreateAssetCmd(stdout io.Writer) *cobra.Command {
	var (
		f            walletFlags
		name, symbol string
		denomination uint8
		supply       uint64
	)
	cmd := &cobra.Command{
		Use:   "create-asset",
		Short: "Create an asset with a fixed supply owned by the key",
		Long: "Create an asset of --supply units (its smallest unit), all owned by the key's address, paying\n" +
			"the create-asset fee in AVAX; then wait until the node accepts it. The asset ID is the tx ID.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			x, err := f.open(ctx)
			if err != nil {
				return err
			}
			tx, err := x.CreateAsset(ctx, name, symbol, denomination, supply)
			if err != nil {
				return err
			}
			assetID := tx.ID()
			return f.issue(ctx, stdout, x, tx, &assetID)
		},
	}
	fs := cmd.Flags()
	fs.SortFlags = false
	fs.StringVar(&name, "name", "", "asset name: 1-128 letters, digits and inner spaces")
	fs.StringVar(&symbol, "symbol", "", "asset symbol: 1-4 upper-case letters")
	fs.Uint8Var(&denomination, "denomination", 0, "decimal places of the asset's display unit, at most 32")
	fs.Uint64Var(&supply, "supply", 0, "supply, in the asset's smallest unit")
	f.register(fs)
	for _, name := range []string{"name", "symbol", "supply"} {
		_ = cmd.MarkFlagRequired(name)
	}
	return cmd
}

// open connects to the node and opens the key's X-Chain wallet there.
func (f *walletFlags) open(ctx context.Context) (*wallet.X, error) {
	key, err := wallet.ParseKey(f.key)
	if err != nil {
		return nil, fmt.Errorf("--key: %w", err)
	}
	client, err := wallet.NewClient(f.nodeURI, nil)
	if err != nil {
		return nil, fmt.Errorf("--node-uri: %w", err)
	}
	return wallet.NewX(ctx, client, key, clock.Real{})
}

// issue issues tx, prints its ID (and the asset's), waits for acceptance and says so.
func (f *walletFlags) issue(ctx context.Context, stdout io.Writer, x *wallet.X, tx *exchange.Tx, assetID *ids.ID) error {
	txID, err := x.Issue(ctx, tx)
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintf(stdout, "txID: %s\n", txID); err != nil {
		return err
	}
	if assetID != nil {
		if _, err := fmt.Fprintf(stdout, "assetID: %s\n", assetID); err != nil {
			return err
		}
	}
	if err := x.WaitAccepted(ctx, txID, f.wait); err != nil {
		return err
	}
	_, err = fmt.Fprintln(stdout, "status: Accepted")
	return err
}
