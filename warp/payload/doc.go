// Package payload implements the two payloads a warp message carries
// (network-consensus-warp.md §4.1): Hash (type 0), a 32-byte hash such as a block ID, and
// AddressedCall (type 1), bytes sent by an address of the source chain.
package payload
