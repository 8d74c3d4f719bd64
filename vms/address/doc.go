// Package address formats and parses chain addresses, `<alias>-<bech32>` such as
// `X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u`: a chain alias, a dash, and the BIP-173 bech32
// encoding of a 20-byte short address under the network's human-readable part
// (reference/platform-exchange.md §2.4), and parses the addresses a chain's API takes (Chain),
// answering with the clients' texts. The P- and X-Chain APIs and the genesis config use it.
//
// Its functions are pure and safe for concurrent use; they keep none of their arguments.
package address
