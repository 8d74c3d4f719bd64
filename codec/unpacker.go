package codec

import (
	"encoding/binary"
	"fmt"

	"github.com/cornice-node/cornice/ids"
)

// Unpacker reads encoded values from a byte slice. After the first error every read returns the
// zero value, so Unmarshal methods read all their fields and the caller checks [Unpacker.Err] or
// [Unpacker.Done] once.
type Unpacker struct {
	b   []byte
	off int
	err error
}

// NewUnpacker returns an Unpacker over b. Inputs longer than maxSize fail at once with ErrOversize
// (§1.2: [MaxSize] for txs and blocks, [MaxGenesisSize] for genesis). Values read from it alias b.
func NewUnpacker(b []byte, maxSize int) *Unpacker {
	u := &Unpacker{b: b}
	if len(b) > maxSize {
		u.err = fmt.Errorf("%w: %d bytes, limit %d", ErrOversize, len(b), maxSize)
	}
	return u
}

// NewUnpackerCopy returns an Unpacker over a copy of b, so values read from it may alias the copy
// but never the caller's buffer. Inputs over maxSize are not copied: the Unpacker fails at once.
func NewUnpackerCopy(b []byte, maxSize int) *Unpacker {
	if len(b) <= maxSize {
		b = append(make([]byte, 0, len(b)), b...)
	}
	return NewUnpacker(b, maxSize)
}

// Err returns the first error recorded, or nil.
func (u *Unpacker) Err() error { return u.err }

// Fail records err unless an error is already recorded. Type tables call it for unknown type IDs.
func (u *Unpacker) Fail(err error) {
	if u.err == nil {
		u.err = err
	}
}

// Done returns the first error, or ErrTrailingBytes if input remains: a top-level value must use
// all of it (§1.1).
func (u *Unpacker) Done() error {
	if u.err != nil {
		return u.err
	}
	if u.off != len(u.b) {
		return fmt.Errorf("%w: %d bytes after offset %d", ErrTrailingBytes, len(u.b)-u.off, u.off)
	}
	return nil
}

// Offset returns the number of bytes consumed so far. With [Unpacker.Input] it marks spans of the
// input, such as a tx's unsigned bytes.
func (u *Unpacker) Offset() int { return u.off }

// Remaining returns the number of bytes not yet consumed.
func (u *Unpacker) Remaining() int { return len(u.b) - u.off }

// Input returns the whole input the Unpacker reads.
func (u *Unpacker) Input() []byte { return u.b }

// take returns the next n bytes, or nil after recording ErrTruncated.
func (u *Unpacker) take(n int) []byte {
	if u.err != nil {
		return nil
	}
	if n < 0 || n > len(u.b)-u.off {
		u.err = truncatedError(n, u.off, len(u.b)-u.off)
		return nil
	}
	s := u.b[u.off : u.off+n : u.off+n]
	u.off += n
	return s
}

// Version reads the codec version and fails with ErrUnknownVersion unless it is [Version].
func (u *Unpacker) Version() {
	if v := u.Uint16(); u.err == nil && v != Version {
		u.err = fmt.Errorf("%w %d", ErrUnknownVersion, v)
	}
}

// Uint8 reads one byte.
func (u *Unpacker) Uint8() uint8 {
	if s := u.take(1); s != nil {
		return s[0]
	}
	return 0
}

// Uint16 reads a big-endian uint16.
func (u *Unpacker) Uint16() uint16 {
	if s := u.take(2); s != nil {
		return binary.BigEndian.Uint16(s)
	}
	return 0
}

// Uint32 reads a big-endian uint32.
func (u *Unpacker) Uint32() uint32 {
	if s := u.take(4); s != nil {
		return binary.BigEndian.Uint32(s)
	}
	return 0
}

// Uint64 reads a big-endian uint64.
func (u *Unpacker) Uint64() uint64 {
	if s := u.take(8); s != nil {
		return binary.BigEndian.Uint64(s)
	}
	return 0
}

// Bool reads a bool byte; values other than 0 and 1 fail with ErrInvalidBool (§1.1).
func (u *Unpacker) Bool() bool {
	off := u.off
	switch b := u.Uint8(); {
	case u.err != nil:
		return false
	case b <= 1:
		return b == 1
	default:
		u.err = fmt.Errorf("%w: %#x at offset %d", ErrInvalidBool, b, off)
		return false
	}
}

// TypeID reads the uint32 type ID in front of an interface value.
func (u *Unpacker) TypeID() uint32 { return u.Uint32() }

// Count reads a slice's uint32 element count. It fails with ErrOversize above [MaxCount] and with
// ErrTruncated when n elements of at least minElemSize bytes each cannot fit in the rest of the
// input, so a hostile count never causes a large allocation. minElemSize must be at least 1.
func (u *Unpacker) Count(minElemSize int) int {
	off := u.off
	n := u.Uint32()
	switch {
	case u.err != nil:
		return 0
	case n > MaxCount:
		u.err = fmt.Errorf("%w: count %d at offset %d", ErrOversize, n, off)
		return 0
	case uint64(n)*uint64(minElemSize) > uint64(u.Remaining()):
		u.err = truncatedError(int(n)*minElemSize, u.off, u.Remaining())
		return 0
	}
	return int(n)
}

// Fixed fills dst from the input, as for fixed-size arrays.
func (u *Unpacker) Fixed(dst []byte) {
	if s := u.take(len(dst)); s != nil {
		copy(dst, s)
	}
}

// VarBytes reads a uint32 length and that many bytes. The result aliases the input; it is empty,
// not nil, for a zero length (§1.1), and nil only after an error.
func (u *Unpacker) VarBytes() []byte {
	return u.take(u.Count(1))
}

// Str reads a uint16 length and that many bytes as a string.
func (u *Unpacker) Str() string {
	n := int(u.Uint16())
	return string(u.take(n))
}

// ID reads a 32-byte ID.
func (u *Unpacker) ID() ids.ID {
	var id ids.ID
	u.Fixed(id[:])
	return id
}

// ShortID reads a 20-byte short ID.
func (u *Unpacker) ShortID() ids.ShortID {
	var id ids.ShortID
	u.Fixed(id[:])
	return id
}

// NodeID reads a 20-byte node ID.
func (u *Unpacker) NodeID() ids.NodeID {
	var id ids.NodeID
	u.Fixed(id[:])
	return id
}

// Uint32s reads a count and that many uint32s. The result is empty, not nil, for a zero count.
func (u *Unpacker) Uint32s() []uint32 {
	n := u.Count(4)
	if u.err != nil {
		return nil
	}
	vs := make([]uint32, n)
	for i := range vs {
		vs[i] = u.Uint32()
	}
	return vs
}

// IDs reads a count and that many 32-byte IDs. The result is empty, not nil, for a zero count.
func (u *Unpacker) IDs() []ids.ID {
	n := u.Count(ids.IDLen)
	if u.err != nil {
		return nil
	}
	vs := make([]ids.ID, n)
	for i := range vs {
		u.Fixed(vs[i][:])
	}
	return vs
}

// ShortIDs reads a count and that many 20-byte short IDs. The result is empty, not nil, for a zero
// count.
func (u *Unpacker) ShortIDs() []ids.ShortID {
	n := u.Count(ids.ShortIDLen)
	if u.err != nil {
		return nil
	}
	vs := make([]ids.ShortID, n)
	for i := range vs {
		u.Fixed(vs[i][:])
	}
	return vs
}
