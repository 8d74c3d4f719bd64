package health

import (
	"errors"
	"fmt"
)

// Errors of Register; they reach only the code that sets the node up.
var (
	// ErrDuplicateCheck is returned when a check of the same kind and name is registered twice.
	ErrDuplicateCheck = errors.New("health: check already registered")
	// ErrInvalidCheck is returned for an empty name, a nil check function or an unknown Kind.
	ErrInvalidCheck = errors.New("health: invalid check")
	// ErrInvalidConfig is returned by New for a negative timeout.
	ErrInvalidConfig = errors.New("health: invalid config")
)

// Texts that appear as the "error" of a failing check in a report (node-api.md §2.3). The reference
// runs checks in the background and has neither; they are cornice's, as checks run on demand.
var (
	// ErrTimeout is the error of a check that did not return within Config.Timeout.
	ErrTimeout = errors.New("health check timed out")
	// ErrPanicked is the error of a check that panicked; the panic value follows a colon.
	ErrPanicked = errors.New("health check panicked")
)

func duplicateCheckError(kind Kind, name string) error {
	return fmt.Errorf("%w: %s check %q", ErrDuplicateCheck, kind, name)
}

func panicError(v any) error { return fmt.Errorf("%w: %v", ErrPanicked, v) }
