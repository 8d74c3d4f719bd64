package main

import (
	"context"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"strings"

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
		Short: "Send AVAX, create subnets and chains, and manage L1s on the P-Chain",
		Args:  cobra.NoArgs,
	}
	cmd.AddCommand(newPSendCmd(stdout), newPCreateSubnetCmd(stdout), newPCreateChainCmd(stdout),
		newPConvertSubnetCmd(stdout), newPIncreaseBalanceCmd(stdout), newPDisableValidatorCmd(stdout))
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
			return f.runP(ctx, stdout, func(ctx context.Context, p *wallet.P) (*platform.Tx, []string, error) {
				tx, err := p.Send(ctx, to, amount)
				return tx, nil, err
			})
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
			return f.runP(ctx, stdout, func(ctx context.Context, p *wallet.P) (*platform.Tx, []string, error) {
				tx, err := p.CreateSubnet(ctx, owner)
				if err != nil {
					return nil, nil, err
				}
				return tx, []string{"subnetID", tx.ID().String()}, nil
			})
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
			return f.runP(ctx, stdout, func(ctx context.Context, p *wallet.P) (*platform.Tx, []string, error) {
				tx, err := p.CreateChain(ctx, subnetID, name, vmID, genesis)
				if err != nil {
					return nil, nil, err
				}
				return tx, []string{"blockchainID", tx.ID().String()}, nil
			})
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

// runP opens the key's P-Chain wallet on the node and runs build with it, then issues the tx it
// returns, prints the tx ID and each pair of extra lines as "name: value", waits for the commit and
// says so: the tail of every `cornice p` command, run after its flags parsed.
func (f *walletFlags) runP(ctx context.Context, stdout io.Writer, build func(context.Context, *wallet.P) (tx *platform.Tx, extra []string, err error)) error {
	p, err := f.openP(ctx)
	if err != nil {
		return err
	}
	tx, extra, err := build(ctx, p)
	if err != nil {
		return err
	}
	txID, err := p.Issue(ctx, tx)
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
	if err := p.WaitAccepted(ctx, txID, f.wait); err != nil {
		return err
	}
	_, err = fmt.Fprintln(stdout, "status: Committed")
	return err
}

// newPConvertSubnetCmd builds `cornice p convert-subnet`.
func newPConvertSubnetCmd(stdout io.Writer) *cobra.Command {
	var (
		f                                        walletFlags
		subnet, chain, addr, nodeID, blsKey, pop string
		weight, balance                          uint64
	)
	cmd := &cobra.Command{
		Use:   "convert-subnet",
		Short: "Convert a subnet the key owns into an L1 with one validator",
		Long: "Convert --subnet into an L1 managed by --address on --chain, with one initial validator:\n" +
			"--validator-node-id with the BLS key --validator-bls-key and its proof of possession\n" +
			"--validator-pop, --weight, and --balance nAVAX for its continuous fee, paid by the key. The key\n" +
			"signs as the subnet's owner and is the validator's remaining balance and deactivation owner.\n" +
			"Then wait until the node commits it. Prints the validator's validation ID.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			subnetID, err := ids.FromString(subnet)
			if err != nil {
				return fmt.Errorf("--subnet: %w", err)
			}
			chainID, err := ids.FromString(chain)
			if err != nil {
				return fmt.Errorf("--chain: %w", err)
			}
			address, err := decodeHexFlag("address", addr, -1)
			if err != nil {
				return err
			}
			v := wallet.L1Validator{Weight: weight, Balance: balance}
			if v.NodeID, err = ids.NodeIDFromString(nodeID); err != nil {
				return fmt.Errorf("--validator-node-id: %w", err)
			}
			pk, err := decodeHexFlag("validator-bls-key", blsKey, platform.BLSPublicKeyLen)
			if err != nil {
				return err
			}
			sig, err := decodeHexFlag("validator-pop", pop, platform.BLSSignatureLen)
			if err != nil {
				return err
			}
			copy(v.Signer.PublicKey[:], pk)
			copy(v.Signer.Signature[:], sig)
			return f.runP(ctx, stdout, func(ctx context.Context, p *wallet.P) (*platform.Tx, []string, error) {
				tx, err := p.ConvertSubnet(ctx, subnetID, chainID, address, []wallet.L1Validator{v})
				if err != nil {
					return nil, nil, err
				}
				conv, ok := tx.Unsigned().(*platform.ConvertSubnetToL1Tx)
				if !ok {
					return nil, nil, fmt.Errorf("convert-subnet: built a %T", tx.Unsigned())
				}
				return tx, []string{"validationID", conv.ValidationID(0).String()}, nil
			})
		},
	}
	fs := cmd.Flags()
	fs.SortFlags = false
	fs.StringVar(&subnet, "subnet", "", "subnet `ID`")
	fs.StringVar(&chain, "chain", "", "manager chain `ID`")
	fs.StringVar(&addr, "address", "", "manager address in `hex`, at most 4096 bytes")
	fs.StringVar(&nodeID, "validator-node-id", "", "validator's node `ID`, NodeID-…")
	fs.StringVar(&blsKey, "validator-bls-key", "", "validator's compressed BLS public key, 48 bytes in `hex`")
	fs.StringVar(&pop, "validator-pop", "", "validator's BLS proof of possession, 96 bytes in `hex`")
	fs.Uint64Var(&weight, "weight", 0, "validator's weight, greater than zero")
	fs.Uint64Var(&balance, "balance", 0, "validator's balance in nAVAX; 0 leaves it inactive")
	f.register(fs)
	for _, name := range []string{"subnet", "chain", "address", "validator-node-id", "validator-bls-key", "validator-pop", "weight"} {
		_ = cmd.MarkFlagRequired(name)
	}
	return cmd
}

