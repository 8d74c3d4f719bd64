package main

import "errors"

// errVMName refuses a --vm that is neither a CB58 VM ID nor a name of 1 to 32 bytes, the way VM
// IDs are made from names (node-api.md §6).
var errVMName = errors.New("not a VM ID nor a VM name of 1 to 32 bytes")

// errHexFlag refuses a flag that is not hex of the length the transaction's field has
// (node-api.md §4.3: compressed BLS keys are 48 bytes, proofs of possession 96).
var errHexFlag = errors.New("not hex of the right length")
