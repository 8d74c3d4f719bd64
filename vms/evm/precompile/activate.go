package precompile

import (
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/tracing"
	"github.com/ethereum/go-ethereum/core/vm"
	"github.com/ethereum/go-ethereum/params"
	"github.com/holiman/uint256"

	"github.com/cornice-node/cornice/vms/evm/l1params"
)

// Activate applies one precompile config activating at a block (l1-evm.md §5.0), at the
// start of the block before its transactions (and in genesis, with blockNumber 0). Call
// it for each config activating between the parent's and the block's timestamps, in
// address order.
//
// Enabling sets the precompile account's nonce to 1 and its code to 0x01, then configures
// it: allow-list roles in the order enabled, admin, manager; the native minter's initial
// mints; the fee manager's initialFeeConfig, or genesisFeeConfig when it has none, with
// lastChangedAt = blockNumber; the reward manager's initialRewardConfig, or
// genesisAllowFeeRecipients when it has none. Warp needs nothing.
//
// Disabling self-destructs the account and finalises the state at once, so its storage is
// wiped and a later re-enable starts fresh. Finalise closes the state's current journal:
// nothing before it can be reverted to.
func Activate(state vm.StateDB, cfg l1params.PrecompileConfig, blockNumber uint64, genesisFeeConfig l1params.FeeConfig, genesisAllowFeeRecipients bool) error {
	addr, up, ok := configInfo(cfg)
	if !ok {
		return fmt.Errorf("activate precompile: unknown config %T", cfg)
	}
	if up.Disable {
		state.SelfDestruct(addr)
		// EIP-158 is in force on every L1: empty touched accounts go too, as at the end of
		// any transaction.
		state.Finalise(params.Rules{IsEIP158: true})
		return nil
	}
	state.SetNonce(addr, 1, tracing.NonceChangeUnspecified)
	state.SetCode(addr, []byte{0x01}, tracing.CodeChangeUnspecified)
	switch c := cfg.(type) {
	case *l1params.DeployerAllowListConfig:
		configureAllowList(state, addr, c.AllowListConfig)
	case *l1params.TxAllowListConfig:
		configureAllowList(state, addr, c.AllowListConfig)
	case *l1params.NativeMinterConfig:
		for to, amount := range c.InitialMint {
			if amount == nil {
				continue
			}
			v, overflow := uint256.FromBig((*big.Int)(amount))
			if overflow || v.Sign() <= 0 {
				return fmt.Errorf("activate %s: initial mint of %s: invalid amount %s", l1params.NativeMinterKey, to.Hex(), (*big.Int)(amount))
			}
			if !state.Exist(to) {
				state.CreateAccount(to)
			}
			state.AddBalance(to, v, tracing.BalanceChangeUnspecified)
		}
		configureAllowList(state, addr, c.AllowListConfig)
	case *l1params.FeeManagerConfig:
		fc := genesisFeeConfig
		if c.InitialFeeConfig != nil {
			fc = *c.InitialFeeConfig
		}
		if err := StoreFeeConfig(state, fc, new(big.Int).SetUint64(blockNumber)); err != nil {
			return fmt.Errorf("activate %s: %w", l1params.FeeManagerKey, err)
		}
		configureAllowList(state, addr, c.AllowListConfig)
	case *l1params.RewardManagerConfig:
		switch ic := c.InitialRewardConfig; {
		case ic != nil && ic.AllowFeeRecipients:
			setAllowFeeRecipients(state)
		case ic != nil && ic.RewardAddress != (common.Address{}):
			setRewardAddress(state, ic.RewardAddress)
		case ic == nil && genesisAllowFeeRecipients:
			setAllowFeeRecipients(state)
		default:
			// A zero reward address, or no initial config and no fee recipients: rewards
			// go to the blackhole.
			setRewardAddress(state, BlackholeAddress)
		}
		configureAllowList(state, addr, c.AllowListConfig)
	case *l1params.WarpConfig:
	}
	return nil
}
