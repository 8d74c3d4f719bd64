// Package txs holds the P-Chain's wire formats: the transactions, blocks, UTXOs and genesis of
// reference/platform-exchange.md §4, encoded with the linear codec (§1) and the P-Chain's type IDs
// (§1.3), with their JSON forms (§5.0) and complexities (§4.8). Tools (the wallet, the genesis
// builder) import it without the VM, package platform.
//
// What both chains write alike lives once, generic over each chain's own types, and this package
// binds it to its own: the UTXO model, the BaseTx fields and the atomic ImportTx and ExportTx
// bodies in vms/components/utxo, the signed-tx envelope in vms/internal/signed, and the JSON forms
// of txs, their BaseTx fields, atomic bodies, outputs and inputs in vms/internal/txjson.
//
// # Transactions
//
// Each tx kind (BaseTx, CreateSubnetTx, CreateChainTx, ...) is a struct of exported fields that
// implements the sealed [UnsignedTx] interface; there is one file per kind. A [Tx] pairs an
// unsigned tx with its credentials and caches its signed bytes, the span of its unsigned bytes and
// its ID: the ID is sha256 of the signed bytes, and signers sign sha256 of the unsigned bytes (§2.2,
// §3.2). Interface-typed fields (inputs, outputs, signers, the unsigned tx) are written as a uint32
// type ID and a body; the closed switches in typeids.go are the P-Chain's type table.
//
// # Blocks
//
// A [Block] is immutable: NewStandardBlock and friends encode it once, and ParseBlock keeps the
// bytes it parsed. The block ID is sha256 of the block bytes (§2.2).
//
// # Ownership and concurrency
//
// ParseTx, ParseBlock, ParseGenesis and ParseUTXO copy their input; the values they return share
// that copy, so byte-slice fields (memos, genesis data, warp messages) must not be modified.
// Tx and Block values are safe for concurrent reads. The unsigned tx structs are plain data: do not
// change one after it went into a Tx, whose bytes and ID would no longer match.
//
// The format types check only the wire format; the VM checks the rules.
package txs
