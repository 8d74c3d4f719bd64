package ids

import (
	"errors"
	"fmt"
)

// Errors of CB58 decoding (node-api.md §6). In API params they are masked by the generic
// invalid-argument message, but their texts match the reference node's.
var (
	// ErrBase58Decoding prefixes every failure of the base-58 layer; the detail follows a colon.
	ErrBase58Decoding = errors.New("base58 decoding error")
	// ErrMissingChecksum is returned when the decoded bytes are shorter than the 4-byte checksum.
	ErrMissingChecksum = errors.New("input string is smaller than the checksum size")
	// ErrBadChecksum is returned when the checksum does not match the payload.
	ErrBadChecksum = errors.New("invalid input checksum")
	// ErrInvalidHashLen is returned when decoded bytes have the wrong length for the identifier.
	ErrInvalidHashLen = errors.New("invalid hash length")
)

// Errors of the hex encodings (node-api.md §6).
var (
	// ErrMissingHexPrefix is returned when a hex string does not start with exactly "0x".
	ErrMissingHexPrefix = errors.New("missing 0x prefix to hex encoding")
	// ErrUnsupportedEncoding is returned when raw bytes are asked for in the json encoding.
	ErrUnsupportedEncoding = errors.New("unsupported encoding in method")
	// ErrInvalidEncoding is returned for an Encoding value outside the defined constants, or an
	// unknown encoding name in JSON.
	ErrInvalidEncoding = errors.New("invalid encoding")
)

// Errors of the identifier text and JSON forms (node-api.md §1.8, §4.1).
var (
	// ErrMissingQuotes is returned when a JSON identifier is not a quoted string.
	ErrMissingQuotes = errors.New("first and last characters should be quotes")
	// ErrShortNodeID is returned when a JSON NodeID is shorter than 10 characters with its quotes.
	ErrShortNodeID = errors.New("insufficient NodeID length")
	// ErrMissingPrefix is returned when a NodeID lacks its exact "NodeID-" prefix.
	ErrMissingPrefix = errors.New("missing prefix")
)

// Base-58 details that follow ErrBase58Decoding, worded as in the reference node's base-58 library.
var (
	errZeroLength = errors.New("zero length string")
	errHighBit    = errors.New("high-bit set on invalid digit")
)

// invalidDigitError is the base-58 detail for a character outside the alphabet.
func invalidDigitError(c byte) error {
	return fmt.Errorf("invalid base58 digit (%q)", rune(c))
}

// hashLenError reports decoded bytes of the wrong length: "invalid hash length: expected 32 bytes
// but got N" (node-api.md §6).
func hashLenError(want, got int) error {
	return fmt.Errorf("%w: expected %d bytes but got %d", ErrInvalidHashLen, want, got)
}

// prefixError reports a NodeID string without the exact prefix.
func prefixError(s, prefix string) error {
	return fmt.Errorf("%w: %q does not start with %q", ErrMissingPrefix, s, prefix)
}
