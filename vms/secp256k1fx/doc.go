// Package secp256k1fx holds the secp256k1 feature extension's wire types, shared by the P-Chain and
// the X-Chain: inputs, outputs, owners and credentials (reference/platform-exchange.md §3.1).
//
// Each type writes and reads its own fields with [codec.Packer] and [codec.Unpacker]; the type IDs
// in front of them belong to each VM's table (P: §1.3, X: §1.3), not to this package. Decoding only
// checks the wire format; the validity rules of §3.1 and the spend rules of §3.3 are checked by
// the Verify methods, and signatures by the VMs.
//
// Decoded values never alias the Unpacker's input: every field is a fixed array or a freshly
// allocated slice.
package secp256k1fx
