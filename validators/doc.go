// Package validators keeps the weighted validator set of each subnet: which nodes validate the
// Primary Network, a subnet or an L1, and with what weight.
//
// The P-Chain feeds a Set as stakers start and stop; until it does, node/ seeds the set from
// genesis. Readers such as api/info (acps, uptime; reference/node-api.md §3.1, §3.12) ask for one
// node's weight and a subnet's total weight.
//
// A Set is safe for concurrent use. Every method returns copies: slices handed out belong to the
// caller. Weights are checked for overflow on the way in, so a subnet's total weight always fits in
// a uint64 and always equals the sum of its validators' weights.
package validators
