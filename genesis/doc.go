// Package genesis builds the genesis of the Primary Network's chains from a network's genesis config.
//
// A [Config] is the JSON genesis config of reference/platform-exchange.md §7 (the format of the
// reference's genesis_local.json): allocations, initial stakers, the C-Chain's genesis and a start
// time. [Local] returns the local network's config, which is embedded in the binary. [Build] turns a
// config into the chains' genesis exactly as the reference node does (§4.6, §6.4, §7): the X-Chain's
// genesis and the AVAX asset ID, the X and C CreateChainTxs whose IDs are the chain IDs, and the
// P-Chain's genesis bytes, from which the P-Chain's genesis block follows.
//
// The local network's start time moves with the date (§7.2): Build takes the current time as an
// argument and never reads a clock itself.
//
// Addresses in a config are bech32 chain addresses (`X-local1…`, §2.4), decoded by this package's
// own BIP-173 decoder.
//
// Everything here is a pure function of its arguments. The values Build returns are new and owned
// by the caller, but the txs in them are immutable (see vms/platform and vms/exchange).
package genesis
