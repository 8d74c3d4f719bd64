package jsonrpc

import "strconv"

// Value encodings used in params and results (node-api.md §1.8). Integers are sent as decimal
// strings; on input a quoted or a bare decimal is accepted, leading zeros included ("01" is 1), while
// a sign, white space, a fraction, an exponent or "" are rejected; null leaves the value unchanged.
type (
	// Uint64 is a uint64 sent as a decimal string, e.g. "12345".
	Uint64 uint64
	// Uint32 is a uint32 sent as a decimal string.
	Uint32 uint32
	// Uint8 is a uint8 sent as a decimal string.
	Uint8 uint8
	// Float64 is a float64 sent as a string with exactly four decimals, e.g. "99.5000". On input
	// it accepts what strconv.ParseFloat accepts, quoted or bare.
	Float64 float64
)

// MarshalJSON returns the value as a quoted decimal.
func (u Uint64) MarshalJSON() ([]byte, error) { return appendQuotedUint(uint64(u)), nil }

// UnmarshalJSON accepts a quoted or bare decimal; null leaves u unchanged.
func (u *Uint64) UnmarshalJSON(b []byte) error {
	v, ok, err := parseUint(b, 64)
	if ok {
		*u = Uint64(v)
	}
	return err
}

// MarshalJSON returns the value as a quoted decimal.
func (u Uint32) MarshalJSON() ([]byte, error) { return appendQuotedUint(uint64(u)), nil }

// UnmarshalJSON accepts a quoted or bare decimal; null leaves u unchanged.
func (u *Uint32) UnmarshalJSON(b []byte) error {
	v, ok, err := parseUint(b, 32)
	if ok {
		*u = Uint32(v)
	}
	return err
}

// MarshalJSON returns the value as a quoted decimal.
func (u Uint8) MarshalJSON() ([]byte, error) { return appendQuotedUint(uint64(u)), nil }

// UnmarshalJSON accepts a quoted or bare decimal; null leaves u unchanged.
func (u *Uint8) UnmarshalJSON(b []byte) error {
	v, ok, err := parseUint(b, 8)
	if ok {
		*u = Uint8(v)
	}
	return err
}

// MarshalJSON returns the value formatted with exactly four decimals, quoted.
func (f Float64) MarshalJSON() ([]byte, error) {
	b := append(make([]byte, 0, 24), '"')
	b = strconv.AppendFloat(b, float64(f), 'f', 4, 64)
	return append(b, '"'), nil
}

// UnmarshalJSON accepts a quoted or bare float; null leaves f unchanged.
func (f *Float64) UnmarshalJSON(b []byte) error {
	s, ok := unquoteNumber(b)
	if !ok {
		return nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return err
	}
	*f = Float64(v)
	return nil
}

func appendQuotedUint(v uint64) []byte {
	b := append(make([]byte, 0, 22), '"')
	b = strconv.AppendUint(b, v, 10)
	return append(b, '"')
}

// parseUint parses a quoted or bare decimal of bitSize bits. ok is false for null and on error.
func parseUint(b []byte, bitSize int) (v uint64, ok bool, err error) {
	s, ok := unquoteNumber(b)
	if !ok {
		return 0, false, nil
	}
	// Base 10 takes digits only: no sign, space, fraction, exponent or underscore, as in the
	// reference's strconv.ParseUint(s, 10, n) (node-api.md §1.8). Leading zeros are accepted.
	v, err = strconv.ParseUint(s, 10, bitSize)
	if err != nil {
		return 0, false, err
	}
	return v, true, nil
}

// unquoteNumber returns the text of a number sent bare or between double quotes (without any
// unescaping, as the reference), and false for the JSON literal null.
func unquoteNumber(b []byte) (string, bool) {
	s := string(b)
	if s == "null" {
		return "", false
	}
	if n := len(s); n >= 2 && s[0] == '"' && s[n-1] == '"' {
		s = s[1 : n-1]
	}
	return s, true
}
