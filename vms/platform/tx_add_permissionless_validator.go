package platform

import (
	"errors"
	"fmt"
	"time"

	"github.com/cornice-node/cornice/crypto/bls"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/components/utxo"
	"github.com/cornice-node/cornice/vms/platform/txs"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// An AddPermissionlessValidatorTx adds a Primary Network validator from the chain time to its
// end, with a BLS key proven by its proof of possession, within the staking rules (§4.9); its
// potential reward is fixed then and reserved in the supply (§4.10). Its stake leaves the
// inputs and comes back when it is rewarded. The reference's texts: staker_tx_verification.go,
// add_permissionless_validator_tx.go.

// Staking errors.
var (
	ErrNoStake                    = errors.New("no stake")
	ErrTooManyShares              = errors.New("a staker can only require at most 100% reward")
	ErrInvalidSigner              = errors.New("invalid signer")
	ErrValidatorWeightMismatch    = errors.New("validator weight mismatch")
	ErrMultipleStakedAssets       = errors.New("multiple staked assets")
	ErrWeightTooSmall             = errors.New("weight of this validator is too low")
	ErrWeightTooLarge             = errors.New("weight of this validator is too large")
	ErrInsufficientDelegationFee  = errors.New("staker charges an insufficient delegation fee")
	ErrStakeTooShort              = errors.New("staking period is too short")
	ErrStakeTooLong               = errors.New("staking period is too long")
	ErrWrongStakedAssetID         = errors.New("incorrect staked assetID")
	ErrDuplicateValidator         = errors.New("duplicate validator")
	ErrPeriodMismatch             = errors.New("proposed staking period is not inside dependant staking period")
	ErrOverDelegated              = errors.New("validator would be over delegated")
	ErrNotPermissionlessSubnet    = errors.New("only the Primary Network takes permissionless stakers")
	ErrCantIssueRewardValidatorTx = errors.New("can not issue a reward validator tx")
)

func (*syntacticCheck) AddPermissionlessValidatorTx(tx *txs.AddPermissionlessValidatorTx) error {
	switch {
	case len(tx.Stake) == 0:
		return ErrNoStake
	case tx.DelegationShares > PercentDenominator:
		return ErrTooManyShares
	}
	hasKey := false
	var err error
	switch s := tx.Signer.(type) {
	case *txs.ProofOfPossession:
		hasKey = true
		pop := bls.ProofOfPossession{PublicKey: s.PublicKey, ProofOfPossession: s.Signature}
		if perr := pop.Verify(); perr != nil {
			err = fmt.Errorf("%w: %w", ErrInvalidProofOfPossession, perr)
		}
	}
	if err == nil && tx.Validator.Weight == 0 {
		err = ErrWeightTooSmall
	}
	for _, o := range []*secp256k1fx.OutputOwners{&tx.ValidatorRewardsOwner, &tx.DelegatorRewardsOwner} {
		if err == nil {
			err = o.Verify()
		}
	}
	if err != nil {
		return fmt.Errorf("failed to verify validator, signer, or rewards owners: %w", err)
	}
	if isPrimary := tx.SubnetID == ids.Empty; hasKey != isPrimary {
		return fmt.Errorf("%w: hasKey=%v != isPrimaryNetwork=%v", ErrInvalidSigner, hasKey, isPrimary)
	}
	return verifyStake(tx.Stake, tx.Validator.Weight)
}

// verifyStake checks stake outputs: unlocked transfers of one asset, valid, sorted, adding up to
// the staker's weight.
func verifyStake(stake []txs.TransferableOutput, weight uint64) error {
	if len(stake) == 0 {
		return ErrNoStake
	}
	var (
		total uint64
		prev  []byte
		err   error
	)
	for i := range stake {
		out := &stake[i]
		to, ok := out.Out.(*secp256k1fx.TransferOutput)
		if !ok {
			return fmt.Errorf("stake output %d: %w", i, ErrWrongOutputType)
		}
		if err := to.Verify(); err != nil {
			return fmt.Errorf("stake output %d: %w", i, err)
		}
		if out.AssetID != stake[0].AssetID {
			return ErrMultipleStakedAssets
		}
		key := utxo.OutputSortKey(out)
		if prev != nil && string(prev) > string(key) {
			return utxo.ErrOutputsNotSorted
		}
		prev = key
		if total, err = add(total, to.Amount); err != nil {
			return err
		}
	}
	if total != weight {
		return fmt.Errorf("%w: weight %d != stake %d", ErrValidatorWeightMismatch, weight, total)
	}
	return nil
}

func (x *executor) AddPermissionlessValidatorTx(tx *txs.AddPermissionlessValidatorTx) error {
	if tx.SubnetID != ids.Empty {
		return fmt.Errorf("%w: %s", ErrNotPermissionlessSubnet, tx.SubnetID)
	}
	cfg := &x.r.staking
	v := &tx.Validator
	d := stakingPeriod(x.now, v.End)
	switch {
	case v.Weight < cfg.MinValidatorStake:
		return ErrWeightTooSmall
	case v.Weight > cfg.MaxValidatorStake:
		return ErrWeightTooLarge
	case tx.DelegationShares < cfg.MinDelegationFee:
		return ErrInsufficientDelegationFee
	case d < cfg.MinStakeDuration:
		return ErrStakeTooShort
	case d > cfg.MaxStakeDuration:
		return ErrStakeTooLong
	}
	if err := x.checkStakeAsset(tx.Stake); err != nil {
		return err
	}
	stakers, err := x.src.nodeStakers(v.NodeID)
	if err != nil {
		return err
	}
	if validatorOf(stakers) != nil {
		return fmt.Errorf("%w: %s on %s", ErrDuplicateValidator, v.NodeID, tx.SubnetID)
	}
	return x.addStaker(&staker{nodeID: v.NodeID, start: x.now, end: v.End, weight: v.Weight}, d)
}

// stakingPeriod is the length of a staking period from start to end, negative if end is not
// after start.
func stakingPeriod(start, end uint64) time.Duration {
	if end <= start {
		return -1
	}
	return time.Duration(min(end-start, 1<<32)) * time.Second
}

// checkStakeAsset refuses stake in another asset than AVAX.
func (x *executor) checkStakeAsset(stake []txs.TransferableOutput) error {
	if stake[0].AssetID != x.r.avaxAssetID {
		return fmt.Errorf("%w: %s != %s", ErrWrongStakedAssetID, stake[0].AssetID, x.r.avaxAssetID)
	}
	return nil
}

// addStaker records st, added by the executed tx for a period of d, with its potential reward
// on the current supply; the inputs pay its stake.
func (x *executor) addStaker(st *staker, d time.Duration) error {
	supply, err := x.src.supply()
	if err != nil {
		return err
	}
	st.txID = x.tx.ID()
	st.potentialReward = x.r.staking.Reward.potentialReward(d, st.weight, supply)
	x.eff.stakers = append(x.eff.stakers, st)
	x.eff.supplyAdded = st.potentialReward
	x.balances, err = add(x.balances, st.weight)
	return err
}

// validatorOf returns the validator among a node's stakers, or nil.
func validatorOf(stakers []*staker) *staker {
	for _, s := range stakers {
		if !s.delegator {
			return s
		}
	}
	return nil
}

// The staker is written from the effects (writer.putStakers).
func (txIndexer) AddPermissionlessValidatorTx(*txs.AddPermissionlessValidatorTx) error { return nil }