// newPIncreaseBalanceCmd builds `cornice p increase-balance`.
func newPIncreaseBalanceCmd(stdout io.Writer) *cobra.Command {
	var (
		f      walletFlags
		vid    string
		amount uint64
	)
	cmd := &cobra.Command{
		Use:   "increase-balance",
		Short: "Add to an L1 validator's balance",
		Long: "Add --amount nAVAX to the balance of the L1 validator --validation-id, paid by the key with\n" +
			"the dynamic fee; then wait until the node commits it.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			validationID, err := ids.FromString(vid)
			if err != nil {
				return fmt.Errorf("--validation-id: %w", err)
			}
			return f.runP(ctx, stdout, func(ctx context.Context, p *wallet.P) (*platform.Tx, []string, error) {
				tx, err := p.IncreaseBalance(ctx, validationID, amount)
				return tx, nil, err
			})
		},
	}
	fs := cmd.Flags()
	fs.SortFlags = false
	fs.StringVar(&vid, "validation-id", "", "validation `ID` of the L1 validator")
	fs.Uint64Var(&amount, "amount", 0, "amount in nAVAX")
	f.register(fs)
	_ = cmd.MarkFlagRequired("validation-id")
	_ = cmd.MarkFlagRequired("amount")
	return cmd
}

// newPDisableValidatorCmd builds `cornice p disable-validator`.
func newPDisableValidatorCmd(stdout io.Writer) *cobra.Command {
	var (
		f   walletFlags
		vid string
	)
	cmd := &cobra.Command{
		Use:   "disable-validator",
		Short: "Disable an L1 validator and refund its balance",
		Long: "Disable the L1 validator --validation-id, signed by the key as its sole deactivation owner and\n" +
			"paying the dynamic fee; its remaining balance goes to its remaining balance owner. Then wait\n" +
			"until the node commits it.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			validationID, err := ids.FromString(vid)
			if err != nil {
				return fmt.Errorf("--validation-id: %w", err)
			}
			return f.runP(ctx, stdout, func(ctx context.Context, p *wallet.P) (*platform.Tx, []string, error) {
				tx, err := p.DisableValidator(ctx, validationID)
				return tx, nil, err
			})
		},
	}
	fs := cmd.Flags()
	fs.SortFlags = false
	fs.StringVar(&vid, "validation-id", "", "validation `ID` of the L1 validator")
	f.register(fs)
	_ = cmd.MarkFlagRequired("validation-id")
	return cmd
}

// decodeHexFlag decodes the hex value s of --name, with or without "0x", which must be n bytes
// long unless n is negative.
func decodeHexFlag(name, s string, n int) ([]byte, error) {
	b, err := hex.DecodeString(strings.TrimPrefix(strings.TrimPrefix(s, "0x"), "0X"))
	if err != nil {
		return nil, fmt.Errorf("--%s: %w: %w", name, errHexFlag, err)
	}
	if n >= 0 && len(b) != n {
		return nil, fmt.Errorf("--%s: %w: %d bytes, want %d", name, errHexFlag, len(b), n)
	}
	return b, nil
}
