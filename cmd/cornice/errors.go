package main

import (
	"errors"
	"fmt"
	"strings"
)

// errVMName refuses a --vm that is neither a CB58 VM ID nor a name of 1 to 32 bytes, the way VM
// IDs are made from names (node-api.md §6).
var errVMName = errors.New("not a VM ID nor a VM name of 1 to 32 bytes")

// errHexFlag refuses a flag that is not hex of the length the transaction's field has
// (node-api.md §4.3: compressed BLS keys are 48 bytes, proofs of possession 96).
var errHexFlag = errors.New("not hex of the right length")

// errChainName refuses a chain name a CreateChainTx would not take: 1 to 128 ASCII letters,
// digits and spaces (platform-exchange.md). cornice's own text.
var errChainName = errors.New("a chain name is 1 to 128 letters, digits and spaces")

// The validators of `cornice p convert-subnet`: cornice's own texts.
var (
	// errValidatorFlags refuses some of the single-validator flags without the others.
	errValidatorFlags = errors.New("--validator-node-id, --validator-bls-key, --validator-pop and --weight go together (--balance is optional)")
	// errNoValidator refuses a conversion without validators: the tx needs one (§4.3).
	errNoValidator = errors.New("no validator: give --validator or --validator-node-id and its flags")
	// errValidatorSpec refuses a --validator value that is not the comma-separated fields.
	errValidatorSpec = errors.New("a validator is node-id=NodeID-…,bls-key=0x…,pop=0x…,weight=N[,balance=N]")
)

// errTransferChain refuses a transfer between chains this build cannot move AVAX between.
// cornice's own text.
var errTransferChain = errors.New("transfers move AVAX between X, P and C")

var (
	// errKeylessSpent is a keyless deployment whose deployer has used its one nonce.
	errKeylessSpent = errors.New("the keyless deployment cannot happen")
)

// shapeError refuses `network start` flags (given) that differ from those the network in dir
// was created with (was), which start would otherwise ignore. cornice's own text.
func shapeError(dir string, given, was []string) error {
	return fmt.Errorf("%s: the network in %s was created with %s, and start resumes a network as it was created; "+
		"to create it anew with these flags, run `cornice network stop --dir %s`, remove %s, and start again",
		strings.Join(given, " "), dir, strings.Join(was, " "), dir, dir)
}
