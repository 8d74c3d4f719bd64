package l1params

import (
	"bytes"
	"fmt"
	"math/big"
	"slices"

	"github.com/ethereum/go-ethereum/common"
)

// Warp quorum bounds (l1-evm.md §5.7): a numerator of 0 means the default, 67.
const (
	WarpQuorumDenominator      uint64 = 100
	WarpQuorumNumeratorMinimum uint64 = 33
	WarpDefaultQuorumNumerator uint64 = 67
)

// Compile-time checks: the six configs are the PrecompileConfig implementations.
var (
	_ PrecompileConfig = (*DeployerAllowListConfig)(nil)
	_ PrecompileConfig = (*TxAllowListConfig)(nil)
	_ PrecompileConfig = (*NativeMinterConfig)(nil)
	_ PrecompileConfig = (*FeeManagerConfig)(nil)
	_ PrecompileConfig = (*RewardManagerConfig)(nil)
	_ PrecompileConfig = (*WarpConfig)(nil)
)

// Timestamp returns BlockTimestamp; nil when unset.
func (u *Upgrade) Timestamp() *uint64 { return u.BlockTimestamp }

// IsDisabled reports whether this config disables the precompile.
func (u *Upgrade) IsDisabled() bool { return u.Disable }

// Equal reports whether u and o activate at the same time the same way.
func (u *Upgrade) Equal(o *Upgrade) bool {
	return o != nil && u.Disable == o.Disable && u64Equal(u.BlockTimestamp, o.BlockTimestamp)
}

// Verify checks the allow-list part of a config activating with up (l1-evm.md §5.1): no address
// twice in a list or in two lists, and no managers before Durango. Lists are checked in the
// order enabled, admin, manager; the first problem is reported with the address.
func (a *AllowListConfig) Verify(c *ChainConfig, up Upgrade) error {
	const (
		enabled = iota + 1
		admin
		manager
	)
	seen := make(map[common.Address]int)
	for _, addr := range a.EnabledAddresses {
		if _, ok := seen[addr]; ok {
			return fmt.Errorf("%w: %s", ErrDuplicateEnabledAddress, addr)
		}
		seen[addr] = enabled
	}
	for _, addr := range a.AdminAddresses {
		if role, ok := seen[addr]; ok {
			if role == admin {
				return fmt.Errorf("%w: %s", ErrDuplicateAdminAddress, addr)
			}
			return fmt.Errorf("%w: %s", ErrAdminAndEnabledAddress, addr)
		}
		seen[addr] = admin
	}
	if len(a.ManagerAddresses) != 0 && up.BlockTimestamp != nil && !c.IsDurango(*up.BlockTimestamp) {
		return ErrCannotAddManagersBeforeDurango
	}
	for _, addr := range a.ManagerAddresses {
		if role, ok := seen[addr]; ok {
			switch role {
			case manager:
				return fmt.Errorf("%w: %s", ErrDuplicateManagerAddress, addr)
			case admin:
				return fmt.Errorf("%w: %s", ErrAdminAndManagerAddress, addr)
			default:
				return fmt.Errorf("%w: %s", ErrEnabledAndManagerAddress, addr)
			}
		}
		seen[addr] = manager
	}
	return nil
}

// Equal reports whether a and o list the same addresses in the same order.
func (a *AllowListConfig) Equal(o *AllowListConfig) bool {
	return o != nil && slices.Equal(a.AdminAddresses, o.AdminAddresses) &&
		slices.Equal(a.ManagerAddresses, o.ManagerAddresses) &&
		slices.Equal(a.EnabledAddresses, o.EnabledAddresses)
}

// Key returns DeployerAllowListKey.
func (*DeployerAllowListConfig) Key() string { return DeployerAllowListKey }

// Address returns DeployerAllowListAddress.
func (*DeployerAllowListConfig) Address() common.Address { return DeployerAllowListAddress }

// Verify checks the allow list (l1-evm.md §5.1).
func (p *DeployerAllowListConfig) Verify(c *ChainConfig) error {
	return p.AllowListConfig.Verify(c, p.Upgrade)
}

// Equal reports whether o is a *DeployerAllowListConfig with the same settings.
func (p *DeployerAllowListConfig) Equal(o PrecompileConfig) bool {
	q, ok := o.(*DeployerAllowListConfig)
	return ok && q != nil && p.Upgrade.Equal(&q.Upgrade) && p.AllowListConfig.Equal(&q.AllowListConfig)
}

// Key returns TxAllowListKey.
func (*TxAllowListConfig) Key() string { return TxAllowListKey }

// Address returns TxAllowListAddress.
func (*TxAllowListConfig) Address() common.Address { return TxAllowListAddress }

// Verify checks the allow list (l1-evm.md §5.1).
func (p *TxAllowListConfig) Verify(c *ChainConfig) error {
	return p.AllowListConfig.Verify(c, p.Upgrade)
}

// Equal reports whether o is a *TxAllowListConfig with the same settings.
func (p *TxAllowListConfig) Equal(o PrecompileConfig) bool {
	q, ok := o.(*TxAllowListConfig)
	return ok && q != nil && p.Upgrade.Equal(&q.Upgrade) && p.AllowListConfig.Equal(&q.AllowListConfig)
}

// Key returns NativeMinterKey.
func (*NativeMinterConfig) Key() string { return NativeMinterKey }

// Address returns NativeMinterAddress.
func (*NativeMinterConfig) Address() common.Address { return NativeMinterAddress }

