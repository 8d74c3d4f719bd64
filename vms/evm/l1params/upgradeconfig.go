package l1params

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/big"
)

// ParseUpgradeConfig decodes an upgrade file (l1-evm.md §4.5). It checks the shape of each
// precompileUpgrades entry; the rules that need the chain config are checked by
// ChainConfig.Verify. Empty input is the empty upgrade config.
func ParseUpgradeConfig(b []byte) (*UpgradeConfig, error) {
	var u UpgradeConfig
	if len(b) == 0 {
		return &u, nil
	}
	if err := json.Unmarshal(b, &u); err != nil {
		return nil, fmt.Errorf("parse upgrade config: %w", err)
	}
	return &u, nil
}

// UnmarshalJSON decodes {"<key>": {...}}: exactly one key, a registered one (l1-evm.md §4.5).
func (u *PrecompileUpgrade) UnmarshalJSON(b []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	switch len(raw) {
	case 0:
		return ErrPrecompileUpgradeEmpty
	case 1:
	default:
		return precompileUpgradeKeyCount(len(raw))
	}
	for key, value := range raw {
		c, err := ParsePrecompileConfig(key, value)
		if err != nil {
			return err
		}
		u.Config = c
	}
	return nil
}

// MarshalJSON encodes the entry as {"<key>": {...}}.
func (u PrecompileUpgrade) MarshalJSON() ([]byte, error) {
	if u.Config == nil {
		return nil, ErrPrecompileUpgradeEmpty
	}
	return json.Marshal(map[string]PrecompileConfig{u.Config.Key(): u.Config})
}

// IsEmpty reports whether the upgrade file sets nothing; eth_getChainConfig then prints
// "upgrades":{}.
func (u *UpgradeConfig) IsEmpty() bool {
	return u.NetworkUpgradeOverrides == nil && len(u.StateUpgrades) == 0 && len(u.PrecompileUpgrades) == 0
}

// Equal reports whether s and o describe the same state upgrade.
func (s *StateUpgrade) Equal(o *StateUpgrade) bool {
	if o == nil || !u64Equal(s.BlockTimestamp, o.BlockTimestamp) || len(s.Accounts) != len(o.Accounts) {
		return false
	}
	for addr, a := range s.Accounts {
		b, ok := o.Accounts[addr]
		if !ok || !a.Equal(&b) {
			return false
		}
	}
	return true
}

// Equal reports whether a and o change an account the same way.
func (a *StateUpgradeAccount) Equal(o *StateUpgradeAccount) bool {
	if string(a.Code) != string(o.Code) || !maps.Equal(a.Storage, o.Storage) {
		return false
	}
	if a.BalanceChange == nil || o.BalanceChange == nil {
		return a.BalanceChange == nil && o.BalanceChange == nil
	}
	return bigEqual((*big.Int)(a.BalanceChange), (*big.Int)(o.BalanceChange))
}

// verifyStateUpgrades checks that every state upgrade has a timestamp above 0 and that they
// strictly increase (l1-evm.md §4.5).
func verifyStateUpgrades(ups []StateUpgrade) error {
	var prev *uint64
	for i, up := range ups {
		ts := up.BlockTimestamp
		switch {
		case ts == nil:
			return fmt.Errorf("%w: StateUpgrade[%d]", ErrStateUpgradeNilTimestamp, i)
		case *ts == 0:
			return fmt.Errorf("%w: StateUpgrade[%d] has timestamp %d", ErrStateUpgradeTimestampZero, i, *ts)
		case prev != nil && *ts <= *prev:
			return fmt.Errorf("%w: StateUpgrade[%d] has timestamp %d, previous timestamp %d", ErrStateUpgradeTimestampNotMonotonic, i, *ts, *prev)
		}
		prev = ts
	}
	return nil
}

// verifyPrecompileUpgrades checks the genesis precompile configs and the precompile upgrades
// (l1-evm.md §4.5): each config passes its own Verify; upgrade timestamps are set and never
// decrease; for one key they strictly increase and alternate enable and disable, the genesis
// counting as enabled when the key is there with a timestamp.
func (c *ChainConfig) verifyPrecompileUpgrades() error {
	type last struct {
		ts       uint64
		disabled bool
	}
	lastByKey := make(map[string]last)
	// Genesis configs in address order, so the first error is deterministic.
	for _, m := range moduleTable {
		cfg, ok := c.GenesisPrecompiles[m.Key]
		if !ok || cfg == nil {
			continue
		}
		if err := cfg.Verify(c); err != nil {
			return err
		}
		if ts := cfg.Timestamp(); ts != nil {
			lastByKey[m.Key] = last{ts: *ts}
		}
	}
	var prev *uint64
	for i, up := range c.Upgrades.PrecompileUpgrades {
		if up.Config == nil {
			return fmt.Errorf("%w: PrecompileUpgrade at [%d]", ErrPrecompileUpgradeEmpty, i)
		}
		key := up.Config.Key()
		l, seen := lastByKey[key]
		disabled := !seen || l.disabled
		ts := up.Config.Timestamp()
		if ts == nil {
			return fmt.Errorf("%w: PrecompileUpgrade (%s) at [%d]", ErrPrecompileUpgradeNilTimestamp, key, i)
		}
		if prev != nil && *ts < *prev {
			return fmt.Errorf("%w: PrecompileUpgrade (%s) at [%d] has timestamp %d, previous timestamp %d", ErrPrecompileUpgradeTimestampNotMonotonic, key, i, *ts, *prev)
		}
		if disabled == up.Config.IsDisabled() {
			return fmt.Errorf("%w: PrecompileUpgrade (%s) at [%d], disable should be %t", ErrPrecompileUpgradeInvalidDisable, key, i, !disabled)
		}
		if seen && *ts <= l.ts {
			return fmt.Errorf("%w: PrecompileUpgrade (%s) at [%d] has timestamp %d, previous timestamp of same key %d", ErrPrecompileUpgradeSameKeyTimestampNotStrictly, key, i, *ts, l.ts)
		}
		if err := up.Config.Verify(c); err != nil {
			return err
		}
		lastByKey[key] = last{ts: *ts, disabled: up.Config.IsDisabled()}
		prev = ts
	}
	return nil
}
