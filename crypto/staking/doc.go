// Package staking handles the node's staking identity: the TLS key and self-signed certificate a
// node presents to its peers, the NodeID derived from that certificate, and the rules for accepting
// a peer's certificate (node-api.md §4.1 and §4.2).
//
// All functions are safe for concurrent use. Functions never keep the slices they are given, and
// returned slices belong to the caller.
package staking
