// Package atomic is the wire format of the C-Chain's atomic transactions, which move AVAX between
// the C-Chain's EVM balances and the shared memory of the X- and P-Chains: ImportTx (type ID 0)
// spends UTXOs another chain exported to the C-Chain and credits EVMOutputs; ExportTx (type ID 1)
// debits EVMInputs and puts UTXOs into another chain's shared memory (the reference's coreth atomic
// codec, version 0; vectors in codec-vectors-2.json).
//
// A tx is the X- and P-Chains' signed envelope (vms/internal/signed) over this package's two
// kinds: codec version, type ID, fields, then secp256k1fx credentials (type ID 9); its ID is
// sha256 of the signed bytes. The inputs and outputs that hold UTXOs are the X-Chain's
// (vms/exchange/txs: TransferInput 5, TransferOutput 7), whose type IDs the atomic codec shares.
//
// What needs no state is here: the syntactic checks (Verify), the gas a tx uses, the AVAX it
// burns and the fee it owes at a base fee, the UTXO IDs it consumes and the UTXOs it exports. The
// EVM chain applies txs to its state and to shared memory.
package atomic
