package platform

import (
	"fmt"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/components/utxo"
	"github.com/cornice-node/cornice/vms/platform/txs"
)

// An AddPermissionlessDelegatorTx delegates stake to a current Primary Network validator from
// the chain time to its end, within the validator's period and the staking rules: at least the
// minimum delegator stake, and the validator's weight with its delegations at most
// MaxValidatorWeightFactor times its own stake and at most the maximum validator stake (§4.9).

func (*syntacticCheck) AddPermissionlessDelegatorTx(tx *txs.AddPermissionlessDelegatorTx) error {
	if len(tx.Stake) == 0 {
		return ErrNoStake
	}
	if tx.Validator.Weight == 0 {
		return fmt.Errorf("failed to verify validator or rewards owner: %w", ErrWeightTooSmall)
	}
	if err := tx.RewardsOwner.Verify(); err != nil {
		return fmt.Errorf("failed to verify validator or rewards owner: %w", err)
	}
	return verifyStake(tx.Stake, tx.Validator.Weight)
}

func (x *executor) AddPermissionlessDelegatorTx(tx *txs.AddPermissionlessDelegatorTx) error {
	if tx.SubnetID != ids.Empty {
		return fmt.Errorf("%w: %s", ErrNotPermissionlessSubnet, tx.SubnetID)
	}
	cfg := &x.r.staking
	v := &tx.Validator
	d := stakingPeriod(x.now, v.End)
	switch {
	case v.Weight < cfg.MinDelegatorStake:
		return ErrWeightTooSmall
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
	val := validatorOf(stakers)
	if val == nil {
		return fmt.Errorf("failed to fetch the primary network validator for %s: %w", v.NodeID, utxo.ErrUTXONotFound)
	}
	if x.now < val.start || v.End > val.end {
		return ErrPeriodMismatch
	}
	// Every delegation starts at the chain time of its block and ends within the validator's
	// period, so all current ones overlap now: the validator's weight peaks now.
	capWeight := min(satMul(cfg.MaxValidatorWeightFactor, val.weight), cfg.MaxValidatorStake)
	total := v.Weight
	for _, s := range stakers {
		total = satAdd(total, s.weight)
	}
	if total > capWeight {
		return ErrOverDelegated
	}
	return x.addStaker(&staker{nodeID: v.NodeID, delegator: true, start: x.now, end: v.End, weight: v.Weight}, d)
}

// satMul returns a × b, or 2^64-1 when the product overflows.
func satMul(a, b uint64) uint64 {
	p, overflow := mulOverflow(a, b)
	if overflow {
		return ^uint64(0)
	}
	return p
}

// The staker is written from the effects (writer.putStakers).
func (txIndexer) AddPermissionlessDelegatorTx(*txs.AddPermissionlessDelegatorTx) error { return nil }
