package l1params

import (
	"encoding/json"

	"github.com/ethereum/go-ethereum/common"
)

// Module describes one registered precompile: its config key, its address and how to decode
// its config.
type Module struct {
	Key     string
	Address common.Address
	// Decode decodes a config object of this precompile. JSON null gives a config with every
	// field unset, as the reference's decoding does.
	Decode func(raw json.RawMessage) (PrecompileConfig, error)
}

// moduleTable is the registry in address order (l1-evm.md §5.0). The gas price manager at
// 0x…06 is not registered, as in the reference.
var moduleTable = [...]Module{
	{DeployerAllowListKey, DeployerAllowListAddress, decodeInto[DeployerAllowListConfig]},
	{NativeMinterKey, NativeMinterAddress, decodeInto[NativeMinterConfig]},
	{TxAllowListKey, TxAllowListAddress, decodeInto[TxAllowListConfig]},
	{FeeManagerKey, FeeManagerAddress, decodeInto[FeeManagerConfig]},
	{RewardManagerKey, RewardManagerAddress, decodeInto[RewardManagerConfig]},
	{WarpKey, WarpAddress, decodeInto[WarpConfig]},
}

// Modules returns the registered precompiles in address order. The slice is the caller's.
func Modules() []Module {
	return append([]Module(nil), moduleTable[:]...)
}

// ModuleByKey returns the registered precompile with config key key.
func ModuleByKey(key string) (Module, bool) {
	for _, m := range moduleTable {
		if m.Key == key {
			return m, true
		}
	}
	return Module{}, false
}

// ModuleByAddress returns the registered precompile at addr.
func ModuleByAddress(addr common.Address) (Module, bool) {
	for _, m := range moduleTable {
		if m.Address == addr {
			return m, true
		}
	}
	return Module{}, false
}

// ParsePrecompileConfig decodes raw as the config of the precompile with key key; an unknown
// key gives "unknown precompile config: <key>" (l1-evm.md §4.5).
func ParsePrecompileConfig(key string, raw json.RawMessage) (PrecompileConfig, error) {
	m, ok := ModuleByKey(key)
	if !ok {
		return nil, unknownPrecompileConfig(key)
	}
	return m.Decode(raw)
}

// decodeInto decodes raw into a new T. The type parameter's pointer must be a PrecompileConfig.
func decodeInto[T any, PT interface {
	*T
	PrecompileConfig
}](raw json.RawMessage) (PrecompileConfig, error) {
	c := PT(new(T))
	if err := json.Unmarshal(raw, c); err != nil {
		return nil, err
	}
	return c, nil
}
