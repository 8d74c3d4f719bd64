package l1params

import (
	"encoding/json"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
)

// activating returns the configs of the precompile key that activate going from a block at
// parent to one at child (nil parent: the genesis block at child), genesis config first, then
// the upgrades in file order.
func (c *ChainConfig) activating(key string, parent *uint64, child uint64) []PrecompileConfig {
	var out []PrecompileConfig
	if g := c.GenesisPrecompiles[key]; g != nil && isForkTransition(g.Timestamp(), parent, child) {
		out = append(out, g)
	}
	for _, up := range c.Upgrades.PrecompileUpgrades {
		if up.Config != nil && up.Config.Key() == key && isForkTransition(up.Config.Timestamp(), parent, child) {
			out = append(out, up.Config)
		}
	}
	return out
}

// PrecompileActivations returns the precompile configs, enables and disables, that take effect
// in a block at childTime whose parent is at parentTime: those whose timestamp t satisfies
// parentTime < t ≤ childTime (l1-evm.md §5.0). A nil parentTime is the genesis block: every
// config with t ≤ childTime. They are in module address order, then in activation order, the
// order in which the reference applies them.
func (c *ChainConfig) PrecompileActivations(parentTime *uint64, childTime uint64) []PrecompileConfig {
	var out []PrecompileConfig
	for _, m := range moduleTable {
		out = append(out, c.activating(m.Key, parentTime, childTime)...)
	}
	return out
}

// StateUpgradesBetween returns the state upgrades applied in a block at childTime whose parent
// is at parentTime: parentTime < t ≤ childTime, in file order (l1-evm.md §4.5). State upgrades
// have t > 0, so none applies at genesis.
func (c *ChainConfig) StateUpgradesBetween(parentTime, childTime uint64) []StateUpgrade {
	return stateUpgradesIn(c.Upgrades.StateUpgrades, &parentTime, childTime)
}

func stateUpgradesIn(ups []StateUpgrade, parent *uint64, child uint64) []StateUpgrade {
	var out []StateUpgrade
	for _, up := range ups {
		if isForkTransition(up.BlockTimestamp, parent, child) {
			out = append(out, up)
		}
	}
	return out
}

// latest returns the config of key in force at ts, enabled or disabling, or nil.
func (c *ChainConfig) latest(key string, ts uint64) PrecompileConfig {
	cfgs := c.activating(key, nil, ts)
	if len(cfgs) == 0 {
		return nil
	}
	return cfgs[len(cfgs)-1]
}

// ActiveConfig returns the enabling config of precompile key in force at ts: the latest
// activation at or before ts. It reports false when there is none or the latest disables it.
func (c *ChainConfig) ActiveConfig(key string, ts uint64) (PrecompileConfig, bool) {
	p := c.latest(key, ts)
	if p == nil || p.IsDisabled() {
		return nil, false
	}
	return p, true
}

// IsPrecompileEnabled reports whether the precompile at addr is enabled at ts.
func (c *ChainConfig) IsPrecompileEnabled(addr common.Address, ts uint64) bool {
	m, ok := ModuleByAddress(addr)
	if !ok {
		return false
	}
	_, ok = c.ActiveConfig(m.Key, ts)
	return ok
}

// Precompiles maps config keys to configs. It marshals with sorted keys, and as {} when nil.
type Precompiles map[string]PrecompileConfig

// MarshalJSON writes the map, {} when empty.
func (p Precompiles) MarshalJSON() ([]byte, error) {
	if len(p) == 0 {
		return []byte("{}"), nil
	}
	return json.Marshal(map[string]PrecompileConfig(p))
}

// ActivePrecompilesAt returns eth_getActivePrecompilesAt's result (l1-evm.md §1.4): each
// precompile enabled at ts with the config in force.
func (c *ChainConfig) ActivePrecompilesAt(ts uint64) Precompiles {
	out := make(Precompiles)
	for _, m := range moduleTable {
		if p, ok := c.ActiveConfig(m.Key, ts); ok {
			out[m.Key] = p
		}
	}
	return out
}

// EthRules are the Ethereum forks active at a timestamp, the ethRules of
// eth_getActiveRulesAt (l1-evm.md §6): all 16 keys, Go field names, in this order.
type EthRules struct {
	ChainID                                                 *big.Int
	IsHomestead, IsEIP150, IsEIP155, IsEIP158               bool
	IsByzantium, IsConstantinople, IsPetersburg, IsIstanbul bool
	IsBerlin, IsLondon                                      bool
	IsMerge, IsShanghai, IsCancun, IsPrague, IsVerkle       bool
}

// PrecompileTimestamp is an entry of ActiveRules.Precompiles: the activation time of the
// config in force.
type PrecompileTimestamp struct {
	Timestamp uint64 `json:"timestamp"`
}

// ActiveRules is eth_getActiveRulesAt's result (l1-evm.md §6), with the spec's key
// networkRules.
type ActiveRules struct {
	EthRules     EthRules                       `json:"ethRules"`
	NetworkRules NetworkRules                   `json:"networkRules"`
	Precompiles  map[string]PrecompileTimestamp `json:"precompiles"`
}

// ActiveRulesAt returns the rules in force at ts (l1-evm.md §6): block forks are evaluated at
// block 0 and the merge is always on, Shanghai follows Durango and Cancun Etna, Prague and
// Verkle never.
func (c *ChainConfig) ActiveRulesAt(ts uint64) ActiveRules {
	var id *big.Int
	if c.ChainID != nil {
		id = new(big.Int).Set(c.ChainID)
	}
	r := ActiveRules{
		EthRules: EthRules{
			ChainID:     id,
			IsHomestead: true, IsEIP150: true, IsEIP155: true, IsEIP158: true,
			IsByzantium: true, IsConstantinople: true, IsPetersburg: true, IsIstanbul: true,
			IsBerlin: true, IsLondon: true, IsMerge: true,
			IsShanghai: forked(c.ShanghaiTime(), ts),
			IsCancun:   forked(c.CancunTime(), ts),
		},
		NetworkRules: c.NetworkUpgrades.Rules(ts),
		Precompiles:  make(map[string]PrecompileTimestamp),
	}
	for _, m := range moduleTable {
		if p, ok := c.ActiveConfig(m.Key, ts); ok && p.Timestamp() != nil {
			r.Precompiles[m.Key] = PrecompileTimestamp{Timestamp: *p.Timestamp()}
		}
	}
	return r
}
