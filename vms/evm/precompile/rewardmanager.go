package precompile

import (
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/vm"

	"github.com/cornice-node/cornice/vms/evm/l1params"
)

// Reward manager gas (l1-evm.md §5.6): a write and a role read for the setters.
const (
	rewardSetterGas = writeSlotGas + readSlotGas
	rewardReadGas   = readSlotGas
	// rewardSenderEventGas: FeeRecipientsAllowed and RewardsDisabled, one indexed topic.
	rewardSenderEventGas = logGas + 2*logTopicGas
	// rewardAddressEventGas: RewardAddressChanged, three indexed topics, plus reading the
	// old address.
	rewardAddressEventGas = logGas + 4*logTopicGas + readSlotGas
)

var (
	// rewardAddressKey is "rask" followed by zeros.
	rewardAddressKey = common.Hash{'r', 'a', 's', 'k'}
	// allowFeeRecipientsValue is the marker "afrav" followed by zeros.
	allowFeeRecipientsValue = common.Hash{'a', 'f', 'r', 'a', 'v'}
)

// BlackholeAddress receives the fees when rewards are disabled (l1-evm.md §3.9).
var BlackholeAddress = common.HexToAddress("0x0100000000000000000000000000000000000000")

// RewardAddress returns the reward manager's setting (l1-evm.md §5.6): with
// allowFeeRecipients true the block producer picks the coinbase (addr is zero); otherwise
// addr is the required coinbase, the blackhole when rewards are disabled. Call it while
// rewardManagerConfig is active, on the parent's state.
func RewardAddress(state StateReader) (addr common.Address, allowFeeRecipients bool) {
	v := state.GetState(l1params.RewardManagerAddress, rewardAddressKey)
	return common.BytesToAddress(v.Bytes()), v == allowFeeRecipientsValue
}

func setAllowFeeRecipients(state StateWriter) {
	state.SetState(l1params.RewardManagerAddress, rewardAddressKey, allowFeeRecipientsValue)
}

func setRewardAddress(state StateWriter, addr common.Address) {
	state.SetState(l1params.RewardManagerAddress, rewardAddressKey, common.BytesToHash(addr.Bytes()))
}

// addRewardManager registers the reward manager's functions in c.
func addRewardManager(c *contract) {
	m := rewardManagerABI.Methods
	c.add(m["allowFeeRecipients"].ID, function{run: rewardSwitch("allowFeeRecipients", "FeeRecipientsAllowed", setAllowFeeRecipients)})
	c.add(m["disableRewards"].ID, function{run: rewardSwitch("disableRewards", "RewardsDisabled", func(st StateWriter) {
		setRewardAddress(st, BlackholeAddress)
	})})
	c.add(m["setRewardAddress"].ID, function{run: setRewardAddressFn})
	c.add(m["areFeeRecipientsAllowed"].ID, function{run: areFeeRecipientsAllowed})
	c.add(m["currentRewardAddress"].ID, function{run: currentRewardAddress})
}

// rewardSetterStart is the common start of the setters: charge → read-only.
func rewardSetterStart(c *call) error {
	if err := c.use(rewardSetterGas); err != nil {
		return err
	}
	if c.readOnly {
		return vm.ErrWriteProtection
	}
	return nil
}

// rewardSwitch returns fn, a setter without arguments: charge → read-only → caller
// Enabled+ → (Durango) event, with the caller as its one topic → set (l1-evm.md §5.6).
// allowFeeRecipients and disableRewards differ only in their event and what they store.
func rewardSwitch(fn, event string, set func(StateWriter)) func(c *call) ([]byte, error) {
	return func(c *call) ([]byte, error) {
		if err := rewardSetterStart(c); err != nil {
			return nil, err
		}
		if !RoleOf(c.state, c.addr, c.caller).IsEnabled() {
			return nil, rewardNotEnabledError(fn, c.caller)
		}
		if c.rules.IsDurango {
			if err := c.use(rewardSenderEventGas); err != nil {
				return nil, err
			}
			c.log([]common.Hash{rewardManagerABI.Events[event].ID, common.BytesToHash(c.caller.Bytes())}, nil)
		}
		set(c.state)
		return []byte{}, nil
	}
}

// setRewardAddressFn: charge → read-only → decode (before Durango the length must be a
// multiple of 32) → caller Enabled+ → non-zero address → (Durango) event → store.
func setRewardAddressFn(c *call) ([]byte, error) {
	if err := rewardSetterStart(c); err != nil {
		return nil, err
	}
	if c.strict() && len(c.input)%common.HashLength != 0 {
		return nil, improperlyFormattedInputError(c.input)
	}
	vals, err := unpackInputs(rewardManagerABI, "setRewardAddress", c.input)
	if err != nil {
		return nil, err
	}
	addr := vals[0].(common.Address)
	if !RoleOf(c.state, c.addr, c.caller).IsEnabled() {
		return nil, rewardNotEnabledError("setRewardAddress", c.caller)
	}
	if addr == (common.Address{}) {
		return nil, ErrEmptyRewardAddress
	}
	if c.rules.IsDurango {
		if err := c.use(rewardAddressEventGas); err != nil {
			return nil, err
		}
		old, _ := RewardAddress(c.state)
		c.log([]common.Hash{
			rewardManagerABI.Events["RewardAddressChanged"].ID,
			common.BytesToHash(c.caller.Bytes()),
			common.BytesToHash(old.Bytes()),
			common.BytesToHash(addr.Bytes()),
		}, nil)
	}
	setRewardAddress(c.state, addr)
	return []byte{}, nil
}

func areFeeRecipientsAllowed(c *call) ([]byte, error) {
	if err := c.use(rewardReadGas); err != nil {
		return nil, err
	}
	_, allowed := RewardAddress(c.state)
	var out common.Hash
	if allowed {
		out[31] = 1
	}
	return out.Bytes(), nil
}

func currentRewardAddress(c *call) ([]byte, error) {
	if err := c.use(rewardReadGas); err != nil {
		return nil, err
	}
	addr, _ := RewardAddress(c.state)
	return common.BytesToHash(addr.Bytes()).Bytes(), nil
}
