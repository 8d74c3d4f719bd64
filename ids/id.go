package ids

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
)

// IDLen is the length of an ID in bytes.
const IDLen = 32

// nullJSON is the JSON literal that leaves an identifier unchanged when unmarshalled (node-api.md §1.8).
const nullJSON = "null"

// ID is a 32-byte identifier: a chain, subnet, transaction, block, asset or VM ID. Its text form is
// CB58 (node-api.md §6).
type ID [IDLen]byte

// Empty is the zero ID, 11111111111111111111111111111111LpoYY. It is the P-Chain's and the Primary
// Network's ID.
var Empty = ID{}

// ToID returns b as an ID. It fails with ErrInvalidHashLen unless b is exactly 32 bytes.
func ToID(b []byte) (ID, error) {
	if len(b) != IDLen {
		return ID{}, hashLenError(IDLen, len(b))
	}
	return ID(b), nil
}

// FromString parses the CB58 form of an ID.
func FromString(s string) (ID, error) {
	var buf [IDLen + checksumLen + 8]byte
	b, err := cb58DecodeInto(buf[:], s)
	if err != nil {
		return ID{}, err
	}
	return ToID(b)
}

// FromName returns the ID whose bytes are the ASCII name padded with zeros to 32 bytes, the way VM IDs
// are made ("platformvm", "avm", "evm", "subnetevm"; node-api.md §6). It panics if name is longer
// than 32 bytes: names are constants, so that is a programmer error.
func FromName(name string) ID {
	if len(name) > IDLen {
		panic(fmt.Sprintf("ids: name %q is longer than %d bytes", name, IDLen))
	}
	var id ID
	copy(id[:], name)
	return id
}

// Prefix returns SHA-256 of the prefixes, each as a big-endian uint64, followed by the ID's bytes.
// The reference node derives IDs this way, for example a UTXO's input ID as txID.Prefix(outputIndex).
func (id ID) Prefix(prefixes ...uint64) ID {
	h := sha256.New()
	var word [8]byte
	for _, p := range prefixes {
		binary.BigEndian.PutUint64(word[:], p)
		h.Write(word[:])
	}
	h.Write(id[:])
	var out ID
	h.Sum(out[:0])
	return out
}

// Append returns SHA-256 of the ID's bytes followed by each suffix as a big-endian uint32. The
// reference node derives an L1 validator's validationID as subnetID.Append(index).
func (id ID) Append(suffixes ...uint32) ID {
	h := sha256.New()
	h.Write(id[:])
	var word [4]byte
	for _, s := range suffixes {
		binary.BigEndian.PutUint32(word[:], s)
		h.Write(word[:])
	}
	var out ID
	h.Sum(out[:0])
	return out
}

// String returns the CB58 form of the ID.
func (id ID) String() string {
	return CB58Encode(id[:])
}

// Compare orders IDs by their bytes; it returns -1, 0 or +1.
func (id ID) Compare(other ID) int {
	return bytes.Compare(id[:], other[:])
}

// MarshalJSON returns the ID as a quoted CB58 string.
func (id ID) MarshalJSON() ([]byte, error) {
	return quote(id.String()), nil
}

// UnmarshalJSON parses a quoted CB58 string. JSON null leaves the ID unchanged.
func (id *ID) UnmarshalJSON(b []byte) error {
	s, null, err := unquote(b)
	if err != nil || null {
		return err
	}
	parsed, err := FromString(s)
	if err != nil {
		return fmt.Errorf("couldn't decode ID to bytes: %w", err)
	}
	*id = parsed
	return nil
}

// MarshalText returns the CB58 form of the ID, so IDs work as JSON map keys.
func (id ID) MarshalText() ([]byte, error) {
	return []byte(id.String()), nil
}

// UnmarshalText parses the CB58 form that MarshalText returns. Unlike the reference node's, it
// accepts exactly what MarshalText produces (STYLE.md rule 13).
func (id *ID) UnmarshalText(text []byte) error {
	parsed, err := FromString(string(text))
	if err != nil {
		return err
	}
	*id = parsed
	return nil
}

// quote returns s between double quotes. Identifier texts never need JSON escaping.
func quote(s string) []byte {
	b := make([]byte, 0, len(s)+2)
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// unquote strips the quotes from a JSON identifier. null reports true; anything that is not a
// quoted string fails with ErrMissingQuotes. Escapes are not interpreted, as in the reference node:
// a valid identifier never contains one.
func unquote(b []byte) (s string, null bool, err error) {
	if string(b) == nullJSON {
		return "", true, nil
	}
	if len(b) < 2 || b[0] != '"' || b[len(b)-1] != '"' {
		return "", false, ErrMissingQuotes
	}
	return string(b[1 : len(b)-1]), false, nil
}
