// Package info is the Info service: facts about this node and its network, served at /ext/info
// under the JSON-RPC service name "info" (reference/node-api.md §3).
//
// It answers the thirteen methods of the reference node with the same field names, key order and
// string encodings (node-api.md §3, §1.8, §7 items 8 and 11–18). Two methods follow our spec where it
// goes beyond the reference (reference/README.md, "Precedence"):
//   - info.acps is computed from the ACP preferences that connected validators state in their
//     handshake, weighted by their Primary Network stake, over the node's known ACP set
//     (Config.ACPs) rather than the reference's empty list.
//   - info.uptime takes an optional subnetID; with it, the node's uptime is computed over that
//     subnet's (or L1's) validator set and the uptimes its peers report for that subnet. The set
//     comes from Deps.SubnetValidators, the P-Chain's view the L1 validators API serves too, when
//     node/ supplies it. Without subnetID, or with the Primary Network ID, the result is the
//     reference's.
//
// The service reads the rest of the node through the small interfaces of Deps (chains, aliases,
// peers, validators, subnet validators), which it declares and node/ satisfies. A Service is safe
// for concurrent use: it keeps its own copy of Config and never changes it, and every handler reads
// its dependencies afresh. Slices it receives from Peers.Connected and maps from SubnetValidators are only read.
package info
