package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/wallet"
)

// newCCmd builds `cornice c` and its subcommands, which move AVAX between the key's C-Chain
// balance and the X- and P-Chains with the C-Chain's atomic txs (docs/cli.md).
func newCCmd(stdout io.Writer) *cobra.Command {
	cmd := groupCmd(&cobra.Command{
		Use:   "c",
		Short: "Move AVAX between the C-Chain balance and the X- or P-Chain",
	})
	cmd.AddCommand(newCExportCmd(stdout), newCImportCmd(stdout))
	return cmd
}

// newCExportCmd builds `cornice c export`.
func newCExportCmd(stdout io.Writer) *cobra.Command {
	var (
		f        walletFlags
		to, addr string
		amount   uint64
	)
	return f.command(walletCmd{
		use:   "export",
		short: "Export AVAX from the key's C-Chain balance to the X- or P-Chain",
		long: "Export --amount of AVAX from the key's C-Chain balance to the shared memory of the chain --to, owned\n" +
			"there by --address (default: the key's own), paying the atomic tx fee from the balance; then wait\n" +
			"until the node accepts it. Import it on the other chain with `cornice x import --from C` (or P's).",
		flags: func(fs *pflag.FlagSet) {
			exportFlags(fs, &to, &addr, &amount, "X")
		},
		required: []string{"to", "amount"},
		run: func(ctx context.Context, _ *pflag.FlagSet) error {
			return f.runC(ctx, stdout, func(ctx context.Context, c *wallet.C) (*wallet.CTx, []string, error) {
				tx, err := c.Export(ctx, to, addr, amount)
				if err != nil {
					return nil, nil, err
				}
				return tx, exportLines(tx.Amount, tx.Fee), nil
			})
		},
	})
}

// newCImportCmd builds `cornice c import`.
func newCImportCmd(stdout io.Writer) *cobra.Command {
	var (
		f          walletFlags
		from, addr string
	)
	return f.command(walletCmd{
		use:   "import",
		short: "Import into the key's C-Chain balance the AVAX another chain exported to it",
		long: "Import every AVAX UTXO the chain --from exported to the C-Chain for the key alone, crediting\n" +
			"--address (default: the key's C-Chain address) with their sum less the atomic tx fee; then wait\n" +
			"until the node accepts it.",
		flags: func(fs *pflag.FlagSet) {
			fs.StringVar(&from, "from", "", "source `chain`: X or P")
			fs.StringVar(&addr, "address", "", "C-Chain `address` to credit, 0x…; default the key's")
		},
		required: []string{"from"},
		run: func(ctx context.Context, _ *pflag.FlagSet) error {
			return f.runC(ctx, stdout, func(ctx context.Context, c *wallet.C) (*wallet.CTx, []string, error) {
				to := c.EthAddress()
				if addr != "" {
					if !common.IsHexAddress(addr) {
						return nil, nil, fmt.Errorf("--address: %q is not a C-Chain address (0x and 40 hex digits)", addr)
					}
					to = common.HexToAddress(addr)
				}
				tx, err := c.Import(ctx, from, to)
				if err != nil {
					return nil, nil, err
				}
				return tx, importLines(tx.Amount, tx.Fee), nil
			})
		},
	})
}

// runC is runTx on the key's C-Chain wallet: it prints "status: Accepted" once the node accepts
// the tx.
func (f *walletFlags) runC(ctx context.Context, stdout io.Writer, build func(context.Context, *wallet.C) (tx *wallet.CTx, extra []string, err error)) error {
	return runTx(ctx, stdout, f, wallet.NewC, build, "Accepted")
}

// cSide is the C-Chain's half of `cornice transfer`.
type cSide struct{ c *wallet.C }

func (s cSide) export(ctx context.Context, dest string, amount uint64, wait time.Duration) (ids.ID, uint64, error) {
	tx, err := s.c.Export(ctx, dest, "", amount)
	if err != nil {
		return ids.ID{}, 0, err
	}
	id, err := issueAndWait(ctx, s.c, tx, wait)
	return id, tx.Fee, err
}

func (s cSide) importAll(ctx context.Context, source string, wait time.Duration) (ids.ID, uint64, uint64, error) {
	tx, err := s.c.Import(ctx, source, s.c.EthAddress())
	if err != nil {
		return ids.ID{}, 0, 0, err
	}
	id, err := issueAndWait(ctx, s.c, tx, wait)
	return id, tx.Amount, tx.Fee, err
}
