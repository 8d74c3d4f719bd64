// Package api holds the arguments and replies of the X-Chain's avm service
// (reference/platform-exchange.md §6.5), so that clients (the wallet, the tests) decode the
// service's JSON without importing the VM. The service itself is the VM's (package exchange).
//
// Keys match case-insensitively and unknown keys are ignored; an omitted encoding is hex. The
// types are plain values, safe to copy. The arguments and replies of the methods both chains share
// (issueTx, getTx, getTxStatus, getHeight, getBlock, getBlockByHeight, getUTXOs) are package
// chainapi's.
package api
