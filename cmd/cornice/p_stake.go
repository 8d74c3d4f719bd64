package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/platform/txs"
	"github.com/cornice-node/cornice/wallet"
)

// Defaults of the staking commands: the local network's minimum delegation fee, and two weeks.
const (
	defaultDelegationFee = 2.0
	defaultStakeDuration = 14 * 24 * time.Hour
)

// errAmount is the text of a malformed --stake.
var errAmount = errors.New("want an amount such as 2000AVAX, 0.5AVAX or 25000000000nAVAX (a bare number is nAVAX)")

// parseAVAXAmount reads an amount of AVAX: a number followed by AVAX (up to 9 decimals) or by
// nAVAX, or a bare whole number of nAVAX.
func parseAVAXAmount(name, s string) (uint64, error) {
	v := strings.TrimSpace(s)
	unit := uint64(1)
	switch {
	case strings.HasSuffix(v, "nAVAX"):
		v = strings.TrimSpace(strings.TrimSuffix(v, "nAVAX"))
	case strings.HasSuffix(v, "AVAX"):
		v, unit = strings.TrimSpace(strings.TrimSuffix(v, "AVAX")), 1_000_000_000
	}
	whole, frac, hasFrac := strings.Cut(v, ".")
	if whole == "" || (hasFrac && (unit == 1 || frac == "" || len(frac) > 9)) {
		return 0, fmt.Errorf("--%s %q: %w", name, s, errAmount)
	}
	w, err := strconv.ParseUint(whole, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("--%s %q: %w", name, s, errAmount)
	}
	var f uint64
	if hasFrac {
		if f, err = strconv.ParseUint(frac+strings.Repeat("0", 9-len(frac)), 10, 64); err != nil {
			return 0, fmt.Errorf("--%s %q: %w", name, s, errAmount)
		}
	}
	if w > (math.MaxUint64-f)/unit {
		return 0, fmt.Errorf("--%s %q: more than 2^64-1 nAVAX", name, s)
	}
	return w*unit + f, nil
}

// formatAVAX shows n nAVAX in AVAX and nAVAX.
func formatAVAX(n uint64) string {
	s := fmt.Sprintf("%d.%09d", n/1_000_000_000, n%1_000_000_000)
	return strings.TrimSuffix(strings.TrimRight(s, "0"), ".") + " AVAX (" + strconv.FormatUint(n, 10) + " nAVAX)"
}

// stakeFlags are the flags add-validator and add-delegator share.
type stakeFlags struct {
	stake        string
	duration     time.Duration
	validatorURI string
}

func (s *stakeFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&s.stake, "stake", "", "`amount` to stake: 2000AVAX, 0.5AVAX or 25000000000nAVAX (a bare number is nAVAX)")
	fs.DurationVar(&s.duration, "duration", defaultStakeDuration, "staking period from now; at least 24h and at most 8760h on local")
	fs.StringVar(&s.validatorURI, "validator-uri", "", "`URI` of the validator node whose info.getNodeID names it; default --node-uri")
}

// staker reads the flags into what the wallet stakes, for the node nodeID.
func (s *stakeFlags) staker(nodeID ids.NodeID) (wallet.Staker, error) {
	amount, err := parseAVAXAmount("stake", s.stake)
	if err != nil {
		return wallet.Staker{}, err
	}
	return wallet.Staker{NodeID: nodeID, End: time.Now().Add(s.duration), Stake: amount}, nil
}

// validatorIdentity returns the node ID and proof of possession of the node at --validator-uri,
// or of the wallet's node.
func (s *stakeFlags) validatorIdentity(ctx context.Context, p *wallet.P) (ids.NodeID, txs.ProofOfPossession, error) {
	if s.validatorURI == "" {
		return p.NodeIdentity(ctx)
	}
	client, err := wallet.NewClient(defaultScheme(s.validatorURI), nil)
	if err != nil {
		return ids.NodeID{}, txs.ProofOfPossession{}, fmt.Errorf("--validator-uri: %q is not a node's URI such as %s", s.validatorURI, defaultNodeURI)
	}
	nodeID, pop, err := wallet.NodeIdentity(ctx, client)
	if err != nil {
		return ids.NodeID{}, txs.ProofOfPossession{}, unreachableError(client.URI(), err)
	}
	return nodeID, pop, nil
}

