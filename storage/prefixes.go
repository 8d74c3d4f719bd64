package storage

// Prefix is the first byte of every key that one component owns. This file
// is the only place that allocates prefixes: a new component adds a
// constant here, with a comment naming its owner, and to allPrefixes.
//
// Invariant: every prefix is one distinct byte, so no prefix is a prefix of
// another and two components can never see each other's keys. A component
// that splits its space further (per chain, say) must use fixed-length
// sub-prefixes, such as a 32-byte chain ID, for the same reason.
type Prefix byte

// The node's key prefixes. Values are stable on disk: never renumber one;
// retire it instead.
const (
	// PrefixMeta is owned by storage: the database version (key "version")
	// and any later database-wide metadata.
	PrefixMeta Prefix = 'm'
	// PrefixChains is owned by chains: the registry's persisted aliases
	// (those added through Registry.Alias, which survive a restart) and,
	// later, what else the registry must remember about chains.
	PrefixChains Prefix = 'c'
	// PrefixIndex is owned by index: accepted containers in acceptance
	// order, per chain and index kind.
	PrefixIndex Prefix = 'i'
	// PrefixPlatform is reserved for vms/platform: P-Chain state.
	PrefixPlatform Prefix = 'p'
	// PrefixExchange is reserved for vms/exchange: X-Chain state.
	PrefixExchange Prefix = 'x'
	// PrefixEVM is reserved for vms/evm: the state of every EVM chain
	// (C-Chain and L1s), each under the 32-byte chain ID that follows
	// this byte.
	PrefixEVM Prefix = 'e'
	// PrefixUptime is owned by uptime: the validators' up time of each
	// chain that tracks it (L1s), under the 32-byte chain ID that follows
	// this byte.
	PrefixUptime Prefix = 'u'
	// PrefixNode is owned by node: what the data directory was made for
	// (key "networkID", the network's ID as 4 big-endian bytes).
	PrefixNode Prefix = 'n'
	// PrefixAtomic is owned by chains/atomic: the shared memory of the
	// Primary Network's chains (the atomic UTXOs one exported to another).
	PrefixAtomic Prefix = 's'
	// PrefixProposer is owned by vms/proposervm: the proposervm blocks of
	// each chain that runs among several validators, under the 32-byte
	// chain ID that follows this byte.
	PrefixProposer Prefix = 'w'
	// PrefixRelay is owned by relay: the relayer's key, how far it has looked on each chain,
	// and its deliveries.
	PrefixRelay Prefix = 'r'
)

// allPrefixes lists every prefix above; the tests check it for clashes.
var allPrefixes = []Prefix{
	PrefixMeta,
	PrefixChains,
	PrefixIndex,
	PrefixPlatform,
	PrefixExchange,
	PrefixEVM,
	PrefixUptime,
	PrefixNode,
	PrefixAtomic,
	PrefixProposer,
	PrefixRelay,
}

// Bytes returns the prefix as a new one-byte slice, which the caller owns.
func (p Prefix) Bytes() []byte { return []byte{byte(p)} }

// versionKey is the key, under PrefixMeta, of the database version.
const versionKey = "version"
