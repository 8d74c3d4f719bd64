package address

import "errors"

// Errors of address parsing (reference/platform-exchange.md §2.4). The reference documents the
// format, not these texts.
var (
	// ErrInvalidAddress is returned for a chain address that is not `<alias>-<bech32>` of a
	// 20-byte address.
	ErrInvalidAddress = errors.New("invalid address")
	// ErrInvalidBech32 is returned for a string that is not valid BIP-173 bech32.
	ErrInvalidBech32 = errors.New("invalid bech32 string")
)
