package address

import (
	"errors"
	"fmt"
)

// Errors of address parsing (reference/platform-exchange.md §2.4). The reference documents the
// format, not these texts.
var (
	// ErrInvalidAddress is returned for a chain address that is not `<alias>-<bech32>` of a
	// 20-byte address.
	ErrInvalidAddress = errors.New("invalid address")
	// ErrInvalidBech32 is returned for a string that is not valid BIP-173 bech32.
	ErrInvalidBech32 = errors.New("invalid bech32 string")
)

// parseAddressError answers an API call with an address that is not the chain's.
func parseAddressError(s string, err error) error {
	return fmt.Errorf("couldn't parse address %q: %w", s, err)
}

// wrongChainAliasError and wrongHRPError say why an address is not the chain's.
func wrongChainAliasError(want, got string) error {
	return fmt.Errorf("expected chainID to be %q but was %q", want, got)
}

func wrongHRPError(want, got string) error {
	return fmt.Errorf("expected hrp %q but got %q", want, got)
}
