// Package relay is the node's built-in Interchain Messaging relay (issue #15 §4): it watches
// every EVM chain the node runs for Teleporter messages (a messenger's SendCrossChainMessage
// with the Warp message it sent), has the message signed by the source's validators through
// the node's aggregator, and delivers it to the destination chain's messenger, at the same
// address, with receiveCrossChainMessage(0, relayer) and the signed message as the warp
// predicate in the access list, from a key of its own that the local network's funded key
// tops up. It does on one node what the reference's separate relayer (ava-labs/icm-services)
// and signature aggregator do.
//
// Crash safety: for each chain the relay stores how far it has looked; before sending a
// delivery it stores the signed transaction, and it marks the message delivered once the
// transaction is accepted. After a crash it sends the stored transactions again (the same
// bytes, so at most one of them executes) and looks again at the blocks after its mark, where
// a message with a stored or delivered transaction is passed over and the destination
// messenger is asked whether it has the message already. The messenger itself refuses a
// message twice ("message already delivered").
package relay
