package utxopage

import (
	"errors"
	"fmt"
)

// Texts of getUTXOs, the same on the X- and P-Chains (reference/platform-exchange.md §5.1).
var (
	// ErrNoAddresses answers getUTXOs without addresses (§5.1); the P-Chain's getBalance
	// answers with it too.
	ErrNoAddresses = errors.New("no addresses provided")
	// errSharedMemory answers getUTXOs with another chain as sourceChain: cornice has no shared
	// memory yet, so there are no atomic UTXOs to list. The text is ours.
	errSharedMemory = errors.New("atomic UTXOs are not supported: sourceChain must be empty or this chain")
)

// tooManyAddressesError answers getUTXOs with more than MaxAddresses addresses (§5.1).
func tooManyAddressesError(n int) error {
	return fmt.Errorf("number of addresses given, %d, exceeds maximum, %d", n, MaxAddresses)
}

// startIndexError answers getUTXOs with a start index that cannot be parsed (§5.1).
func startIndexError(err error) error {
	return fmt.Errorf("couldn't parse start index: %w", err)
}
