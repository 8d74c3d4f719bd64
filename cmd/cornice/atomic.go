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

// atomicWallet is what the cross-chain commands need of a chain's wallet (wallet.X, wallet.P),
// whose txs are of type T.
type atomicWallet[T any] interface {
	chainWallet[T]
	Export(ctx context.Context, destination, to string, amount uint64) (T, uint64, error)
	Import(ctx context.Context, source string) (T, uint64, error)
}

// atomicChain is one chain's side of the cross-chain commands.
type atomicChain[W atomicWallet[T], T any] struct {
	// name is the chain's alias, peers those of the chains it moves AVAX to and from, fee how
	// its fee is set.
	name, peers, fee string
	open             openFunc[W]
	// status is what the chain's status call answers for an accepted tx.
	status string
	// received is what an ImportTx of the chain sends to the key.
	received func(T) uint64
}

var (
	xChain = atomicChain[*wallet.X, *xtxs.Tx]{name: "X", peers: "P or C", fee: "the X-Chain fee",
		open: wallet.NewX, status: "Accepted", received: func(tx *xtxs.Tx) uint64 { return tx.Unsigned().Base().Outs[0].Out.Amount }}
	pChain = atomicChain[*wallet.P, *txs.Tx]{name: "P", peers: "X or C", fee: "the dynamic fee",
		open: wallet.NewP, status: "Committed", received: func(tx *txs.Tx) uint64 { return pAmount(tx.Unsigned().Base().Outs[0]) }}
)

// exportCmd builds `cornice <chain> export`.
func (c atomicChain[W, T]) exportCmd(stdout io.Writer) *cobra.Command {
	var (
		f        walletFlags
		to, addr string
		amount   uint64
	)
	return f.command(walletCmd{
		use:   "export",
		short: "Export AVAX from the " + c.name + "-Chain to the " + c.peers + "-Chain",
		long: "Export --amount of AVAX from the key's " + c.name + "-Chain UTXOs to the shared memory of the chain\n" +
			"--to, owned there by --address (default: the key's own), paying " + c.fee + "; then wait until\n" +
			"the node accepts it. Import it on the other chain with `cornice <chain> import --from " + c.name + "`.",
		flags: func(fs *pflag.FlagSet) {
			fs.StringVar(&to, "to", "", "destination `chain`: "+c.peers)
			fs.Var(amountFlag{&amount}, "amount", "amount: 1.5AVAX, 1500000000nAVAX (a bare number is nAVAX)")
			fs.StringVar(&addr, "address", "", "owner's `address` on the destination chain; default the key's")
		},
		required: []string{"to", "amount"},
		run: func(ctx context.Context, _ *pflag.FlagSet) error {
			return runTx(ctx, stdout, &f, c.open, func(ctx context.Context, w W) (T, []string, error) {
				tx, fee, err := w.Export(ctx, to, addr, amount)
				return tx, []string{"exported", formatAVAX(amount), "fee", formatAVAX(fee)}, err
			}, c.status)
		},
	})
}

// importCmd builds `cornice <chain> import`.
func (c atomicChain[W, T]) importCmd(stdout io.Writer) *cobra.Command {
	var (
		f    walletFlags
		from string
	)
	return f.command(walletCmd{
		use:   "import",
		short: "Import the AVAX another chain exported to the key's " + c.name + "-Chain address",
		long: "Import every AVAX UTXO the chain --from exported to the key's " + c.name + "-Chain address, less\n" +
			c.fee + "; then wait until the node accepts it.",
		flags: func(fs *pflag.FlagSet) {
			fs.StringVar(&from, "from", "", "source `chain`: "+c.peers)
		},
		required: []string{"from"},
		run: func(ctx context.Context, _ *pflag.FlagSet) error {
			return runTx(ctx, stdout, &f, c.open, func(ctx context.Context, w W) (T, []string, error) {
				tx, fee, err := w.Import(ctx, from)
				if err != nil {
					return tx, nil, err
				}
				return tx, []string{"imported", formatAVAX(c.received(tx)), "fee", formatAVAX(fee)}, nil
			}, c.status)
		},
	})
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
		short: "Move AVAX between the X- and P-Chains: export, then import",
		long: "Export --amount of AVAX from the key's address on the chain --from, wait until it is accepted, then\n" +
			"import everything exported to the key's address on the chain --to, and wait again. Each half\n" +
			"pays its chain's fee: the amount received is --amount less the import's fee.",
		flags: func(fs *pflag.FlagSet) {
			fs.StringVar(&from, "from", "", "source `chain`: X or P")
			fs.StringVar(&to, "to", "", "destination `chain`: X or P")
			fs.Var(amountFlag{&amount}, "amount", "amount: 1.5AVAX, 1500000000nAVAX (a bare number is nAVAX)")
		},
		required: []string{"from", "to", "amount"},
		run: func(ctx context.Context, _ *pflag.FlagSet) error {
			return f.transfer(ctx, stdout, from, to, amount)
		},
	})
}

// transferSide is one chain's half of a transfer, on the key's wallet there: each method builds
// the tx, issues it and waits until it is accepted, and returns its ID, the fee and, for an
// import, what the key received.
type transferSide interface {
	export(ctx context.Context, dest string, amount uint64, wait time.Duration) (txID ids.ID, fee uint64, err error)
	importAll(ctx context.Context, source string, wait time.Duration) (txID ids.ID, received, fee uint64, err error)
}

// side is a chain's transferSide on wallet w.
type side[W atomicWallet[T], T any] struct {
	c atomicChain[W, T]
	w W
}

func (s side[W, T]) export(ctx context.Context, dest string, amount uint64, wait time.Duration) (ids.ID, uint64, error) {
	tx, fee, err := s.w.Export(ctx, dest, "", amount)
	if err != nil {
		return ids.ID{}, 0, err
	}
	id, err := issueAndWait(ctx, s.w, tx, wait)
	return id, fee, err
}

func (s side[W, T]) importAll(ctx context.Context, source string, wait time.Duration) (ids.ID, uint64, uint64, error) {
	tx, fee, err := s.w.Import(ctx, source)
	if err != nil {
		return ids.ID{}, 0, 0, err
	}
	id, err := issueAndWait(ctx, s.w, tx, wait)
	return id, s.c.received(tx), fee, err
}

// openSide opens the key's wallet on the chain alias, X or P.
func openSide(ctx context.Context, client *wallet.Client, key *wallet.Key, alias string) (transferSide, error) {
	if alias == xChain.name {
		return openSideOf(ctx, xChain, client, key)
	}
	return openSideOf(ctx, pChain, client, key)
}

func openSideOf[W atomicWallet[T], T any](ctx context.Context, c atomicChain[W, T], client *wallet.Client, key *wallet.Key) (transferSide, error) {
	w, err := c.open(ctx, client, key, clock.Real{})
	return side[W, T]{c: c, w: w}, err
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

func isTransferChain(alias string) bool { return alias == xChain.name || alias == pChain.name }

// issueAndWait issues tx on w and waits until it is accepted.
func issueAndWait[T any](ctx context.Context, w chainWallet[T], tx T, wait time.Duration) (ids.ID, error) {
	id, err := w.Issue(ctx, tx)
	if err != nil {
		return ids.ID{}, err
	}
	return id, w.WaitAccepted(ctx, id, wait)
}
