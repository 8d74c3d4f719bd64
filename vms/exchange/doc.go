// Package exchange is the X-Chain's VM ([Factory], [VM]) with the avm API (§6.5 of
// reference/platform-exchange.md). Its wire formats are package txs, the API's arguments and
// replies package api.
//
// [VM] (made by [Factory], a chains.Factory) runs the X-Chain under the acceptance pipeline: it
// keeps UTXOs by ID and by owner address, accepted txs, and blocks by ID and height in its own
// key space (state.go), writing everything a block changes into the block's batch in
// [Block.Accept] and updating its memory in Accepted. It executes BaseTx and CreateAssetTx with
// the secp256k1fx: syntactic rules (§3.3, §6.2), credentials (recoverable secp256k1 signatures
// over sha256 of the unsigned bytes, §3.2), UTXO existence, locktimes and thresholds, per-asset
// balance with the static fee in AVAX (§6.3), and no double spend within a block, across blocks
// or among pending txs. A block is built as soon as a tx is pending. The avm API (§6.5) is its
// handler at the chain's base path.
//
// vm.go is the VM's lifecycle, builder.go the mempool and the block builder, block.go a block's
// verification and acceptance; what each tx kind checks and pays is one file per kind (tx_*.go),
// the methods of the visitor syntacticCheck (txs.Visitor).
//
// The VM is safe for concurrent use as chains.VM requires: its API handlers run alongside the
// pipeline; a mutex guards the mempool and the last accepted block, and the API reads committed
// state from the database.
package exchange
