package chains

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/cornice-node/cornice/ids"
)

// The chains' records live under storage.PrefixChains, each kind under a
// one-byte sub-prefix:
//
//	"a" alias           ->  chain ID (32 bytes) | sequence (8 bytes, big-endian)
//	"l" chain ID (32)   ->  block ID (32 bytes) | height (8 bytes, big-endian)
//
// "a": the aliases persisted by Registry.Alias. The sequence number records
// the order in which aliases were added, so an ID's aliases come back in the
// same order after a restart (an iterator returns them sorted by alias
// instead).
//
// "l": each chain's last-accepted pointer, written by the acceptance
// accept path (Acceptor) in the batch of every accepted block, so it always names the
// last block whose changes are on disk. It is absent until the chain's
// first block after genesis is accepted.
const (
	aliasKeyPrefix        = "a"
	lastAcceptedKeyPrefix = "l"
)

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

// pointerRecordLen is the length of a stored last-accepted pointer.
const pointerRecordLen = ids.IDLen + 8

var errBadPointerRecord = errors.New("malformed last-accepted record")

// lastAcceptedKey returns the key of chainID's last-accepted pointer.
func lastAcceptedKey(chainID ids.ID) []byte {
	return append([]byte(lastAcceptedKeyPrefix), chainID[:]...)
}

// encodePointer returns the stored value of a last-accepted pointer.
func encodePointer(blkID ids.ID, height uint64) []byte {
	b := make([]byte, pointerRecordLen)
	copy(b, blkID[:])
	binary.BigEndian.PutUint64(b[ids.IDLen:], height)
	return b
}

// decodePointer parses a stored last-accepted pointer; it does not keep b.
func decodePointer(b []byte) (ids.ID, uint64, error) {
	if len(b) != pointerRecordLen {
		return ids.ID{}, 0, fmt.Errorf("%w: %d bytes, want %d", errBadPointerRecord, len(b), pointerRecordLen)
	}
	var id ids.ID
	copy(id[:], b)
	return id, binary.BigEndian.Uint64(b[ids.IDLen:]), nil
}
