package main

import (
	"context"
	"fmt"
	"io"

	"github.com/ethereum/go-ethereum/common"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/cornice-node/cornice/crypto/bls"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/wallet/acp99"
)

// managerFlags are the flags every `cornice l1` validator command shares: the L1, its manager
// and the validator's node.
type managerFlags struct {
	wallet   walletFlags
	subnetID string
	manager  string
	nodeID   string
}

const managerLong = "\n\nThe manager must follow ACP-99 (the functions and events of icm-contracts' ValidatorManager;\n" +
	"wallet/acp99/contracts/ValidatorManager.sol is one) and be owned by --key. Every step is printed:\n" +
	"the manager's initiate… call, the L1's signature of the warp message it sent (the node's\n" +
	"/ext/aggregate-signatures), the P-Chain tx that carries it, the P-Chain's signed answer, and the\n" +
	"manager's complete… call with that answer as its warp predicate."

// registerL1 defines --subnet-id and --manager.
func (m *managerFlags) registerL1(fs *pflag.FlagSet) {
	fs.StringVar(&m.subnetID, "subnet-id", "", "the L1's subnet `ID`")
	fs.StringVar(&m.manager, "manager", "", "`address` of the manager contract (default: the one the P-Chain recorded at the conversion)")
}

// register defines --subnet-id, --manager and --node-id.
func (m *managerFlags) register(fs *pflag.FlagSet) {
	m.registerL1(fs)
	fs.StringVar(&m.nodeID, "node-id", "", "the validator's node `ID`, NodeID-…")
}

// open parses the flags and connects to the L1's manager through the node.
func (m *managerFlags) open(ctx context.Context, stdout io.Writer) (*acp99.Flow, ids.NodeID, error) {
	var nodeID ids.NodeID
	if m.nodeID != "" {
		var err error
		if nodeID, err = ids.NodeIDFromString(m.nodeID); err != nil {
			return nil, ids.NodeID{}, fmt.Errorf("--node-id: %w", err)
		}
	}
	subnetID, err := ids.FromString(m.subnetID)
	if err != nil {
		return nil, ids.NodeID{}, fmt.Errorf("--subnet-id: %w", err)
	}
	var manager *common.Address
	if m.manager != "" {
		if !common.IsHexAddress(m.manager) {
			return nil, ids.NodeID{}, fmt.Errorf("--manager: %q is not a hex address", m.manager)
		}
		a := common.HexToAddress(m.manager)
		manager = &a
	}
	key, client, err := m.wallet.connect()
	if err != nil {
		return nil, ids.NodeID{}, err
	}
	f, err := acp99.NewFlow(ctx, client, key, subnetID, manager, m.wallet.wait, stdout)
	if err != nil {
		return nil, ids.NodeID{}, unreachableError(client.URI(), err)
	}
	fmt.Fprintf(stdout, "manager: %s\n", f.Manager())
	return f, nodeID, nil
}

// newL1InitValidatorSetCmd builds `cornice l1 init-validator-set`.
func newL1InitValidatorSetCmd(stdout io.Writer) *cobra.Command {
	var m managerFlags
	return m.wallet.command(walletCmd{
		use:   "init-validator-set",
		short: "Initialize an L1's ACP-99 validator manager with the conversion's validators",
		long: "Call the manager's initializeValidatorSet with the conversion data of the L1 --subnet-id (the\n" +
			"manager and initial validators the P-Chain recorded, checked against its conversion ID) and the\n" +
			"P-Chain's SubnetToL1Conversion message as its warp predicate. Needed once, before the other\n" +
			"commands." + managerLong,
		flags:    m.registerL1,
		required: []string{"subnet-id"},
		run: func(ctx context.Context, _ *pflag.FlagSet) error {
			f, _, err := m.open(ctx, stdout)
			if err != nil {
				return err
			}
			defer f.Close()
			d, err := f.ConversionData(ctx)
			if err != nil {
				return err
			}
			return f.InitializeValidatorSet(ctx, d)
		},
	})
}

