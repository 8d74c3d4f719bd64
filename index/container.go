package index

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"

	"github.com/cornice-node/cornice/ids"
)

// A stored container is laid out as the reference node serialises its Container with linear codec
// version 0 (node-api.md §5.3), plus the bytes' checksum, all integers big-endian:
//
//	u16 codec version (0) | ID (32 bytes) | u32 length n | bytes (n) | checksum (4) | i64 timestamp
//
// The checksum is the one the hex encoding appends (the last 4 bytes of the bytes' SHA-256,
// node-api.md §6). Keeping it next to the bytes lets a read render hex from the stored slice
// without hashing: hashing dominated index.getContainerRange otherwise. The reference's layout has
// no checksum; on-disk compatibility with it is impossible anyway (its keys are hashed prefixes).
// The timestamp is the acceptance time in unix nanoseconds.
const (
	codecVersion = 0
	checksumLen  = 4
	// containerOverhead is the size of a stored container without its bytes.
	containerOverhead = 2 + ids.IDLen + 4 + checksumLen + 8
)

// stored is a container as kept in the database.
type stored struct {
	ID ids.ID
	// data is the container's bytes followed by their checksum. It aliases the slice the
	// container was decoded from.
	data []byte
	// Timestamp is the node's acceptance time in unix nanoseconds (node-api.md §5.4).
	Timestamp int64
}

// bytes returns the container's bytes, without the checksum.
func (c stored) bytes() []byte { return c.data[:len(c.data)-checksumLen] }

// checksum returns the checksum of b that the hex encoding appends (node-api.md §6).
func checksum(b []byte) [checksumLen]byte {
	h := sha256.Sum256(b)
	return [checksumLen]byte(h[sha256.Size-checksumLen:])
}

// appendContainer appends the stored form of a container with bytes b to dst, computing the
// checksum. It fails only for bytes longer than the u32 length field can describe.
func appendContainer(dst []byte, id ids.ID, b []byte, timestamp int64) ([]byte, error) {
	if uint64(len(b)) > math.MaxUint32 {
		return nil, fmt.Errorf("%w: %d bytes", errTooLarge, len(b))
	}
	sum := checksum(b)
	dst = binary.BigEndian.AppendUint16(dst, codecVersion)
	dst = append(dst, id[:]...)
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(b)))
	dst = append(dst, b...)
	dst = append(dst, sum[:]...)
	return binary.BigEndian.AppendUint64(dst, uint64(timestamp)), nil
}

// appendStored appends c in its stored form, checksum as it is, to dst: the inverse of
// decodeContainer.
func appendStored(dst []byte, c stored) []byte {
	dst = binary.BigEndian.AppendUint16(dst, codecVersion)
	dst = append(dst, c.ID[:]...)
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(c.data)-checksumLen))
	dst = append(dst, c.data...)
	return binary.BigEndian.AppendUint64(dst, uint64(c.Timestamp))
}

// decodeContainer parses the stored form of a container. The result aliases v, so it is valid as
// long as v is. Every byte of v must be used, so appendStored gives back v. The checksum is not
// verified: reads stay free of hashing, and Pebble checksums its blocks itself.
func decodeContainer(v []byte) (stored, error) {
	if len(v) < containerOverhead {
		return stored{}, fmt.Errorf("%w: %d bytes is shorter than %d", errCorrupt, len(v), containerOverhead)
	}
	if version := binary.BigEndian.Uint16(v); version != codecVersion {
		return stored{}, fmt.Errorf("%w: codec version %d", errCorrupt, version)
	}
	var c stored
	copy(c.ID[:], v[2:2+ids.IDLen])
	rest := v[2+ids.IDLen:]
	n := binary.BigEndian.Uint32(rest)
	rest = rest[4:]
	if uint64(n)+checksumLen+8 != uint64(len(rest)) {
		return stored{}, fmt.Errorf("%w: length %d with %d bytes left", errCorrupt, n, len(rest))
	}
	end := int(n) + checksumLen
	c.data = rest[:end:end]
	c.Timestamp = int64(binary.BigEndian.Uint64(rest[end:]))
	return c, nil
}
