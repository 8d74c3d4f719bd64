// Package icm is Interchain Messaging for cornice: the messenger contract of our own with
// Teleporter's interface, events and message format (contracts/Messenger.sol, compiled with
// solc 0.8.30 into contracts/contracts.json, which this package embeds), contracts for tests,
// and the Go side of the format: the events, the TeleporterMessage a Warp message carries,
// message IDs, and keyless ("Nick's method") deployment transactions.
//
// contracts/build.sh regenerates contracts.json; TestContractsUpToDate checks it against the
// sources when solc-js is at hand.
package icm
