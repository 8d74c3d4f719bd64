package main

import (
	"context"
	"fmt"
	"io"
	"strconv"

	"github.com/ethereum/go-ethereum/common"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/cornice-node/cornice/wallet"
)

// newCCmd builds `cornice c` and its subcommands, which move AVAX between the C-Chain's EVM
// balances and the X- and P-Chains with atomic txs (docs/cli.md).
func newCCmd(stdout io.Writer) *cobra.Command {
	cmd := groupCmd(&cobra.Command{
		Use:   "c",
		Short: "Move AVAX between the C-Chain and the X- or P-Chain",
	})
	cmd.AddCommand(newCExportCmd(stdout), newCImportCmd(stdout))
	return cmd
}

// newCExportCmd builds `cornice c export`.
func newCExportCmd(stdout io.Writer) *cobra.Command {
	var (
		f      walletFlags
		chain  string
		to     string
		amount uint64
	)
	return f.command(walletCmd{
		use:   "export",
		short: "Export AVAX from the key's C-Chain balance to the X- or P-Chain",
		long: "Export --amount nAVAX from the key's C-Chain balance to --chain (X or P), for --to (by default\n" +
			"the key's own address there), paying the atomic tx fee from the balance; then wait until\n" +
			"the node accepts it. Import it there with `cornice x import` or `cornice p import`.",
		flags: func(fs *pflag.FlagSet) {
			fs.StringVar(&chain, "chain", "X", "destination `chain`: X or P")
			fs.Uint64Var(&amount, "amount", 0, "amount in nAVAX")
			fs.StringVar(&to, "to", "", "recipient's `address` on the destination chain, e.g. X-local1…; default the key's")
		},
		required: []string{"amount"},
		run: func(ctx context.Context, _ *pflag.FlagSet) error {
			return f.runC(ctx, stdout, func(ctx context.Context, c *wallet.C) (*wallet.CTx, []string, error) {
				if to == "" {
					to = c.Address(chain)
				}
				tx, err := c.Export(ctx, chain, amount, to)
				if err != nil {
					return nil, nil, err
				}
				return tx, []string{"amount", nAVAX(amount), "fee", nAVAX(tx.Fee), "to", to}, nil
			})
		},
	})
}

// newCImportCmd builds `cornice c import`.
func newCImportCmd(stdout io.Writer) *cobra.Command {
	var (
		f    walletFlags
		from string
		to   string
	)
	return f.command(walletCmd{
		use:   "import",
		short: "Import into a C-Chain balance the AVAX the X- or P-Chain exported to the key",
		long: "Import every AVAX UTXO that --from (X or P) exported to the C-Chain for the key alone, crediting\n" +
			"--to (by default the key's C-Chain address) with their sum less the atomic tx fee; then wait\n" +
			"until the node accepts it.",
		flags: func(fs *pflag.FlagSet) {
			fs.StringVar(&from, "from", "X", "source `chain`: X or P")
			fs.StringVar(&to, "to", "", "C-Chain `address` to credit, 0x…; default the key's")
		},
		run: func(ctx context.Context, _ *pflag.FlagSet) error {
			return f.runC(ctx, stdout, func(ctx context.Context, c *wallet.C) (*wallet.CTx, []string, error) {
				addr := c.EthAddress()
				if to != "" {
					if !common.IsHexAddress(to) {
						return nil, nil, fmt.Errorf("--to: %q is not a C-Chain address (0x and 40 hex digits)", to)
					}
					addr = common.HexToAddress(to)
				}
				tx, err := c.Import(ctx, from, addr)
				if err != nil {
					return nil, nil, err
				}
				return tx, []string{"amount", nAVAX(tx.Amount), "fee", nAVAX(tx.Fee), "to", addr.Hex()}, nil
			})
		},
	})
}

// nAVAX writes an amount of nAVAX with its unit.
func nAVAX(n uint64) string { return strconv.FormatUint(n, 10) + " nAVAX" }

// runC is runTx on the key's C-Chain wallet: it prints "status: Accepted" once the node accepts
// the tx.
func (f *walletFlags) runC(ctx context.Context, stdout io.Writer, build func(context.Context, *wallet.C) (tx *wallet.CTx, extra []string, err error)) error {
	return runTx(ctx, stdout, f, wallet.NewC, build, "Accepted")
}
