// Package wallet builds, signs and issues X-Chain and P-Chain transactions with a secp256k1 key:
// sending AVAX, creating an asset and sending an asset, creating subnets, chains and L1s, staking
// (reference/platform-exchange.md §3, §4, §6).
//
// # Pieces
//
// A [Key] is a secp256k1 private key, parsed from `PrivateKey-<CB58>` or hex; it signs the sha256
// of a tx's unsigned bytes into the 65-byte r‖s‖v credentials of §3.2 ([SignTx]). An [XBuilder]
// turns a set of UTXOs into a signed BaseTx or CreateAssetTx without any I/O: it selects UTXOs,
// pays the static fee in AVAX (§6.3), returns change to the sender and sorts inputs and outputs
// as §3.3 requires. [X] puts the two on a node: it reads the chain's parameters and the key's
// UTXOs over HTTP (info.*, avm.getUTXOs, paged), issues txs with avm.issueTx and polls
// avm.getTxStatus until acceptance. [Client] is the small JSON-RPC 2.0 client under it.
//
// [P] does the same on the P-Chain (subnets, chains, L1 conversions, Primary Network validators
// and delegators, whose node ID and proof of possession [NodeIdentity] reads from a node). [CreateL1] runs the whole
// L1 workflow on a node with a [P]: CreateSubnetTx, CreateChainTx of the Subnet-EVM VM,
// ConvertSubnetToL1Tx with the node as validator, then waits until the chain answers; run again
// after a crash, it finishes the same L1 instead of making another.
//
// # Dependencies
//
// Signing uses go-ethereum's crypto package, whose cgo build links libsecp256k1. Package node and
// everything it imports must not import this package: node's tests link the reference node's
// clients, whose C secp256k1 symbols clash with go-ethereum's (docs/decisions.md). Only
// cmd/cornice, the bench tools and tests use it.
//
// # Concurrency and ownership
//
// Key, XBuilder and Client are safe for concurrent use. X is safe for concurrent use, but two txs
// built at once from the same UTXOs spend the same outputs, and the node accepts only the first.
// Returned txs and UTXOs belong to the caller; the UTXO slices passed to XBuilder are only read.
package wallet
