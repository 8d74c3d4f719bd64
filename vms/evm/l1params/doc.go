// Package l1params holds the configuration of an L1 EVM chain as Subnet-EVM defines it
// (reference/l1-evm.md §3–§6): the fee config, the network upgrade timestamps, the genesis
// precompile configs, the upgrade file (precompile and state upgrades, network upgrade
// overrides), and what follows from them at a timestamp: the active rules and precompiles. It
// parses and verifies these with the reference's error texts and renders the JSON of
// eth_getChainConfig, eth_getActiveRulesAt and eth_getActivePrecompilesAt. It executes nothing:
// package precompile runs the precompiles, package evm the chain.
//
// # Start-up
//
// [ParseGenesis] runs the start-up pipeline of l1-evm.md §4.3: decode the genesis, default the
// fee config, fill in the network's upgrade defaults, apply the upgrade file's overrides,
// verify, and derive the Ethereum fork times. The resulting [ChainConfig] is what every other
// method works on.
//
// # Concurrency and ownership
//
// Values are plain data. A [ChainConfig] that is no longer modified may be read from any
// number of goroutines. The configs returned by the activation helpers, [ChainConfig.ActiveConfig]
// and [ChainConfig.ActivePrecompilesAt] are the ones held by the chain config, not copies: callers
// must not modify them.
package l1params
