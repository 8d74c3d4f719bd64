package chains

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/cornice-node/cornice/ids"
)

// Persisted aliases live under storage.PrefixChains, one key per alias:
//
//	"a" alias  ->  chain ID (32 bytes) | sequence (8 bytes, big-endian)
//
// The sequence number records the order in which aliases were added, so an
// ID's aliases come back in the same order after a restart (an iterator
// returns them sorted by alias instead). The "a" sub-prefix leaves the rest
// of the key space to later registry records.
const aliasKeyPrefix = "a"

// aliasRecordLen is the length of a stored alias value.
const aliasRecordLen = ids.IDLen + 8

var errBadAliasRecord = errors.New("malformed alias record")

// aliasKey returns the key of alias, in a new slice.
func aliasKey(alias string) []byte {
	return append([]byte(aliasKeyPrefix), alias...)
}

// encodeAliasRecord returns the stored value for id at sequence seq.
func encodeAliasRecord(id ids.ID, seq uint64) []byte {
	b := make([]byte, aliasRecordLen)
	copy(b, id[:])
	binary.BigEndian.PutUint64(b[ids.IDLen:], seq)
	return b
}

// decodeAliasRecord parses a stored value; it does not keep b.
func decodeAliasRecord(b []byte) (ids.ID, uint64, error) {
	if len(b) != aliasRecordLen {
		return ids.ID{}, 0, fmt.Errorf("%w: %d bytes, want %d", errBadAliasRecord, len(b), aliasRecordLen)
	}
	var id ids.ID
	copy(id[:], b)
	return id, binary.BigEndian.Uint64(b[ids.IDLen:]), nil
}
