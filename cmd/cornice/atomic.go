package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	xtxs "github.com/cornice-node/cornice/vms/exchange/txs"
	"github.com/cornice-node/cornice/vms/platform/txs"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
	"github.com/cornice-node/cornice/wallet"
)

// The cross-chain commands (issue #14 §3): `cornice x export|import`, `cornice p export|import`,
// each one half of a transfer, and `cornice transfer`, which does both halves.

// newXExportCmd builds `cornice x export`.
func newXExportCmd(stdout io.Writer) *cobra.Command {
	var (
		f        walletFlags
		to, addr string
		amount   uint64
	)
	return f.command(walletCmd{
		use:   "export",
		short: "Export AVAX from the X-Chain to the P- or C-Chain",
		long: "Export --amount of AVAX from the key's X-Chain UTXOs to the shared memory of the chain --to, owned\n" +
			"there by --address (default: the key's own), paying the X-Chain fee; then wait until the node\n" +
			"accepts it. Import it on the other chain with `cornice p import --from X` (or the C-Chain's).",
		flags: func(fs *pflag.FlagSet) {
			exportFlags(fs, &to, &addr, &amount, "P")
		},
		required: []string{"to", "amount"},
		run: func(ctx context.Context, _ *pflag.FlagSet) error {
			return f.runX(ctx, stdout, func(ctx context.Context, x *wallet.X) (*xtxs.Tx, []string, error) {
				tx, fee, err := x.Export(ctx, to, addr, amount)
				return tx, exportLines(amount, fee), err
			})
		},
	})
}

// newXImportCmd builds `cornice x import`.
func newXImportCmd(stdout io.Writer) *cobra.Command {
	var (
		f    walletFlags
		from string
	)
	return f.command(walletCmd{
		use:   "import",
		short: "Import the AVAX another chain exported to the key's X-Chain address",
		long: "Import every AVAX UTXO the chain --from exported to the key's X-Chain address, less the\n" +
			"X-Chain fee; then wait until the node accepts it.",
		flags: func(fs *pflag.FlagSet) {
			fs.StringVar(&from, "from", "", "source `chain`: P or C")
		},
		required: []string{"from"},
		run: func(ctx context.Context, _ *pflag.FlagSet) error {
			return f.runX(ctx, stdout, func(ctx context.Context, x *wallet.X) (*xtxs.Tx, []string, error) {
				tx, fee, err := x.Import(ctx, from)
				if err != nil {
					return nil, nil, err
				}
				return tx, importLines(tx.Unsigned().Base().Outs[0].Out.Amount, fee), nil
			})
		},
	})
}

// newPExportCmd builds `cornice p export`.
func newPExportCmd(stdout io.Writer) *cobra.Command {
	var (
		f        walletFlags
		to, addr string
		amount   uint64
	)
	return f.command(walletCmd{
		use:   "export",
		short: "Export AVAX from the P-Chain to the X- or C-Chain",
		long: "Export --amount of AVAX from the key's P-Chain UTXOs to the shared memory of the chain --to, owned\n" +
			"there by --address (default: the key's own), paying the dynamic fee; then wait until the node\n" +
			"commits it. Import it on the other chain with `cornice x import --from P` (or the C-Chain's).",
		flags: func(fs *pflag.FlagSet) {
			exportFlags(fs, &to, &addr, &amount, "X")
		},
		required: []string{"to", "amount"},
		run: func(ctx context.Context, _ *pflag.FlagSet) error {
			return f.runP(ctx, stdout, func(ctx context.Context, p *wallet.P) (*txs.Tx, []string, error) {
				tx, fee, err := p.Export(ctx, to, addr, amount)
				return tx, exportLines(amount, fee), err
			})
		},
	})
}

// newPImportCmd builds `cornice p import`.
func newPImportCmd(stdout io.Writer) *cobra.Command {
	var (
		f    walletFlags
		from string
	)
	return f.command(walletCmd{
		use:   "import",
		short: "Import the AVAX another chain exported to the key's P-Chain address",
		long: "Import every AVAX UTXO the chain --from exported to the key's P-Chain address, less the\n" +
			"dynamic fee; then wait until the node commits it.",
		flags: func(fs *pflag.FlagSet) {
			fs.StringVar(&from, "from", "", "source `chain`: X or C")
		},
		required: []string{"from"},
		run: func(ctx context.Context, _ *pflag.FlagSet) error {
			return f.runP(ctx, stdout, func(ctx context.Context, p *wallet.P) (*txs.Tx, []string, error) {
				tx, fee, err := p.Import(ctx, from)
				if err != nil {
					return nil, nil, err
				}
				return tx, importLines(pAmount(tx.Unsigned().Base().Outs[0]), fee), nil
			})
		},
	})
}

// exportFlags defines an export's --to, --address and --amount; example is a destination.
func exportFlags(fs *pflag.FlagSet, to, addr *string, amount *uint64, example string) {
	fs.StringVar(to, "to", "", "destination `chain`, e.g. "+example)
	fs.Var(amountFlag{amount}, "amount", `amount: whole nAVAX ("1500000000") or AVAX ("1.5AVAX")`)
	fs.StringVar(addr, "address", "", "owner's `address` on the destination chain; default the key's")
}

// exportLines are the lines an export prints besides its tx ID.
func exportLines(amount, fee uint64) []string {
	return []string{"exported", formatAVAX(amount), "fee", formatAVAX(fee)}
}

// importLines are the lines an import prints besides its tx ID.
func importLines(received, fee uint64) []string {
	return []string{"imported", formatAVAX(received), "fee", formatAVAX(fee)}
}

