package main

import "errors"

// errVMName refuses a --vm that is neither a CB58 VM ID nor a name of 1 to 32 bytes, the way VM
// IDs are made from names (node-api.md §6).
var errVMName = errors.New("not a VM ID nor a VM name of 1 to 32 bytes")
