package l1params

import (
	"fmt"

	"github.com/ethereum/go-ethereum/params"
)

// CheckCompatible reports whether a node whose last accepted block has timestamp headTime may
// switch from the chain config old to new, as after a restart with a changed upgrade file
// (l1-evm.md §4.4, §4.5): upgrades already in force at headTime cannot move, change, vanish or
// appear. The error is a *params.ConfigCompatError (What is "Durango fork block timestamp",
// "missing PrecompileUpgrade[i]", "cannot retroactively enable PrecompileUpgrade[i]", …), or nil.
func CheckCompatible(old, new *ChainConfig, headTime uint64) error {
	if err := old.NetworkUpgrades.checkCompatible(&new.NetworkUpgrades, headTime); err != nil {
		return err
	}
	for _, m := range moduleTable {
		if err := checkPrecompileCompatible(old, new, m.Key, headTime); err != nil {
			return err
		}
	}
	if err := checkStateUpgradesCompatible(old.Upgrades.StateUpgrades, new.Upgrades.StateUpgrades, headTime); err != nil {
		return err
	}
	return nil
}

// checkPrecompileCompatible compares the configs of one precompile activated by headTime.
func checkPrecompileCompatible(old, new *ChainConfig, key string, headTime uint64) *params.ConfigCompatError {
	active := old.activating(key, nil, headTime)
	next := new.activating(key, nil, headTime)
	for i, c := range active {
		if len(next) <= i {
			return timestampCompatError(fmt.Sprintf("missing PrecompileUpgrade[%d]", i), c.Timestamp(), nil)
		}
		if !c.Equal(next[i]) {
			return timestampCompatError(fmt.Sprintf("PrecompileUpgrade[%d]", i), c.Timestamp(), next[i].Timestamp())
		}
	}
	if len(next) > len(active) {
		return timestampCompatError(fmt.Sprintf("cannot retroactively enable PrecompileUpgrade[%d]", len(active)), nil, next[len(active)].Timestamp())
	}
	return nil
}

// checkStateUpgradesCompatible compares the state upgrades activated by headTime.
func checkStateUpgradesCompatible(old, new []StateUpgrade, headTime uint64) *params.ConfigCompatError {
	active := stateUpgradesIn(old, nil, headTime)
	next := stateUpgradesIn(new, nil, headTime)
	for i, u := range active {
		if len(next) <= i {
			return timestampCompatError(fmt.Sprintf("missing StateUpgrade[%d]", i), u.BlockTimestamp, nil)
		}
		if !u.Equal(&next[i]) {
			return timestampCompatError(fmt.Sprintf("StateUpgrade[%d]", i), u.BlockTimestamp, next[i].BlockTimestamp)
		}
	}
	if len(next) > len(active) {
		return timestampCompatError(fmt.Sprintf("cannot retroactively enable StateUpgrade[%d]", len(active)), nil, next[len(active)].BlockTimestamp)
	}
	return nil
}

// timestampCompatError builds go-ethereum's compatibility error for a time-based fork; the
// chain must rewind to just before the earlier of the two timestamps.
func timestampCompatError(what string, stored, next *uint64) *params.ConfigCompatError {
	rew := stored
	switch {
	case stored == nil:
		rew = next
	case next != nil && *next < *stored:
		rew = next
	}
	err := &params.ConfigCompatError{What: what, StoredTime: stored, NewTime: next}
	if rew != nil && *rew != 0 {
		err.RewindToTime = *rew - 1
	}
	return err
}