// pAmount is the amount of a P-Chain output the wallet built: a transfer output.
func pAmount(out txs.TransferableOutput) uint64 {
	if to, ok := out.Out.(*secp256k1fx.TransferOutput); ok {
		return to.Amount
	}
	return 0
}

// newTransferCmd builds `cornice transfer`.
func newTransferCmd(stdout io.Writer) *cobra.Command {
	var (
		f        walletFlags
		from, to string
		amount   uint64
	)
	return f.command(walletCmd{
		use:   "transfer",
		short: "Move AVAX between the X-, P- and C-Chains: export, then import",
		long: "Export --amount of AVAX from the key's address on the chain --from, wait until it is accepted, then\n" +
			"import everything exported to the key's address on the chain --to, and wait again. Each half\n" +
			"pays its chain's fee: the amount received is --amount less the import's fee.",
		flags: func(fs *pflag.FlagSet) {
			fs.StringVar(&from, "from", "", "source `chain`: X, P or C")
			fs.StringVar(&to, "to", "", "destination `chain`: X, P or C")
			fs.Var(amountFlag{&amount}, "amount", `amount: whole nAVAX ("1500000000") or AVAX ("1.5AVAX")`)
		},
		required: []string{"from", "to", "amount"},
		run: func(ctx context.Context, _ *pflag.FlagSet) error {
			return f.transfer(ctx, stdout, from, to, amount)
		},
	})
}

// transferSide is one chain's half of a transfer on the key's wallet there.
type transferSide interface {
	// export exports amount to dest, issues it and waits for it; import does the same with
	// everything source exported. Both return the tx's ID, the amount moved and the fee.
	export(ctx context.Context, dest string, amount uint64, wait time.Duration) (ids.ID, uint64, error)
	importAll(ctx context.Context, source string, wait time.Duration) (ids.ID, uint64, uint64, error)
}

// transfer runs `cornice transfer`.
func (f *walletFlags) transfer(ctx context.Context, stdout io.Writer, from, to string, amount uint64) error {
	if from == to || !isTransferChain(from) || !isTransferChain(to) {
		return fmt.Errorf("%w: --from %q --to %q", errTransferChain, from, to)
	}
	key, client, err := f.connect()
	if err != nil {
		return err
	}
	src, err := openSide(ctx, client, key, from)
	if err != nil {
		return unreachableError(client.URI(), err)
	}
	dst, err := openSide(ctx, client, key, to)
	if err != nil {
		return err
	}
	exportID, fee, err := src.export(ctx, to, amount, f.wait)
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintf(stdout, "export txID: %s\nexported: %s\nexport fee: %s\n", exportID, formatAVAX(amount), formatAVAX(fee)); err != nil {
		return err
	}
	importID, received, fee, err := dst.importAll(ctx, from, f.wait)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "import txID: %s\nimported: %s\nimport fee: %s\nstatus: Accepted\n", importID, formatAVAX(received), formatAVAX(fee))
	return err
}

func isTransferChain(alias string) bool { return alias == "X" || alias == "P" || alias == "C" }

// openSide opens the key's wallet on the chain alias, X, P or C.
func openSide(ctx context.Context, client *wallet.Client, key *wallet.Key, alias string) (transferSide, error) {
	switch alias {
	case "X":
		x, err := wallet.NewX(ctx, client, key, clock.Real{})
		return xSide{x}, err
	case "C":
		c, err := wallet.NewC(ctx, client, key, clock.Real{})
		return cSide{c}, err
	}
	p, err := wallet.NewP(ctx, client, key, clock.Real{})
	return pSide{p}, err
}

type xSide struct{ x *wallet.X }

func (s xSide) export(ctx context.Context, dest string, amount uint64, wait time.Duration) (ids.ID, uint64, error) {
	tx, fee, err := s.x.Export(ctx, dest, "", amount)
	if err != nil {
		return ids.ID{}, 0, err
	}
	id, err := issueAndWait(ctx, s.x, tx, wait)
	return id, fee, err
}

func (s xSide) importAll(ctx context.Context, source string, wait time.Duration) (ids.ID, uint64, uint64, error) {
	tx, fee, err := s.x.Import(ctx, source)
	if err != nil {
		return ids.ID{}, 0, 0, err
	}
	id, err := issueAndWait(ctx, s.x, tx, wait)
	return id, tx.Unsigned().Base().Outs[0].Out.Amount, fee, err
}

type pSide struct{ p *wallet.P }

func (s pSide) export(ctx context.Context, dest string, amount uint64, wait time.Duration) (ids.ID, uint64, error) {
	tx, fee, err := s.p.Export(ctx, dest, "", amount)
	if err != nil {
		return ids.ID{}, 0, err
	}
	id, err := issueAndWait(ctx, s.p, tx, wait)
	return id, fee, err
}

func (s pSide) importAll(ctx context.Context, source string, wait time.Duration) (ids.ID, uint64, uint64, error) {
	tx, fee, err := s.p.Import(ctx, source)
	if err != nil {
		return ids.ID{}, 0, 0, err
	}
	id, err := issueAndWait(ctx, s.p, tx, wait)
	return id, pAmount(tx.Unsigned().Base().Outs[0]), fee, err
}

// issueAndWait issues tx on w and waits until it is accepted.
func issueAndWait[T any](ctx context.Context, w chainWallet[T], tx T, wait time.Duration) (ids.ID, error) {
	id, err := w.Issue(ctx, tx)
	if err != nil {
		return ids.ID{}, err
	}
	return id, w.WaitAccepted(ctx, id, wait)
}
