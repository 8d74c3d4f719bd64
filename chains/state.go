package chains

import "strconv"

// State is where a chain's engine is in its life (node-api.md §3.2: only
// NormalOperation counts as bootstrapped).
type State uint8

// The states, in the order a chain goes through them.
const (
	// Created: the chain is registered; its engine has not started.
	Created State = iota
	// Bootstrapping: the engine is catching up (bootstrapping or state
	// sync).
	Bootstrapping
	// NormalOperation: the engine follows consensus; the chain's API
	// answers (§2.3: /ext/bc/… returns 503 before this).
	NormalOperation
)

// String returns the state's name.
func (s State) String() string {
	switch s {
	case Created:
		return "Created"
	case Bootstrapping:
		return "Bootstrapping"
	case NormalOperation:
		return "NormalOperation"
	default:
		return "State(" + strconv.Itoa(int(s)) + ")"
	}
}
