package main

import "errors"

// Errors the soak reports. None reproduces a reference-node text: they are the tool's own, kept
// here so every message can be found in one place.
var (
	// errReverted reports a transaction whose receipt says it failed.
	errReverted = errors.New("transaction reverted")
	// errMismatch reports a value read back from the node that differs from what the load did.
	errMismatch = errors.New("mismatch")
	// errNoValidators reports a platform.getCurrentValidators reply without validators.
	errNoValidators = errors.New("platform.getCurrentValidators returned no validators")
	// errWrongRole reports an allow-list role other than the one the genesis set.
	errWrongRole = errors.New("unexpected allow-list role")
	// errBroken is returned when at least one invariant does not hold.
	errBroken = errors.New("invariants broken")
	// errBadFlag reports a duration or rate out of range.
	errBadFlag = errors.New("-duration and -sample must be positive, rates must not be negative")
	// errLeak reports goroutines that did not go away after the load.
	errLeak = errors.New("goroutines above the level before the load")
	// errLoadFailed reports load operations that failed.
	errLoadFailed = errors.New("load operations failed")
	// errNodeLog reports ERROR records the node logged.
	errNodeLog = errors.New("the node logged at ERROR level")
)
