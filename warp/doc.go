// Package warp implements Avalanche Warp Messaging (ACP-30): unsigned and signed messages in
// the reference's codec layout, BLS signing and aggregation, the signer bitset over the
// canonical validator set, and verification with a quorum computed on big integers
// (network-consensus-warp.md §4.1, §4.2; platform-exchange.md §4.5).
//
// The payloads a message carries are in package warp/payload (Hash, AddressedCall) and the
// P-Chain's ACP-77 messages in warp/acp77. This package never imports a VM: the VMs call it,
// and hand it the validator sets it verifies against.
//
// Messages are values: parsers copy their input, and every returned slice belongs to the caller.
package warp
