// Package chains holds the chain registry: every chain the node runs, with
// its IDs, aliases and engine state.
//
// The [Registry] answers the alias questions of the info and admin
// services (reference/node-api.md §3.2, §3.3) and tells the HTTP router,
// through [Registry.OnRegister], when a chain's routes must be added
// (§2.3). The VM interface and the acceptance pipeline will live here too.
//
// Aliases. An alias names one chain ID; two IDs never share an alias. The
// node pre-aliases the Primary Network chains at start-up (P/platform,
// X/avm, C/evm) with the IDs from genesis, before the chains exist. A
// chain's ID string becomes an alias only when the chain is registered, as
// in the reference. Aliases added through [Registry.Alias] (admin.aliasChain)
// are persisted and come back after a restart; the others are set up again
// by the node at every start.
//
// An ID's aliases are kept in this order, and the first is its primary
// alias: those given to PreAlias and Register, in call order (Register adds
// its given aliases, then the ID string), followed by those added with
// Alias, in the order they were added. The index and the router use the
// primary alias ("P", "X", "C"; the ID string for a chain without one).
//
// Concurrency: a Registry is safe for concurrent use. Slices it returns are
// new and belong to the caller.
package chains
