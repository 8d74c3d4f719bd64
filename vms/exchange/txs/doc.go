// Package txs holds the X-Chain's wire formats: the transactions, blocks, UTXOs and genesis of
// reference/platform-exchange.md §6, encoded with the linear codec (§1) and the X-Chain's type IDs
// (§1.3), with their JSON forms (§6.5). Tools (the wallet, the genesis builder) import it without
// the VM, package exchange.
//
// What both chains write alike lives once, generic over each chain's own types, and this package
// binds it to its own: the UTXO model, the BaseTx fields and the atomic ImportTx and ExportTx
// bodies in vms/components/utxo, the signed-tx envelope in vms/internal/signed, and the JSON forms
// of txs, their BaseTx fields, atomic bodies, outputs and inputs in vms/internal/txjson.
//
// # Transactions
//
// Each tx kind (BaseTx, CreateAssetTx, OperationTx, ImportTx, ExportTx) is a struct of exported
// fields that implements the sealed [UnsignedTx] interface; there is one file per kind. A [Tx] pairs
// an unsigned tx with its credentials and caches its signed bytes, the span of its unsigned bytes
// and its ID: the ID is sha256 of the signed bytes, and signers sign sha256 of the unsigned bytes
// (§2.2, §3.2). An asset's ID is the ID of the CreateAssetTx that created it (§2.3).
//
// Interface-typed fields are written as a uint32 type ID and a body; the closed switches in
// typeids.go are the X-Chain's type table. Of the three feature extensions the reference registers
// (secp256k1fx, nftfx, propertyfx), only secp256k1fx's types are read: an nftfx or propertyfx type
// ID fails to decode with codec.ErrUnknownTypeID.
//
// # Blocks and genesis
//
// Since Cortina the X-Chain is a linear chain of [StandardBlock]s (§6.1), immutable once encoded;
// the block ID is sha256 of the block bytes. The chain's genesis state is a [Genesis] of assets
// (§6.4), and its genesis block is a StandardBlock on the stop vertex, with no txs
// ([NewGenesisBlock]).
//
// # Ownership and concurrency
//
// ParseTx, ParseBlock, ParseGenesis and ParseUTXO copy their input; the values they return share
// that copy, so byte-slice fields (memos) must not be modified. Tx and StandardBlock values are safe
// for concurrent reads. The unsigned tx structs are plain data: do not change one after it went
// into a Tx, whose bytes and ID would no longer match.
//
// Parsing checks only the wire format; the VM checks the rules.
package txs