// Verify checks that every initial mint is a positive amount, then the allow list
// (l1-evm.md §5.4). Addresses are checked in ascending order so the error is deterministic.
func (p *NativeMinterConfig) Verify(c *ChainConfig) error {
	addrs := make([]common.Address, 0, len(p.InitialMint))
	for addr := range p.InitialMint {
		addrs = append(addrs, addr)
	}
	slices.SortFunc(addrs, func(a, b common.Address) int { return bytes.Compare(a[:], b[:]) })
	for _, addr := range addrs {
		amount := p.InitialMint[addr]
		if amount == nil {
			return fmt.Errorf("%w for address %s", ErrInitialMintNilAmount, addr)
		}
		if (*big.Int)(amount).Sign() < 1 {
			return fmt.Errorf("%w: amount %v for address %s", ErrInitialMintInvalidAmount, (*big.Int)(amount), addr)
		}
	}
	return p.AllowListConfig.Verify(c, p.Upgrade)
}

// Equal reports whether o is a *NativeMinterConfig with the same settings.
func (p *NativeMinterConfig) Equal(o PrecompileConfig) bool {
	q, ok := o.(*NativeMinterConfig)
	if !ok || q == nil || !p.Upgrade.Equal(&q.Upgrade) || !p.AllowListConfig.Equal(&q.AllowListConfig) ||
		len(p.InitialMint) != len(q.InitialMint) {
		return false
	}
	for addr, a := range p.InitialMint {
		b, ok := q.InitialMint[addr]
		if !ok || (a == nil) != (b == nil) || (a != nil && (*big.Int)(a).Cmp((*big.Int)(b)) != 0) {
			return false
		}
	}
	return true
}

// Key returns FeeManagerKey.
func (*FeeManagerConfig) Key() string { return FeeManagerKey }

// Address returns FeeManagerAddress.
func (*FeeManagerConfig) Address() common.Address { return FeeManagerAddress }

// Verify checks the allow list, then initialFeeConfig when given (l1-evm.md §5.5).
func (p *FeeManagerConfig) Verify(c *ChainConfig) error {
	if err := p.AllowListConfig.Verify(c, p.Upgrade); err != nil {
		return err
	}
	if p.InitialFeeConfig == nil {
		return nil
	}
	return p.InitialFeeConfig.Verify()
}

// Equal reports whether o is a *FeeManagerConfig with the same settings.
func (p *FeeManagerConfig) Equal(o PrecompileConfig) bool {
	q, ok := o.(*FeeManagerConfig)
	if !ok || q == nil || !p.Upgrade.Equal(&q.Upgrade) || !p.AllowListConfig.Equal(&q.AllowListConfig) {
		return false
	}
	if p.InitialFeeConfig == nil || q.InitialFeeConfig == nil {
		return p.InitialFeeConfig == nil && q.InitialFeeConfig == nil
	}
	return p.InitialFeeConfig.Equal(q.InitialFeeConfig)
}

// Key returns RewardManagerKey.
func (*RewardManagerConfig) Key() string { return RewardManagerKey }

// Address returns RewardManagerAddress.
func (*RewardManagerConfig) Address() common.Address { return RewardManagerAddress }

// Verify checks initialRewardConfig, then the allow list (l1-evm.md §5.6).
func (p *RewardManagerConfig) Verify(c *ChainConfig) error {
	if r := p.InitialRewardConfig; r != nil && r.AllowFeeRecipients && r.RewardAddress != (common.Address{}) {
		return ErrCannotEnableBothRewards
	}
	return p.AllowListConfig.Verify(c, p.Upgrade)
}

// Equal reports whether o is a *RewardManagerConfig with the same settings.
func (p *RewardManagerConfig) Equal(o PrecompileConfig) bool {
	q, ok := o.(*RewardManagerConfig)
	if !ok || q == nil || !p.Upgrade.Equal(&q.Upgrade) || !p.AllowListConfig.Equal(&q.AllowListConfig) {
		return false
	}
	if p.InitialRewardConfig == nil || q.InitialRewardConfig == nil {
		return p.InitialRewardConfig == nil && q.InitialRewardConfig == nil
	}
	return *p.InitialRewardConfig == *q.InitialRewardConfig
}

// Key returns WarpKey.
func (*WarpConfig) Key() string { return WarpKey }

// Address returns WarpAddress.
func (*WarpConfig) Address() common.Address { return WarpAddress }

// Verify checks that warp activates at or after Durango and that the quorum numerator is 0 or
// in [33, 100] (l1-evm.md §5.7).
func (p *WarpConfig) Verify(c *ChainConfig) error {
	if p.BlockTimestamp != nil && !c.IsDurango(*p.BlockTimestamp) {
		return ErrWarpBeforeDurango
	}
	if p.QuorumNumerator > WarpQuorumDenominator {
		return fmt.Errorf("%w: cannot specify quorum numerator (%d) > quorum denominator (%d)", ErrInvalidQuorumRatio, p.QuorumNumerator, WarpQuorumDenominator)
	}
	if p.QuorumNumerator != 0 && p.QuorumNumerator < WarpQuorumNumeratorMinimum {
		return fmt.Errorf("%w: cannot specify quorum numerator (%d) < min quorum numerator (%d)", ErrInvalidQuorumRatio, p.QuorumNumerator, WarpQuorumNumeratorMinimum)
	}
	return nil
}

// Equal reports whether o is a *WarpConfig with the same settings.
func (p *WarpConfig) Equal(o PrecompileConfig) bool {
	q, ok := o.(*WarpConfig)
	return ok && q != nil && p.Upgrade.Equal(&q.Upgrade) && p.QuorumNumerator == q.QuorumNumerator &&
		p.RequirePrimaryNetworkSigners == q.RequirePrimaryNetworkSigners
}
