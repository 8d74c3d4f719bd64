package platform

import (
	"math/big"
	"math/bits"
	"time"
)

// PercentDenominator is the unit of the staking rates and the delegation fee: parts per million
// (§4.10).
const PercentDenominator = 1_000_000

// StakingConfig is the Primary Network's staking rules in nAVAX (§4.9), which
// AddPermissionlessValidatorTx and AddPermissionlessDelegatorTx are checked against and
// platform.getMinStake reports.
type StakingConfig struct {
	MinValidatorStake uint64
	MaxValidatorStake uint64
	MinDelegatorStake uint64
	// MinDelegationFee is the least delegation fee a validator may ask, in parts per million.
	MinDelegationFee uint32
	MinStakeDuration time.Duration
	MaxStakeDuration time.Duration
	// MaxValidatorWeightFactor caps a validator's weight with its delegations at this multiple
	// of its own stake (and at MaxValidatorStake).
	MaxValidatorWeightFactor uint64
	// UptimeRequirement is the uptime, in parts per million of the staking period, a validator
	// needs for its stakers to be rewarded.
	UptimeRequirement uint64
	Reward            RewardConfig
}

// RewardConfig is the reward formula's parameters (§4.10).
type RewardConfig struct {
	// MaxConsumptionRate and MinConsumptionRate are in parts per million.
	MaxConsumptionRate uint64
	MinConsumptionRate uint64
	MintingPeriod      time.Duration
	// SupplyCap is the most AVAX there will ever be, in nAVAX.
	SupplyCap uint64
}

// LocalStakingConfig is the local network's (reference/platform-exchange.md §4.9,
// genesis/genesis_local.go).
var LocalStakingConfig = StakingConfig{
	MinValidatorStake:        2_000 * 1_000_000_000,
	MaxValidatorStake:        3_000_000 * 1_000_000_000,
	MinDelegatorStake:        25 * 1_000_000_000,
	MinDelegationFee:         20_000,
	MinStakeDuration:         24 * time.Hour,
	MaxStakeDuration:         365 * 24 * time.Hour,
	MaxValidatorWeightFactor: 5,
	UptimeRequirement:        800_000,
	Reward: RewardConfig{
		MaxConsumptionRate: 120_000,
		MinConsumptionRate: 100_000,
		MintingPeriod:      365 * 24 * time.Hour,
		SupplyCap:          720_000_000 * 1_000_000_000,
	},
}

// potentialReward is the reward a staker of stake nAVAX earns for duration when it is added while
// the supply is currentSupply (§4.10): remaining supply × (stake / supply) × (duration / minting
// period) × (min rate + (max − min) × duration / minting period), in integers on big numbers,
// divided in the reference's order, capped at what remains to be minted.
func (c *RewardConfig) potentialReward(duration time.Duration, stake, currentSupply uint64) uint64 {
	if currentSupply >= c.SupplyCap || currentSupply == 0 {
		return 0
	}
	remaining := c.SupplyCap - currentSupply
	d := new(big.Int).SetInt64(int64(duration))
	period := new(big.Int).SetInt64(int64(c.MintingPeriod))
	// num = (max − min) × duration + min × mintingPeriod
	num := new(big.Int).Mul(new(big.Int).SetUint64(c.MaxConsumptionRate-c.MinConsumptionRate), d)
	num.Add(num, new(big.Int).Mul(new(big.Int).SetUint64(c.MinConsumptionRate), period))
	r := new(big.Int).SetUint64(remaining)
	r.Mul(r, num)
	r.Mul(r, new(big.Int).SetUint64(stake))
	r.Mul(r, d)
	r.Quo(r, new(big.Int).Mul(period, big.NewInt(PercentDenominator)))
	r.Quo(r, new(big.Int).SetUint64(currentSupply))
	r.Quo(r, period)
	if !r.IsUint64() || r.Uint64() > remaining {
		return remaining
	}
	return r.Uint64()
}

// splitReward splits a delegator's reward by the validator's delegation shares (parts per
// million): the validator's cut and the delegator's remainder (§4.10, reward.Split).
func splitReward(total uint64, shares uint32) (validator, delegator uint64) {
	rest := uint64(PercentDenominator - min(shares, PercentDenominator))
	if hi, lo := bits.Mul64(rest, total); hi == 0 {
		delegator = lo / PercentDenominator
	} else {
		delegator = rest * (total / PercentDenominator)
	}
	return total - delegator, delegator
}
