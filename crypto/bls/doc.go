// Package bls implements the node's BLS signer: BLS12-381 keys and signatures in the
// minimal-public-key-size scheme on supranational/blst, and the proof of possession that registers a
// key on the P-Chain (node-api.md §4.3, platform-exchange.md §4.3).
//
// Public keys are G1 points, 48 bytes compressed and 96 uncompressed; signatures are G2 points, 96
// bytes compressed. Ordinary signatures (warp messages) use the domain separation tag
// BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_, proofs of possession BLS_POP_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_.
// Signing is deterministic.
//
// SecretKey, PublicKey and Signature values are immutable once made and safe for concurrent use.
// Parsers never keep the slices they are given, and every returned slice belongs to the caller.
// A PublicKey or Signature is only made by this package's constructors, which validate it; the
// verification functions still check group membership, so a zero value can never verify.
package bls
