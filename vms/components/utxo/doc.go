// Package utxo is the UTXO model the X- and P-Chains share (reference/platform-exchange.md §2.2,
// §3.3): a UTXO's ID and the input ID derived from it, the UTXO record and its bytes (over a
// chain's own output kinds), the transferable outputs and inputs, the BaseTx fields every tx
// starts with and what an ImportTx and an ExportTx add to them, the order inputs are sorted in,
// the checks of a spend (locktime, threshold, signers), the overlay of pending spends on a
// chain's state and the diff a block's txs leave on it. Each chain keeps its own output and input
// types (the P-Chain has stakeable locks, the X-Chain mint outputs), type IDs and tx kinds: its
// txs package instantiates these types with its Kinds, so the bytes stay the chain's.
//
// Values are plain data; an Overlay is not safe for concurrent use (its owner's lock guards it).
package utxo
