package info

import (
	"errors"
	"fmt"

	"github.com/cornice-node/cornice/ids"
)

// Texts a client can see. Every handler error goes out as JSON-RPC code -32000 with err.Error() as
// the message (node-api.md §1.2 step 6, §1.7); the jsonrpc engine applies that mapping to any error
// that is not a *jsonrpc.Error, so this service declares no codes of its own. Errors that the
// registry returns (`there is no ID with alias: <alias>`, §3.3; `there is no chain with alias/ID
// '<chain>'`, §3.2; `there is no alias for ID: <id>`, §3.11) already carry the reference's texts and
// are passed on unchanged.
var (
	// errNoChainProvided answers info.isBootstrapped when chain is missing or "" (node-api.md §3.2,
	// Appendix A).
	errNoChainProvided = errors.New("argument 'chain' not given")
	// errNotValidator is the cause inside uptimeError when this node has no weight in the
	// requested validator set (node-api.md §3.12 step 1, §7 item 14).
	errNotValidator = errors.New("node is not a validator")
	// errTotalWeightOverflow is the cause inside uptimeError when the weights of a subnet's
	// validators add up to more than a uint64, which the P-Chain never allows. The text is ours:
	// the reference's validator set fails the same way before info.uptime runs.
	errTotalWeightOverflow = errors.New("total weight overflows uint64")
)

// uptimeError wraps every failure of info.uptime: `couldn't get node uptime: <cause>` (node-api.md
// §3.12).
func uptimeError(err error) error {
	return fmt.Errorf("couldn't get node uptime: %w", err)
}

// primaryAliasError reports a benched chain without a primary alias in info.peers: `failed to get
// primary alias for chain ID <id>: <cause>` (node-api.md §3.11).
func primaryAliasError(chainID ids.ID, err error) error {
	return fmt.Errorf("failed to get primary alias for chain ID %s: %w", chainID, err)
}

// Errors of New. They never reach a client.
var (
	// ErrInvalidConfig is wrapped by every problem New finds in a Config or Deps; New reports all
	// of them at once.
	ErrInvalidConfig = errors.New("info: invalid config")
)

// configError reports one problem with a Config or Deps.
func configError(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalidConfig, fmt.Sprintf(format, args...))
}
