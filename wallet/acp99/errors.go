package acp99

import (
	"errors"

	"github.com/cornice-node/cornice/wallet/evmwait"
)

var (
	// ErrReverted is returned when a manager call's transaction reverts: evmwait's, which sends it.
	ErrReverted = evmwait.ErrReverted
	// ErrNoEvent is returned when a receipt lacks the event or warp message a step expects.
	ErrNoEvent = errors.New("receipt lacks the expected log")
	// ErrUnknownValidator is returned when the manager knows no validation for a node.
	ErrUnknownValidator = errors.New("the manager has no validation for this node")
	// ErrAlreadyInitialized is returned by InitializeValidatorSet for a manager that was.
	ErrAlreadyInitialized = errors.New("the manager's validator set is already initialized")
	// ErrConversionChanged is returned when the P-Chain's initial validators no longer hash
	// to the subnet's conversion ID.
	ErrConversionChanged = errors.New("conversion data differs from the conversion ID")
	// ErrInitialValidator is returned for the removal of a conversion's initial validator,
	// whose justification (subnet ID and index) this package does not build.
	ErrInitialValidator = errors.New("removing a conversion's initial validator is not supported")
)