// newL1AddValidatorCmd builds `cornice l1 add-validator`.
func newL1AddValidatorCmd(stdout io.Writer) *cobra.Command {
	var (
		m              managerFlags
		pub, pop       string
		weight, amount uint64
	)
	return m.wallet.command(walletCmd{
		use:   "add-validator",
		short: "Add a validator to an L1 through its ACP-99 validator manager",
		long: "Register --node-id as a validator of the L1 --subnet-id with --weight, through the L1's manager:\n" +
			"initiateValidatorRegistration, RegisterL1ValidatorTx (paying --balance nAVAX from the key, whose\n" +
			"P-Chain address owns the remaining balance and may disable the validator),\n" +
			"completeValidatorRegistration. Prints the validation ID." + managerLong,
		flags: func(fs *pflag.FlagSet) {
			m.register(fs)
			fs.StringVar(&pub, "bls-public-key", "", "the node's compressed BLS public `key` in hex (info.getNodeID's nodePOP.publicKey)")
			fs.StringVar(&pop, "bls-pop", "", "the node's BLS proof of `possession` in hex (info.getNodeID's nodePOP.proofOfPossession)")
			fs.Uint64Var(&weight, "weight", defaultL1Weight, "the validator's weight")
			fs.Uint64Var(&amount, "balance", defaultL1Balance, "the validator's balance in nAVAX, paid by the key")
		},
		required: []string{"subnet-id", "node-id", "bls-public-key", "bls-pop"},
		run: func(ctx context.Context, _ *pflag.FlagSet) error {
			var signer bls.ProofOfPossession
			pk, err := decodeHexFlag("bls-public-key", pub, len(signer.PublicKey))
			if err != nil {
				return err
			}
			sig, err := decodeHexFlag("bls-pop", pop, len(signer.ProofOfPossession))
			if err != nil {
				return err
			}
			copy(signer.PublicKey[:], pk)
			copy(signer.ProofOfPossession[:], sig)
			f, nodeID, err := m.open(ctx, stdout)
			if err != nil {
				return err
			}
			defer f.Close()
			vid, err := f.AddValidator(ctx, acp99.Validator{NodeID: nodeID, Signer: signer, Weight: weight, Balance: amount})
			if err != nil {
				return err
			}
			_, err = fmt.Fprintf(stdout, "validationID: %s\n", vid)
			return err
		},
	})
}

// newL1SetWeightCmd builds `cornice l1 set-weight`.
func newL1SetWeightCmd(stdout io.Writer) *cobra.Command {
	var (
		m      managerFlags
		weight uint64
	)
	return m.wallet.command(walletCmd{
		use:   "set-weight",
		short: "Change the weight of an L1 validator through its ACP-99 validator manager",
		long: "Set the weight of --node-id's validation on the L1 --subnet-id to --weight, through the L1's\n" +
			"manager: initiateValidatorWeightUpdate, SetL1ValidatorWeightTx, completeValidatorWeightUpdate." + managerLong,
		flags: func(fs *pflag.FlagSet) {
			m.register(fs)
			fs.Uint64Var(&weight, "weight", 0, "the new weight, not 0 (remove-validator removes)")
		},
		required: []string{"subnet-id", "node-id", "weight"},
		run: func(ctx context.Context, _ *pflag.FlagSet) error {
			f, nodeID, err := m.open(ctx, stdout)
			if err != nil {
				return err
			}
			defer f.Close()
			return f.SetWeight(ctx, nodeID, weight)
		},
	})
}

// newL1RemoveValidatorCmd builds `cornice l1 remove-validator`.
func newL1RemoveValidatorCmd(stdout io.Writer) *cobra.Command {
	var m managerFlags
	return m.wallet.command(walletCmd{
		use:   "remove-validator",
		short: "Remove an L1 validator through its ACP-99 validator manager",
		long: "End --node-id's validation on the L1 --subnet-id through the L1's manager:\n" +
			"initiateValidatorRemoval, SetL1ValidatorWeightTx with weight 0, completeValidatorRemoval with the\n" +
			"P-Chain's L1ValidatorRegistration(false). Only validators the manager registered itself: the\n" +
			"conversion's initial validators are not supported yet." + managerLong,
		flags:    m.register,
		required: []string{"subnet-id", "node-id"},
		run: func(ctx context.Context, _ *pflag.FlagSet) error {
			f, nodeID, err := m.open(ctx, stdout)
			if err != nil {
				return err
			}
			defer f.Close()
			return f.RemoveValidator(ctx, nodeID)
		},
	})
}
