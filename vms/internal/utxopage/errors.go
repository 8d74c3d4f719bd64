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
)

// tooManyAddressesError answers getUTXOs with more than MaxAddresses addresses (§5.1).
func tooManyAddressesError(n int) error {
	return fmt.Errorf("number of addresses given, %d, exceeds maximum, %d", n, MaxAddresses)
}

// startIndexError answers getUTXOs with a start index that cannot be parsed (§5.1).
func startIndexError(err error) error {
	return fmt.Errorf("couldn't parse start index: %w", err)
}

// sourceChainError answers getUTXOs with a sourceChain that names no chain (§5.1, §6.5).
func sourceChainError(alias string, err error) error {
	return fmt.Errorf("problem parsing source chainID %q: %w", alias, err)
}
