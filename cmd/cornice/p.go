package main

import (
	"bytes"
	"context"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/cornice-node/cornice/config"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/node/vmset"
	"github.com/cornice-node/cornice/vms/platform/txs"
	"github.com/cornice-node/cornice/wallet"
)

// newPCmd builds `cornice p` and its subcommands, which build, sign and issue P-Chain
// transactions through a node's API (docs/cli.md).
func newPCmd(stdout, stderr io.Writer) *cobra.Command {
	cmd := groupCmd(&cobra.Command{
		Use:   "p",
		Short: "Send AVAX, create subnets and chains, manage L1s and stake on the P-Chain",
	})
	cmd.AddCommand(newPSendCmd(stdout), newPCreateSubnetCmd(stdout), newPCreateChainCmd(stdout, stderr),
		newPConvertSubnetCmd(stdout), newPIncreaseBalanceCmd(stdout), newPDisableValidatorCmd(stdout),
		newPAddValidatorCmd(stdout), newPAddDelegatorCmd(stdout),
		pChain.exportCmd(stdout), pChain.importCmd(stdout))
	return cmd
}

// newPSendCmd builds `cornice p send`.
func newPSendCmd(stdout io.Writer) *cobra.Command {
	var (
		f      walletFlags
		to     string
		amount uint64
	)
	return f.command(walletCmd{
		use:   "send",
		short: "Send AVAX to a P-Chain address",
		long: "Send --amount nAVAX to --to, paying the dynamic fee, with change back to the key's address;\n" +
			"then wait until the node commits the transaction.",
		flags: func(fs *pflag.FlagSet) {
			fs.StringVar(&to, "to", "", "recipient's P-Chain `address`, e.g. P-local1…")
			fs.Uint64Var(&amount, "amount", 0, "amount in nAVAX")
		},
		required: []string{"to", "amount"},
		run: func(ctx context.Context, _ *pflag.FlagSet) error {
			return f.runP(ctx, stdout, func(ctx context.Context, p *wallet.P) (*txs.Tx, []string, error) {
				tx, err := p.Send(ctx, to, amount)
				return tx, nil, err
			})
		},
	})
}

// newPCreateSubnetCmd builds `cornice p create-subnet`.
func newPCreateSubnetCmd(stdout io.Writer) *cobra.Command {
	var (
		f     walletFlags
		owner string
	)
	return f.command(walletCmd{
		use:   "create-subnet",
		short: "Create a subnet owned by one address",
		long: "Create a subnet owned by --owner (default: the key's address) with a threshold of 1, paying\n" +
			"the dynamic fee; then wait until the node commits it. The subnet ID is the tx ID.",
		flags: func(fs *pflag.FlagSet) {
			fs.StringVar(&owner, "owner", "", "owner's P-Chain `address`; default the key's")
		},
		run: func(ctx context.Context, _ *pflag.FlagSet) error {
			return f.runP(ctx, stdout, func(ctx context.Context, p *wallet.P) (*txs.Tx, []string, error) {
				tx, err := p.CreateSubnet(ctx, owner)
				if err != nil {
					return nil, nil, err
				}
				return tx, []string{"subnetID", tx.ID().String()}, nil
			})
		},
	})
}

// newPCreateChainCmd builds `cornice p create-chain`.
func newPCreateChainCmd(stdout, stderr io.Writer) *cobra.Command {
	var (
		f                       walletFlags
		subnet, name, vm, gfile string
		force                   bool
	)
	return f.command(walletCmd{
		use:   "create-chain",
		short: "Create a blockchain on a subnet the key owns",
		long: "Create a blockchain named --name running --vm with the genesis in --genesis on --subnet, signed\n" +
			"by the key as the subnet's owner and paying the dynamic fee; then wait until the node commits\n" +
			"it. The blockchain ID is the tx ID.",
		flags: func(fs *pflag.FlagSet) {
			fs.StringVar(&subnet, "subnet", "", "subnet `ID`")
			fs.StringVar(&name, "name", "", "chain name: at most 128 letters, digits and spaces")
			fs.StringVar(&vm, "vm", "", "VM `ID` in CB58, or a VM name of at most 32 bytes (e.g. subnetevm)")
			fs.StringVar(&gfile, "genesis", "", "`file` holding the chain's genesis bytes")
			fs.BoolVar(&force, "force", false, "create the chain even if this cornice does not run its VM")
		},
		required: []string{"subnet", "name", "vm", "genesis"},
		run: func(ctx context.Context, _ *pflag.FlagSet) error {
			subnetID, err := parseIDFlag("subnet", subnet)
			if err != nil {
				return err
			}
			vmID, err := parseVMID(vm)
			if err != nil {
				return err
			}
			if err := checkVMRuns(vm, vmID, force, stderr); err != nil {
				return err
			}
			genesis, err := os.ReadFile(gfile)
			if err != nil {
				return fmt.Errorf("--genesis: %w", err)
			}
			return f.runP(ctx, stdout, func(ctx context.Context, p *wallet.P) (*txs.Tx, []string, error) {
				tx, err := p.CreateChain(ctx, subnetID, name, vmID, genesis)
				if err != nil {
					return nil, nil, err
				}
				return tx, []string{"blockchainID", tx.ID().String()}, nil
			})
		},
	})
}

