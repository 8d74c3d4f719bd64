package codec

import (
	"errors"
	"fmt"
)

// Decoding and encoding errors. None reaches an API client verbatim; the texts follow the reference
// node's linear codec where it has one (reference/platform-exchange.md §1.1, §1.2).
var (
	// ErrTruncated is returned when the input ends before the value does.
	ErrTruncated = errors.New("codec: unexpected end of input")
	// ErrTrailingBytes is returned when bytes remain after the top-level value ("trailing buffer
	// space" in the reference, §1.1).
	ErrTrailingBytes = errors.New("codec: trailing buffer space")
	// ErrOversize is returned when the input is longer than the allowed maximum (§1.2), or a count
	// or length exceeds what the format allows.
	ErrOversize = errors.New("codec: size exceeds maximum")
	// ErrUnknownVersion is returned for a codec version other than 0 (§1.1).
	ErrUnknownVersion = errors.New("codec: unknown codec version")
	// ErrInvalidBool is returned for a bool byte other than 0 or 1 (§1.1).
	ErrInvalidBool = errors.New("codec: invalid bool")
	// ErrUnknownTypeID is returned when an interface value carries a type ID that is not registered,
	// or not allowed in that field (§1.1, §1.3).
	ErrUnknownTypeID = errors.New("codec: unknown type ID")
	// ErrNilValue is returned when encoding a nil interface or pointer value (§1.1).
	ErrNilValue = errors.New("codec: nil value")
	// ErrUnregisteredType is returned when encoding an interface value whose concrete type has no
	// type ID in the VM's table.
	ErrUnregisteredType = errors.New("codec: unregistered type")
)

// truncatedError reports that n bytes were needed at offset off but only have remained.
func truncatedError(n, off, have int) error {
	return fmt.Errorf("%w: need %d bytes at offset %d, have %d", ErrTruncated, n, off, have)
}

// UnknownTypeIDError reports type ID id found where field expects an interface value; VM type
// tables return it from their closed switches.
func UnknownTypeIDError(field string, id uint32) error {
	return fmt.Errorf("%w %d for %s", ErrUnknownTypeID, id, field)
}

// UnregisteredTypeError reports a value of type v, which has no type ID, in field.
func UnregisteredTypeError(field string, v any) error {
	if v == nil {
		return fmt.Errorf("%w: %s", ErrNilValue, field)
	}
	return fmt.Errorf("%w %T in %s", ErrUnregisteredType, v, field)
}
