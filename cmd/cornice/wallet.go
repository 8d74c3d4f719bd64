package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/wallet"
)

// Defaults of the wallet commands' flags.
const (
	defaultNodeURI = "http://127.0.0.1:9650"
	// defaultWait bounds how long `cornice x` commands wait for acceptance.
	defaultWait = 30 * time.Second
)

// walletFlags are the flags the commands that sign share: the node to talk to and the key.
type walletFlags struct {
	nodeURI string
	key     string
	wait    time.Duration
}

// register defines --node-uri, --key and --wait.
func (f *walletFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.nodeURI, "node-uri", defaultNodeURI, "`URI` of the node's HTTP API; http:// when it has no scheme")
	registerKeyFlag(fs, &f.key)
	fs.DurationVar(&f.wait, "wait", defaultWait, "how long to wait for the transaction to be accepted")
}

// registerKeyFlag defines --key.
func registerKeyFlag(fs *pflag.FlagSet, key *string) {
	fs.StringVar(key, "key", wallet.LocalKey,
		"private `key`, PrivateKey-<CB58> or hex; the default, the well-known local key, works only on local and custom networks")
}

// connect parses --key and makes a client for --node-uri.
func (f *walletFlags) connect() (*wallet.Key, *wallet.Client, error) {
	key, err := wallet.ParseKey(f.key)
	if err != nil {
		return nil, nil, fmt.Errorf("--key: %w", err)
	}
	client, err := wallet.NewClient(defaultScheme(f.nodeURI), nil)
	if err != nil {
		return nil, nil, fmt.Errorf("--node-uri: %q is not a node's URI such as %s", f.nodeURI, defaultNodeURI)
	}
	return key, client, nil
}

// walletCmd describes a command that signs with the key: the `cornice p` and `cornice x`
// subcommands.
type walletCmd struct {
	use, short, long string
	// flags defines the command's own flags; they come before --node-uri, --key and --wait.
	flags func(fs *pflag.FlagSet)
	// required names the command's flags that must be given.
	required []string
	// run does the job once the flags are parsed; fs is the command's flag set.
	run func(ctx context.Context, fs *pflag.FlagSet) error
}

// command builds the cobra command c describes, with f's flags after its own, in the order
// defined, and no arguments.
func (f *walletFlags) command(c walletCmd) *cobra.Command {
	cmd := &cobra.Command{
		Use:   c.use,
		Short: c.short,
		Long:  c.long,
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return c.run(cmd.Context(), cmd.Flags())
		},
	}
	fs := cmd.Flags()
	fs.SortFlags = false
	if c.flags != nil {
		c.flags(fs)
	}
	f.register(fs)
	for _, name := range c.required {
		_ = cmd.MarkFlagRequired(name)
	}
	return cmd
}

// chainWallet is what a command needs of a chain's wallet (wallet.P, wallet.X) once it has built
// a transaction of type T.
type chainWallet[T any] interface {
	Issue(ctx context.Context, tx T) (ids.ID, error)
	WaitAccepted(ctx context.Context, txID ids.ID, timeout time.Duration) error
}

// openFunc opens a chain's wallet for key on the node client talks to, as wallet.NewP and
// wallet.NewX do.
type openFunc[W any] func(ctx context.Context, client *wallet.Client, key *wallet.Key, clk clock.Clock) (W, error)

// runTx is the tail of every `cornice p` and `cornice x` command, run after its flags parsed: it
// opens the key's wallet on the node with open and runs build with it, then issues the tx build
// returns, prints the tx ID and each pair of extra lines as "name: value", waits until the node
// takes the tx and prints "status: <status>".
func runTx[W chainWallet[T], T any](ctx context.Context, stdout io.Writer, f *walletFlags, open openFunc[W],
	build func(context.Context, W) (tx T, extra []string, err error), status string,
) error {
	key, client, err := f.connect()
	if err != nil {
		return err
	}
	w, err := open(ctx, client, key, clock.Real{})
	if err != nil {
		return unreachableError(client.URI(), err)
	}
	tx, extra, err := build(ctx, w)
	if err != nil {
		return err
	}
	txID, err := w.Issue(ctx, tx)
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintf(stdout, "txID: %s\n", txID); err != nil {
		return err
	}
	for i := 0; i+1 < len(extra); i += 2 {
		if _, err := fmt.Fprintf(stdout, "%s: %s\n", extra[i], extra[i+1]); err != nil {
			return err
		}
	}
	if err := w.WaitAccepted(ctx, txID, f.wait); err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "status: %s\n", status)
	return err
}

// unreachableError says, for a request that never reached a node (nothing listens, a wrong host),
// that no node answers at uri and how to fix it, in place of the HTTP client's text; any other
// err is returned as is.
func unreachableError(uri string, err error) error {
	if _, ok := errors.AsType[*net.OpError](err); ok {
		return fmt.Errorf("no node answers at %s: start one with `cornice run`, or give its URI with --node-uri", uri)
	}
	return err
}

// parseIDFlag reads the CB58 ID s given as --name.
func parseIDFlag(name, s string) (ids.ID, error) {
	id, err := ids.FromString(s)
	if err != nil {
		return ids.ID{}, fmt.Errorf("--%s: %q is not an ID: expected the CB58 text of one, as a command printed it", name, s)
	}
	return id, nil
}
