package main

import (
	"context"
	"io"

	xtxs "github.com/cornice-node/cornice/vms/exchange/txs"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/cornice-node/cornice/wallet"
)

// newXCmd builds `cornice x` and its subcommands, which build, sign and issue X-Chain
// transactions through a node's API (docs/cli.md).
func newXCmd(stdout io.Writer) *cobra.Command {
	cmd := groupCmd(&cobra.Command{
		Use:   "x",
		Short: "Send assets, create assets and move AVAX to other chains on the X-Chain",
	})
	cmd.AddCommand(newXSendCmd(stdout), newXCreateAssetCmd(stdout), xChain.exportCmd(stdout), xChain.importCmd(stdout))
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
	return f.command(walletCmd{
		use:   "send",
		short: "Send AVAX or another asset to an X-Chain address",
		long: "Send --amount (in the asset's smallest unit) of --asset to --to, paying the fee in AVAX,\n" +
			"with change back to the key's address; then wait until the node accepts the transaction.",
		flags: func(fs *pflag.FlagSet) {
			fs.StringVar(&to, "to", "", "recipient's X-Chain `address`, e.g. X-local1…")
			fs.Uint64Var(&amount, "amount", 0, "amount in the asset's smallest unit (nAVAX for AVAX)")
			fs.StringVar(&asset, "asset", "AVAX", "asset `ID` or alias")
		},
		required: []string{"to", "amount"},
		run: func(ctx context.Context, _ *pflag.FlagSet) error {
			return f.runX(ctx, stdout, func(ctx context.Context, x *wallet.X) (*xtxs.Tx, []string, error) {
				desc, err := x.Asset(ctx, asset)
				if err != nil {
					return nil, nil, err
				}
				tx, err := x.Send(ctx, to, desc.AssetID, amount)
				return tx, nil, err
			})
		},
	})
}

// newXCreateAssetCmd builds `cornice x create-asset`.
func newXCreateAssetCmd(stdout io.Writer) *cobra.Command {
	var (
		f            walletFlags
		name, symbol string
		denomination uint8
		supply       uint64
	)
	return f.command(walletCmd{
		use:   "create-asset",
		short: "Create an asset with a fixed supply owned by the key",
		long: "Create an asset of --supply units (its smallest unit), all owned by the key's address, paying\n" +
			"the create-asset fee in AVAX; then wait until the node accepts it. The asset ID is the tx ID.",
		flags: func(fs *pflag.FlagSet) {
			fs.StringVar(&name, "name", "", "asset name: 1-128 letters, digits and inner spaces")
			fs.StringVar(&symbol, "symbol", "", "asset symbol: 1-4 upper-case letters")
			fs.Uint8Var(&denomination, "denomination", 0, "decimal places of the asset's display unit, at most 32")
			fs.Uint64Var(&supply, "supply", 0, "supply, in the asset's smallest unit")
		},
		required: []string{"name", "symbol", "supply"},
		run: func(ctx context.Context, _ *pflag.FlagSet) error {
			return f.runX(ctx, stdout, func(ctx context.Context, x *wallet.X) (*xtxs.Tx, []string, error) {
				tx, err := x.CreateAsset(ctx, name, symbol, denomination, supply)
				if err != nil {
					return nil, nil, err
				}
				return tx, []string{"assetID", tx.ID().String()}, nil
			})
		},
	})
}

// runX is runTx on the key's X-Chain wallet: it prints "status: Accepted" once the node accepts
// the tx.
func (f *walletFlags) runX(ctx context.Context, stdout io.Writer, build func(context.Context, *wallet.X) (tx *xtxs.Tx, extra []string, err error)) error {
	return runTx(ctx, stdout, f, wallet.NewX, build, "Accepted")
}
