// Package l1validators is the validators API of an L1 chain: validators.getCurrentValidators,
// served at /ext/bc/<blockchainID>/validators under the JSON-RPC service name "validators"
// (reference/l1-evm.md §2).
//
// The service reads the chain's current validator set from the P-Chain through [Source] and this
// node's measure of their uptime and connections through [Uptimes]; node/ adapts the platform VM
// and the chain's uptime.Tracker to them. Unlike the P-Chain API, integers are JSON numbers here
// (§2.3). Validators are sorted by NodeID, then validation ID, both by bytes, so answers are
// deterministic (the reference's order is undefined).
//
// A Service is safe for concurrent use when its Source and Uptimes are. Slices returned by Source
// are only read.
package l1validators