// stakeLines are the lines a staking command prints after the tx ID.
func stakeLines(p *wallet.P, tx *txs.Tx, nodeID ids.NodeID, stake uint64) []string {
	return []string{"nodeID", nodeID.String(), "stake", formatAVAX(stake), "fee", formatAVAX(p.Burned(tx))}
}

// newPAddValidatorCmd builds `cornice p add-validator`.
func newPAddValidatorCmd(stdout io.Writer) *cobra.Command {
	var (
		f   walletFlags
		s   stakeFlags
		fee float64
	)
	return f.command(walletCmd{
		use:   "add-validator",
		short: "Make a node a Primary Network validator, staking the key's AVAX",
		long: "Stake --stake of the key's AVAX to make the node at --validator-uri (default: --node-uri) a\n" +
			"Primary Network validator for --duration from now, with its node ID and BLS proof of\n" +
			"possession from its info.getNodeID; delegators pay it --delegation-fee percent of their\n" +
			"rewards. The stake and the rewards go back to the key's address when the period ends. Pays\n" +
			"the dynamic fee and waits until the node commits the tx; prints the fee.",
		flags: func(fs *pflag.FlagSet) {
			s.register(fs)
			fs.Float64Var(&fee, "delegation-fee", defaultDelegationFee, "delegation fee in `percent`, at least 2 on local")
		},
		required: []string{"stake"},
		run: func(ctx context.Context, _ *pflag.FlagSet) error {
			if fee < 0 || fee > 100 {
				return fmt.Errorf("--delegation-fee %v: want a percentage from 0 to 100", fee)
			}
			return f.runP(ctx, stdout, func(ctx context.Context, p *wallet.P) (*txs.Tx, []string, error) {
				nodeID, pop, err := s.validatorIdentity(ctx, p)
				if err != nil {
					return nil, nil, err
				}
				st, err := s.staker(nodeID)
				if err != nil {
					return nil, nil, err
				}
				tx, err := p.AddValidator(ctx, st, pop, uint32(math.Round(fee*10_000)))
				if err != nil {
					return nil, nil, err
				}
				return tx, stakeLines(p, tx, nodeID, st.Stake), nil
			})
		},
	})
}

// newPAddDelegatorCmd builds `cornice p add-delegator`.
func newPAddDelegatorCmd(stdout io.Writer) *cobra.Command {
	var (
		f      walletFlags
		s      stakeFlags
		nodeID string
	)
	return f.command(walletCmd{
		use:   "add-delegator",
		short: "Delegate the key's AVAX to a Primary Network validator",
		long: "Delegate --stake of the key's AVAX to the validator --node-id (default: the node at\n" +
			"--validator-uri, else at --node-uri) for --duration from now, within the validator's period.\n" +
			"The stake and the reward go back to the key's address when the period ends. Pays the dynamic\n" +
			"fee and waits until the node commits the tx; prints the fee.",
		flags: func(fs *pflag.FlagSet) {
			s.register(fs)
			fs.StringVar(&nodeID, "node-id", "", "validator's `NodeID-…`")
		},
		required: []string{"stake"},
		run: func(ctx context.Context, _ *pflag.FlagSet) error {
			return f.runP(ctx, stdout, func(ctx context.Context, p *wallet.P) (*txs.Tx, []string, error) {
				id, err := ids.NodeIDFromString(nodeID)
				if nodeID == "" {
					id, _, err = s.validatorIdentity(ctx, p)
				} else if err != nil {
					err = fmt.Errorf("--node-id %q: %w", nodeID, err)
				}
				if err != nil {
					return nil, nil, err
				}
				st, err := s.staker(id)
				if err != nil {
					return nil, nil, err
				}
				tx, err := p.AddDelegator(ctx, st)
				if err != nil {
					return nil, nil, err
				}
				return tx, stakeLines(p, tx, id, st.Stake), nil
			})
		},
	})
}
