package uptime

import (
	"errors"
	"fmt"

	"github.com/cornice-node/cornice/ids"
)

var (
	// ErrNotFound is wrapped by Uptime for a validation ID the tracker does not know. Its text is
	// part of the validators API's error `failed to get uptime for validation ID <id>:
	// validationID not found: <id>` (reference/l1-evm.md §2.5).
	ErrNotFound = errors.New("validationID not found")
	// ErrClosed is returned by the methods that write once Close has been called.
	ErrClosed = errors.New("uptime: tracker closed")
	// ErrCorrupt is wrapped by New when a stored record cannot be decoded.
	ErrCorrupt = errors.New("uptime: corrupt record")
)

// notFoundError reports an unknown validation ID: `validationID not found: <id>`
// (reference/l1-evm.md §2.5).
func notFoundError(validationID ids.ID) error {
	return fmt.Errorf("%w: %s", ErrNotFound, validationID)
}
