package ids

import (
	"bytes"
	"fmt"
	"strings"
)

// NodeIDLen is the length of a NodeID in bytes.
const NodeIDLen = ShortIDLen

// NodeIDPrefix starts the text form of every NodeID (node-api.md §4.1).
const NodeIDPrefix = "NodeID-"

// minNodeIDJSONLen is the shortest JSON NodeID accepted, quotes included (node-api.md §4.1).
const minNodeIDJSONLen = len(NodeIDPrefix) + 3

// NodeID identifies a node: RIPEMD-160 of SHA-256 of its staking certificate's DER (package
// crypto/staking derives it). Its text form is "NodeID-" followed by CB58 (node-api.md §4.1).
type NodeID [NodeIDLen]byte

// EmptyNodeID is the zero NodeID, NodeID-111111111111111111116DBWJs.
var EmptyNodeID = NodeID{}

// NodeIDFromShortID returns the NodeID with the bytes of id.
func NodeIDFromShortID(id ShortID) NodeID {
	return NodeID(id)
}

// ToNodeID returns b as a NodeID. It fails with ErrInvalidHashLen unless b is exactly 20 bytes.
func ToNodeID(b []byte) (NodeID, error) {
	id, err := ToShortID(b)
	return NodeID(id), err
}

// NodeIDFromString parses "NodeID-" followed by the CB58 form of 20 bytes. The prefix is
// case-sensitive.
func NodeIDFromString(s string) (NodeID, error) {
	rest, ok := strings.CutPrefix(s, NodeIDPrefix)
	if !ok {
		return NodeID{}, prefixError(s, NodeIDPrefix)
	}
	id, err := ShortFromString(rest)
	if err != nil {
		return NodeID{}, err
	}
	return NodeID(id), nil
}

// ShortID returns the NodeID's bytes as a ShortID.
func (id NodeID) ShortID() ShortID {
	return ShortID(id)
}

// String returns "NodeID-" followed by the CB58 form of the NodeID.
func (id NodeID) String() string {
	return NodeIDPrefix + CB58Encode(id[:])
}

// Compare orders NodeIDs by their bytes; it returns -1, 0 or +1.
func (id NodeID) Compare(other NodeID) int {
	return bytes.Compare(id[:], other[:])
}

// MarshalJSON returns the NodeID's text form as a JSON string.
func (id NodeID) MarshalJSON() ([]byte, error) {
	return quote(id.String()), nil
}

// UnmarshalJSON parses a JSON string holding a NodeID's text form. JSON null leaves the NodeID
// unchanged; input shorter than 10 characters, quotes included, fails with ErrShortNodeID, as in
// the reference node (node-api.md §4.1).
func (id *NodeID) UnmarshalJSON(b []byte) error {
	if string(b) == nullJSON {
		return nil
	}
	if len(b) < minNodeIDJSONLen {
		return fmt.Errorf("%w: expected to be > %d", ErrShortNodeID, minNodeIDJSONLen-1)
	}
	s, _, err := unquote(b)
	if err != nil {
		return err
	}
	parsed, err := NodeIDFromString(s)
	if err != nil {
		return err
	}
	*id = parsed
	return nil
}

// MarshalText returns the NodeID's text form, so NodeIDs work as JSON map keys.
func (id NodeID) MarshalText() ([]byte, error) {
	return []byte(id.String()), nil
}

// UnmarshalText parses the text form that MarshalText returns.
func (id *NodeID) UnmarshalText(text []byte) error {
	parsed, err := NodeIDFromString(string(text))
	if err != nil {
		return err
	}
	*id = parsed
	return nil
}
