package proposervm

import (
	"errors"
	"fmt"
)

// Texts a client can see: handler errors go out as JSON-RPC code -32000 with err.Error() as the
// message, the reference's texts around what failed.

// proposedHeightError reports a P-Chain height that could not be read: `failed to get child
// p-chain height: <err>`.
func proposedHeightError(err error) error {
	return fmt.Errorf("failed to get child p-chain height: %w", err)
}

// epochError reports an epoch that could not be made: `couldn't get current epoch: <err>`.
func epochError(err error) error {
	return fmt.Errorf("couldn't get current epoch: %w", err)
}

// ErrNoChain is wrapped by getCurrentEpoch's error when the chain's last accepted block is not
// known (the chain is not running).
var ErrNoChain = errors.New("couldn't get preferred block")

// ErrInvalidConfig is wrapped by every problem New finds. It never reaches a client.
var ErrInvalidConfig = errors.New("proposervm: invalid config")
