package ids

import (
	"encoding/hex"
	"strings"
)

// Encoding is how an API renders raw bytes (node-api.md §6). The zero value is Hex.
type Encoding uint8

// The encodings, in the reference node's order.
const (
	// Hex is "0x" + lower-case hex of the bytes followed by their 4-byte checksum.
	Hex Encoding = iota
	// HexC is the same as Hex.
	HexC
	// HexNC is "0x" + lower-case hex of the bytes, without a checksum.
	HexNC
	// JSON renders a value as JSON; it cannot encode raw bytes.
	JSON
)

// hexPrefix starts every hex encoding. Decoding requires it exactly, so "0X" is rejected.
const hexPrefix = "0x"

// encodingNames are the lower-case names, indexed by Encoding.
var encodingNames = [...]string{Hex: "hex", HexC: "hexc", HexNC: "hexnc", JSON: "json"}

// valid reports whether e is one of the defined encodings.
func (e Encoding) valid() bool {
	return int(e) < len(encodingNames)
}

// String returns the lower-case name of the encoding, or "invalid encoding" for an undefined value.
func (e Encoding) String() string {
	if !e.valid() {
		return ErrInvalidEncoding.Error()
	}
	return encodingNames[e]
}

// MarshalJSON returns the quoted lower-case name. An undefined value fails with ErrInvalidEncoding.
func (e Encoding) MarshalJSON() ([]byte, error) {
	if !e.valid() {
		return nil, ErrInvalidEncoding
	}
	return quote(encodingNames[e]), nil
}

// UnmarshalJSON accepts "hex", "hexc", "hexnc" or "json" in any case (node-api.md §1.8). JSON null
// leaves the value unchanged; anything else, "" and "cb58" included, fails with ErrInvalidEncoding.
func (e *Encoding) UnmarshalJSON(b []byte) error {
	s, null, err := unquote(b)
	if err != nil {
		return ErrInvalidEncoding
	}
	if null {
		return nil
	}
	// Lower-casing, not Unicode case folding, as in the reference: "ſ" does not match "s".
	s = strings.ToLower(s)
	for i, name := range encodingNames {
		if s == name {
			*e = Encoding(i)
			return nil
		}
	}
	return ErrInvalidEncoding
}

// Encode renders b in the encoding: hex and hexc append the checksum, hexnc does not, and json fails
// with ErrUnsupportedEncoding. Empty input gives "0x7852b855" in hex and "0x" in hexnc.
func (e Encoding) Encode(b []byte) (string, error) {
	switch e {
	case Hex, HexC:
		sum := checksum(b)
		return encodeHex(b, sum[:]), nil
	case HexNC:
		return encodeHex(b, nil), nil
	case JSON:
		return "", ErrUnsupportedEncoding
	default:
		return "", ErrInvalidEncoding
	}
}

// hexChunk is how many input bytes encodeHex converts through its stack buffer at a time.
const hexChunk = 256

// encodeHex returns "0x" + hex(b) + hex(suffix). The string is built in place, so the result is the
// only allocation.
func encodeHex(b, suffix []byte) string {
	var sb strings.Builder
	sb.Grow(len(hexPrefix) + hex.EncodedLen(len(b)+len(suffix)))
	sb.WriteString(hexPrefix)
	var buf [2 * hexChunk]byte
	for len(b) > 0 {
		n := min(len(b), hexChunk)
		sb.Write(buf[:hex.Encode(buf[:], b[:n])])
		b = b[n:]
	}
	sb.Write(buf[:hex.Encode(buf[:], suffix)])
	return sb.String()
}

// Decode parses s in the encoding. The empty string decodes to empty bytes in every encoding. Hex
// digits may be in either case but the prefix must be exactly "0x" (ErrMissingHexPrefix); invalid
// digits give encoding/hex's error. With hex and hexc, the checksum is checked and removed
// (ErrMissingChecksum, ErrBadChecksum). json fails with ErrUnsupportedEncoding.
func (e Encoding) Decode(s string) ([]byte, error) {
	switch {
	case !e.valid():
		return nil, ErrInvalidEncoding
	case len(s) == 0:
		return []byte{}, nil
	}
	switch e {
	case Hex, HexC:
		b, err := decodeHex(s)
		if err != nil {
			return nil, err
		}
		return splitChecksum(b)
	case HexNC:
		return decodeHex(s)
	default:
		return nil, ErrUnsupportedEncoding
	}
}

// decodeHex decodes "0x" followed by hex digits.
func decodeHex(s string) ([]byte, error) {
	digits, ok := strings.CutPrefix(s, hexPrefix)
	if !ok {
		return nil, ErrMissingHexPrefix
	}
	// DecodeString decodes in place in its one copy of the digits.
	b, err := hex.DecodeString(digits)
	if err != nil {
		return nil, err
	}
	return b, nil
}
