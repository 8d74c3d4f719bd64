package l1validators

import (
	"errors"
	"fmt"

	"github.com/cornice-node/cornice/ids"
)

// Texts a client can see. Handler errors go out as JSON-RPC code -32000 with err.Error() as the
// message, the engine's mapping for any error that is not a *jsonrpc.Error (reference/l1-evm.md
// §2.5); this service declares no codes of its own. Params that do not decode (a bad NodeID, say)
// get the engine's `couldn't unmarshal an argument…`, and method-name errors are the engine's too.

// validatorSetError reports a failed P-Chain lookup: `failed to get current validator set: <err>`
// (reference/l1-evm.md §2.5).
func validatorSetError(err error) error {
	return fmt.Errorf("failed to get current validator set: %w", err)
}

// uptimeError reports a validator whose uptime is unknown: `failed to get uptime for validation ID
// <id>: <err>`, where the tracker's err reads `validationID not found: <id>` (reference/l1-evm.md
// §2.5).
func uptimeError(validationID ids.ID, err error) error {
	return fmt.Errorf("failed to get uptime for validation ID %s: %w", validationID, err)
}

// Errors of New. They never reach a client.
var (
	// ErrInvalidConfig is wrapped by every problem New finds; New reports all of them at once.
	ErrInvalidConfig = errors.New("l1validators: invalid config")
)

// configError reports one problem with New's arguments.
func configError(what string) error {
	return fmt.Errorf("%w: %s", ErrInvalidConfig, what)
}
