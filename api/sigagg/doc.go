// Package sigagg serves POST /ext/aggregate-signatures: the request and reply of the reference's
// signature aggregator (ava-labs/icm-services signature-aggregator, POST /aggregate-signatures),
// answered by the node's own aggregator. A client that talks to that aggregator can use the node
// instead: the P-Chain's ACP-77 messages and the messages of the node's chains come back signed
// by the validators the node can reach (on a lone node, itself).
package sigagg
