// Package admin is the Admin API: the JSON-RPC service "admin" at /ext/admin, which the node
// mounts only when --api-admin-enabled is set (reference/node-api.md §2.1, §2.3).
//
// Methods:
//
//   - aliasChain {"chain","alias"} → {}: gives a chain another alias and serves the chain's API
//     under /ext/bc/<alias> too. This is the only way chain routes get a custom alias; aliases from
//     a chain-aliases file affect lookups only (node-api.md §2.3).
//   - getChainAliases {"chain"} → {"aliases":[...]}: the chain's aliases.
//
// The service reads and changes chains and routes through the small Chains and Routes interfaces,
// which node/ satisfies. A Service is safe for concurrent use; aliasChain calls are serialised so
// that the alias and its routes are added together.
package admin