// checkVMRuns refuses, unless force, a VM that this binary does not run (vmset.For): no cornice node
// could run the chain, and a chain cannot be removed. With force it only warns on stderr.
func checkVMRuns(flag string, vmID ids.ID, force bool, stderr io.Writer) error {
	known := vmset.For(config.Default())
	if _, ok := known[vmID]; ok {
		return nil
	}
	names := make([]string, 0, len(known))
	for id := range known {
		names = append(names, vmName(id))
	}
	slices.Sort(names)
	msg := fmt.Sprintf("--vm %q: this cornice runs no VM %s (it runs %s), so no cornice node would run the chain", flag, vmID, strings.Join(names, ", "))
	if !force {
		return fmt.Errorf("%s; pass --force to create it anyway", msg)
	}
	_, err := fmt.Fprintf(stderr, "warning: %s\n", msg)
	return err
}

// vmName is the name a VM ID is made from (ids.FromName), such as subnetevm, or the ID.
func vmName(id ids.ID) string {
	name := strings.TrimRight(string(id[:]), "\x00")
	printable := !strings.ContainsFunc(name, func(r rune) bool { return r <= ' ' || r > '~' })
	if name != "" && printable && ids.FromName(name) == id {
		return name
	}
	return id.String()
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

// runP is runTx on the key's P-Chain wallet: it prints "status: Committed" once the node commits
// the tx.
func (f *walletFlags) runP(ctx context.Context, stdout io.Writer, build func(context.Context, *wallet.P) (tx *txs.Tx, extra []string, err error)) error {
	return runTx(ctx, stdout, f, wallet.NewP, build, "Committed")
}

// newPConvertSubnetCmd builds `cornice p convert-subnet`.
func newPConvertSubnetCmd(stdout io.Writer) *cobra.Command {
	var (
		f                                        walletFlags
		subnet, chain, addr, nodeID, blsKey, pop string
		weight, balance                          uint64
		more                                     []wallet.L1Validator
	)
	return f.command(walletCmd{
		use:   "convert-subnet",
		short: "Convert a subnet the key owns into an L1 with its initial validators",
		long: "Convert --subnet into an L1 managed by --address on --chain, with one or more initial\n" +
			"validators: each --validator node-id=NodeID-…,bls-key=0x…,pop=0x…,weight=N[,balance=N] adds one,\n" +
			"and --validator-node-id with the BLS key --validator-bls-key and its proof of possession\n" +
			"--validator-pop, --weight and --balance add one more, listed first. Each balance, in nAVAX,\n" +
			"pays the validator's continuous fee and is paid by the key. The key signs as the subnet's owner\n" +
			"and is every validator's remaining balance and deactivation owner. Then wait until the node\n" +
			"commits it. Prints one validation ID per validator, in the order they were given.",
		flags: func(fs *pflag.FlagSet) {
			fs.StringVar(&subnet, "subnet", "", "subnet `ID`")
			fs.StringVar(&chain, "chain", "", "manager chain `ID`")
			fs.StringVar(&addr, "address", "", "manager address in `hex`, at most 4096 bytes")
			fs.Var(&validatorsFlag{vals: &more}, "validator",
				"an initial validator, node-id=NodeID-…,bls-key=<48 bytes hex>,pop=<96 bytes hex>,weight=N[,balance=nAVAX]; repeatable")
			fs.StringVar(&nodeID, "validator-node-id", "", "a validator's node `ID`, NodeID-…, with the next four flags")
			fs.StringVar(&blsKey, "validator-bls-key", "", "its compressed BLS public key, 48 bytes in `hex`")
			fs.StringVar(&pop, "validator-pop", "", "its BLS proof of possession, 96 bytes in `hex`")
			fs.Uint64Var(&weight, "weight", 0, "its weight, greater than zero")
			fs.Uint64Var(&balance, "balance", 0, "its balance in nAVAX; 0 leaves it inactive")
		},
		required: []string{"subnet", "chain", "address"},
		run: func(ctx context.Context, single *pflag.FlagSet) error {
			subnetID, err := parseIDFlag("subnet", subnet)
			if err != nil {
				return err
			}
			chainID, err := parseIDFlag("chain", chain)
			if err != nil {
				return err
			}
			address, err := decodeHexFlag("address", addr, -1)
			if err != nil {
				return err
			}
			var vals []wallet.L1Validator
			switch {
			case single.Changed("validator-node-id") && single.Changed("validator-bls-key") &&
				single.Changed("validator-pop") && single.Changed("weight"):
				v, err := parseL1Validator(nodeID, blsKey, pop, "validator-")
				if err != nil {
					return err
				}
				v.Weight, v.Balance = weight, balance
				vals = append(vals, v)
			case single.Changed("validator-node-id") || single.Changed("validator-bls-key") ||
				single.Changed("validator-pop") || single.Changed("weight") || single.Changed("balance"):
				return errValidatorFlags
			}
			vals = append(vals, more...)
			if len(vals) == 0 {
				return errNoValidator
			}
			return f.runP(ctx, stdout, func(ctx context.Context, p *wallet.P) (*txs.Tx, []string, error) {
				tx, err := p.ConvertSubnet(ctx, subnetID, chainID, address, vals)
				if err != nil {
					return nil, nil, err
				}
				conv, ok := tx.Unsigned().(*txs.ConvertSubnetToL1Tx)
				if !ok {
					return nil, nil, fmt.Errorf("convert-subnet: built a %T", tx.Unsigned())
				}
				return tx, validationIDLines(conv, vals), nil
			})
		},
	})
}

// validationIDLines returns a "validationID" pair for each of vals, in their order: the tx sorts
// its validators by node ID, and validator i of the tx has ValidationID(i).
func validationIDLines(conv *txs.ConvertSubnetToL1Tx, vals []wallet.L1Validator) []string {
	var out []string
	for _, v := range vals {
		for i := range conv.Validators {
			if bytes.Equal(conv.Validators[i].NodeID, v.NodeID[:]) {
				out = append(out, "validationID", conv.ValidationID(uint32(i)).String())
				break
			}
		}
	}
	return out
}

// The texts of convert-subnet's validator flags: cornice's own, as the reference has no CLI.

// validatorsFlag is the repeatable --validator: each use appends one validator to *vals.
type validatorsFlag struct {
	vals *[]wallet.L1Validator
	// specs are the values given, for String.
	specs []string
}

// String returns the values given so far, separated by spaces.
func (f *validatorsFlag) String() string { return strings.Join(f.specs, " ") }

// Type names the value in the help text.
func (*validatorsFlag) Type() string { return "validator" }

// Set parses one validator, comma-separated key=value fields: node-id, bls-key, pop and weight,
// required, and balance, 0 if left out.
func (f *validatorsFlag) Set(s string) error {
	fields := make(map[string]string)
	for kv := range strings.SplitSeq(s, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
		switch k {
		case "node-id", "bls-key", "pop", "weight", "balance":
		default:
			return fmt.Errorf("%w: unknown field %q", errValidatorSpec, k)
		}
		if !ok {
			return fmt.Errorf("%w: %s has no value", errValidatorSpec, k)
		}
		if _, dup := fields[k]; dup {
			return fmt.Errorf("%w: %s given twice", errValidatorSpec, k)
		}
		fields[k] = v
	}
	for _, k := range []string{"node-id", "bls-key", "pop", "weight"} {
		if _, ok := fields[k]; !ok {
			return fmt.Errorf("%w: %s missing", errValidatorSpec, k)
		}
	}
	v, err := parseL1Validator(fields["node-id"], fields["bls-key"], fields["pop"], "validator ")
	if err != nil {
		return err
	}
	if v.Weight, err = parseUintField("--validator weight", fields["weight"]); err != nil {
		return err
	}
	if b, ok := fields["balance"]; ok {
		if v.Balance, err = parseUintField("--validator balance", b); err != nil {
			return err
		}
	}
	*f.vals = append(*f.vals, v)
	f.specs = append(f.specs, s)
	return nil
}

// parseL1Validator reads a validator's node ID, BLS key and proof of possession; errors name the
// flag as --<prefix>node-id, --<prefix>bls-key and --<prefix>pop.
func parseL1Validator(nodeID, blsKey, pop, prefix string) (wallet.L1Validator, error) {
	var v wallet.L1Validator
	var err error
	if v.NodeID, err = ids.NodeIDFromString(nodeID); err != nil {
		return v, fmt.Errorf("--%snode-id: %q is not a node ID: expected NodeID-<CB58>, as info.getNodeID answers", prefix, nodeID)
	}
	pk, err := decodeHexFlag(prefix+"bls-key", blsKey, txs.BLSPublicKeyLen)
	if err != nil {
		return v, err
	}
	sig, err := decodeHexFlag(prefix+"pop", pop, txs.BLSSignatureLen)
	if err != nil {
		return v, err
	}
	copy(v.Signer.PublicKey[:], pk)
	copy(v.Signer.Signature[:], sig)
	return v, nil
}

// newPIncreaseBalanceCmd builds `cornice p increase-balance`.
func newPIncreaseBalanceCmd(stdout io.Writer) *cobra.Command {
	var (
		f      walletFlags
		vid    string
		amount uint64
	)
	return f.command(walletCmd{
		use:   "increase-balance",
		short: "Add to an L1 validator's balance",
		long: "Add --amount nAVAX to the balance of the L1 validator --validation-id, paid by the key with\n" +
			"the dynamic fee; then wait until the node commits it.",
		flags: func(fs *pflag.FlagSet) {
			registerValidationIDFlag(fs, &vid)
			fs.Uint64Var(&amount, "amount", 0, "amount in nAVAX")
		},
		required: []string{"validation-id", "amount"},
		run: func(ctx context.Context, _ *pflag.FlagSet) error {
			return f.runValidatorTx(ctx, stdout, vid, func(ctx context.Context, p *wallet.P, validationID ids.ID) (*txs.Tx, error) {
				return p.IncreaseBalance(ctx, validationID, amount)
			})
		},
	})
}

// newPDisableValidatorCmd builds `cornice p disable-validator`.
func newPDisableValidatorCmd(stdout io.Writer) *cobra.Command {
	var (
		f   walletFlags
		vid string
	)
	return f.command(walletCmd{
		use:   "disable-validator",
		short: "Disable an L1 validator and refund its balance",
		long: "Disable the L1 validator --validation-id, signed by the key as its sole deactivation owner and\n" +
			"paying the dynamic fee; its remaining balance goes to its remaining balance owner. Then wait\n" +
			"until the node commits it.",
		flags: func(fs *pflag.FlagSet) {
			registerValidationIDFlag(fs, &vid)
		},
		required: []string{"validation-id"},
		run: func(ctx context.Context, _ *pflag.FlagSet) error {
			return f.runValidatorTx(ctx, stdout, vid, func(ctx context.Context, p *wallet.P, validationID ids.ID) (*txs.Tx, error) {
				return p.DisableValidator(ctx, validationID)
			})
		},
	})
}

// registerValidationIDFlag defines --validation-id, the L1 validator a command acts on.
func registerValidationIDFlag(fs *pflag.FlagSet, vid *string) {
	fs.StringVar(vid, "validation-id", "", "validation `ID` of the L1 validator")
}

// runValidatorTx is runP for a tx on the one L1 validator whose --validation-id is vid: build
// makes the tx, and no extra lines are printed.
func (f *walletFlags) runValidatorTx(ctx context.Context, stdout io.Writer, vid string,
	build func(context.Context, *wallet.P, ids.ID) (*txs.Tx, error),
) error {
	validationID, err := parseIDFlag("validation-id", vid)
	if err != nil {
		return err
	}
	return f.runP(ctx, stdout, func(ctx context.Context, p *wallet.P) (*txs.Tx, []string, error) {
		tx, err := build(ctx, p, validationID)
		return tx, nil, err
	})
}

// decodeHexFlag decodes the hex value s of --name, with or without "0x", which must be n bytes
// long unless n is negative.
func decodeHexFlag(name, s string, n int) ([]byte, error) {
	b, err := hex.DecodeString(strings.TrimPrefix(strings.TrimPrefix(s, "0x"), "0X"))
	if err != nil {
		return nil, fmt.Errorf("--%s: %w: %q is not hex", name, errHexFlag, s)
	}
	if n >= 0 && len(b) != n {
		return nil, fmt.Errorf("--%s: %w: %d bytes, want %d", name, errHexFlag, len(b), n)
	}
	return b, nil
}
