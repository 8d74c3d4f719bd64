// Package acp118 is the Warp signature request protocol of ACP-118 (network-consensus-warp.md
// §4.3): the request and response messages an AppRequest with handler ID 2 carries, the handler
// that answers a request for one chain (verify with the chain's rules, then sign with the node's
// BLS key), and an aggregator that gathers the signatures of a subnet's validators until a
// quorum of its weight has signed.
//
// The handler and the aggregator know nothing of the network: the router serves a Handler's
// AppRequest, and the aggregator asks a SignatureSource, which on a lone node is the node's own
// handlers.
package acp118
