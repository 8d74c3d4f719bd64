package platform

// StakingConfig is the Primary Network's staking limits in nAVAX, which platform.getMinStake
// reports (§4.9).
type StakingConfig struct {
	MinValidatorStake uint64
	MinDelegatorStake uint64
}

// LocalStakingConfig is the local network's: 2,000 AVAX to validate, 25 AVAX to delegate
// (reference/platform-exchange.md §4.9, genesis/genesis_local.go).
var LocalStakingConfig = StakingConfig{
	MinValidatorStake: 2_000 * 1_000_000_000,
	MinDelegatorStake: 25 * 1_000_000_000,
}
