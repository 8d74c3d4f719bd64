package main

import "errors"

// Errors loadgen reports to its user. None of them reproduces a reference-node text: they are the
// tool's own, kept here so every message can be found in one place.
var (
	// errBadLevels reports an unusable -c list.
	errBadLevels = errors.New("-c must be a comma-separated list of positive integers")
	// errBadParams reports -params that is not one JSON value.
	errBadParams = errors.New("-params must be valid JSON")
	// errBadBound reports a non-positive -n or -duration, or a negative -warmup.
	errBadBound = errors.New("-n and -duration must be positive and -warmup not negative")
	// errUnhealthyReply is returned when the reply to copy for -bare is not a 200 JSON-RPC success.
	errUnhealthyReply = errors.New("the node's reply is not a 200 JSON-RPC success")
)
