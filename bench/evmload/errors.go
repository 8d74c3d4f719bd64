package main

import (
	"errors"
	"fmt"
)

// Errors evmload reports to its user. None of them reproduces a reference-node text: they are the
// tool's own, kept here so every message can be found in one place.
var (
	// errUsage reports a missing or unknown mode.
	errUsage = errors.New("usage: evmload [flags] node|transfers|call|mine|snapshot")
	// errBadBound reports a count, size or duration that must be positive.
	errBadBound = errors.New("-n, -senders, -batch, -wave, -c, -duration, -timeout, -blocks and -rounds must be positive")
	// errNotAccepted is returned when the transfers sent were not all accepted in time.
	errNotAccepted = errors.New("not every transfer was accepted before -timeout")
	// errDevMethod reports a developer method that answered other than anvil does.
	errDevMethod = errors.New("developer method answered wrongly")
	// errL1Mode refuses -l1 outside the node mode: the load modes find an L1 by its RPC URL.
	errL1Mode = errors.New("-l1 creates an L1 in the node mode only; load an L1 with -url <its RPC URL>")
)

// sendErrors reports how many of the calls sent failed, with the first failure.
func sendErrors(failed, total int, first error) error {
	return fmt.Errorf("%d of %d eth_sendRawTransaction calls failed; first: %w", failed, total, first)
}
