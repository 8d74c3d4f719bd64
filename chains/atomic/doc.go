// Package atomic is the node's shared memory: the atomic UTXOs that one chain of the Primary
// Network (X, P, C) exports to another and that the other imports (issue #14 §1,
// reference/platform-exchange.md §6.2).
//
// Every pair of chains has, in each direction, a set of elements keyed by (destination chain,
// source chain). An element is a UTXO: its key is the UTXO's ID (ids.ID.Prefix of its tx ID and
// output index), its value the UTXO's bytes in the source chain's codec, its traits the addresses
// that own it, so that getUTXOs with a sourceChain can page a destination's atomic UTXOs by
// address ([SharedMemory.Keys]).
//
// A chain writes to shared memory only through the batch of the block it accepts
// ([SharedMemory.Apply] from chains.Block.Accept): an ExportTx puts its UTXOs into the destination's
// set, an ImportTx removes them from its own set, in the same Pebble batch as the rest of its
// block, its index entry and its last-accepted pointer. A crash therefore leaves an exported or
// imported UTXO together with the block that moved it, never one without the other: no AVAX is
// lost or made twice.
//
// Only the destination chain removes from a set and only the source chain puts into it, with
// fresh UTXO IDs, so two chains' batches never write the same key. Reads see the state published
// after the last durable commit (storage's "durable before visible"): a UTXO is importable once
// the export's block is on disk.
//
// Concurrency: a Memory and its SharedMemory handles are safe for concurrent use. Slices passed in
// are not kept; slices returned belong to the caller.
package atomic
