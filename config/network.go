package config

import (
	"strconv"
	"strings"
)

// Network IDs with a name (node-api.md §3.5).
const (
	MainnetID  uint32 = 1
	CascadeID  uint32 = 2
	DenaliID   uint32 = 3
	EverestID  uint32 = 4
	FujiID     uint32 = 5
	TestingID  uint32 = 10
	LocalID    uint32 = 12345
	networkPfx        = "network-"
)

// networkNames maps each named network ID to the name NetworkName prints.
var networkNames = map[uint32]string{
	MainnetID: "mainnet",
	CascadeID: "cascade",
	DenaliID:  "denali",
	EverestID: "everest",
	FujiID:    "fuji",
	TestingID: "testing",
	LocalID:   "local",
}

// networkIDs maps every accepted name to its ID. "testnet" is an alias of fuji that NetworkName
// never prints (node-api.md §3.5).
var networkIDs = map[string]uint32{
	"mainnet": MainnetID,
	"cascade": CascadeID,
	"denali":  DenaliID,
	"everest": EverestID,
	"fuji":    FujiID,
	"testnet": FujiID,
	"testing": TestingID,
	"local":   LocalID,
}

// ParseNetworkID parses the text of --network-id: a network name (case-insensitive), a decimal
// number, or `network-<n>`. Anything else fails with ErrParseNetworkName, quoting the input as
// given (node-api.md §3.5).
func ParseNetworkID(s string) (uint32, error) {
	lower := strings.ToLower(s)
	if id, ok := networkIDs[lower]; ok {
		return id, nil
	}
	// Only ASCII digits: ParseUint would otherwise also accept "+" or "_" forms on some bases.
	digits := strings.TrimPrefix(lower, networkPfx)
	if digits == "" || strings.TrimLeft(digits, "0123456789") != "" {
		return 0, parseNetworkNameError(s)
	}
	id, err := strconv.ParseUint(digits, 10, 32)
	if err != nil {
		return 0, parseNetworkNameError(s)
	}
	return uint32(id), nil
}

// NetworkName returns the name of a network ID: its well-known name, or `network-<id>` for any
// other ID. ID 5 prints as "fuji", never "testnet" (node-api.md §3.5).
func NetworkName(id uint32) string {
	if name, ok := networkNames[id]; ok {
		return name
	}
	return networkPfx + strconv.FormatUint(uint64(id), 10)
}

// hasFixedParams reports whether a network takes its fees and uptime requirement from its
// genesis rather than from flags: mainnet and fuji (node-api.md §3.9, §3.12).
func hasFixedParams(id uint32) bool {
	return id == MainnetID || id == FujiID
}

// hasFixedUpgrades reports whether a network's upgrade schedule is built in and cannot be
// replaced by an upgrade file: mainnet, fuji and local (node-api.md §3.13).
func hasFixedUpgrades(id uint32) bool {
	return id == MainnetID || id == FujiID || id == LocalID
}

// defaultUptimeRequirement is the staking uptime requirement of mainnet, fuji and the default
// for other networks (node-api.md §3.12).
const defaultUptimeRequirement = 0.8

// UptimeRequirementFor returns the uptime requirement in force on a network: 0.8 on mainnet and
// fuji whatever was configured, else the configured requirement (node-api.md §3.12).
func UptimeRequirementFor(networkID uint32, configured float64) float64 {
	if hasFixedParams(networkID) {
		return defaultUptimeRequirement
	}
	return configured
}

// LocalFundedKey is the well-known key the local network's genesis funds on X, P and C ("ewoq",
// platform-exchange.md §2.5), in the `PrivateKey-<CB58>` form. Its secret is public.
const LocalFundedKey = "PrivateKey-ewoqjP7PxY4yr3iLTpLisriqt94hdyDFNgchSxGGztUrTXtNN"

// LocalGenesisStake is the whole initial stake of the local network's genesis in nAVAX: the
// 1e16 nAVAX locked to X-local1g65uqn…, split among the five initial stakers at 2e15 each
// (platform-exchange.md §7.3, §7.4).
const LocalGenesisStake uint64 = 10_000_000 * avax
