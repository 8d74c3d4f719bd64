package ids

import (
	"bytes"
	"fmt"
)

// ShortIDLen is the length of a ShortID in bytes.
const ShortIDLen = 20

// ShortID is a 20-byte identifier, such as an address's key hash. Its text form is CB58.
type ShortID [ShortIDLen]byte

// ShortEmpty is the zero ShortID, 111111111111111111116DBWJs.
var ShortEmpty = ShortID{}

// ToShortID returns b as a ShortID. It fails with ErrInvalidHashLen unless b is exactly 20 bytes.
func ToShortID(b []byte) (ShortID, error) {
	if len(b) != ShortIDLen {
		return ShortID{}, hashLenError(ShortIDLen, len(b))
	}
	return ShortID(b), nil
}

// ShortFromString parses the CB58 form of a ShortID.
func ShortFromString(s string) (ShortID, error) {
	var buf [ShortIDLen + checksumLen + 8]byte
	b, err := cb58DecodeInto(buf[:], s)
	if err != nil {
		return ShortID{}, err
	}
	return ToShortID(b)
}

// String returns the CB58 form of the ShortID.
func (id ShortID) String() string {
	return CB58Encode(id[:])
}

// Compare orders ShortIDs by their bytes; it returns -1, 0 or +1.
func (id ShortID) Compare(other ShortID) int {
	return bytes.Compare(id[:], other[:])
}

// MarshalJSON returns the ShortID as a quoted CB58 string.
func (id ShortID) MarshalJSON() ([]byte, error) {
	return quote(id.String()), nil
}

// UnmarshalJSON parses a quoted CB58 string. JSON null leaves the ShortID unchanged.
func (id *ShortID) UnmarshalJSON(b []byte) error {
	s, null, err := unquote(b)
	if err != nil || null {
		return err
	}
	parsed, err := ShortFromString(s)
	if err != nil {
		return fmt.Errorf("couldn't decode ShortID to bytes: %w", err)
	}
	*id = parsed
	return nil
}

// MarshalText returns the CB58 form of the ShortID.
func (id ShortID) MarshalText() ([]byte, error) {
	return []byte(id.String()), nil
}

// UnmarshalText parses the CB58 form that MarshalText returns.
func (id *ShortID) UnmarshalText(text []byte) error {
	parsed, err := ShortFromString(string(text))
	if err != nil {
		return err
	}
	*id = parsed
	return nil
}
