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

// startAddressError and startUTXOError answer getUTXOs with a start index that cannot be parsed,
// in the reference's words (its avm, platformvm and C-Chain avax services).
func startAddressError(addr string, err error) error {
	return fmt.Errorf("couldn't parse start index address %q: %w", addr, err)
}

func startUTXOError(err error) error {
	return fmt.Errorf("couldn't parse start index utxo: %w", err)
}

// sourceChainError answers getUTXOs with a sourceChain that names no chain (§5.1, §6.5).
func sourceChainError(alias string, err error) error {
	return fmt.Errorf("problem parsing source chainID %q: %w", alias, err)
}
