package codec

import (
	"encoding/binary"
	"fmt"

	"github.com/cornice-node/cornice/ids"
)

// Packer appends encoded values to a byte slice. The zero value is ready to use and starts with an
// empty buffer. After the first error (see [Packer.Fail]) every write is a no-op.
type Packer struct {
	buf []byte
	err error
}

// NewPacker returns a Packer that appends to buf; pass buf[:0] of a reused buffer to avoid
// allocations, or nil. The Packer owns buf until [Packer.Bytes] returns it.
func NewPacker(buf []byte) *Packer {
	return &Packer{buf: buf}
}

// Bytes returns the encoding so far, or nil and the first error.
func (p *Packer) Bytes() ([]byte, error) {
	if p.err != nil {
		return nil, p.err
	}
	return p.buf, nil
}

// Len returns the number of bytes written so far. Callers use it to mark spans, such as the
// unsigned prefix of a signed tx.
func (p *Packer) Len() int { return len(p.buf) }

// Err returns the first error recorded, or nil.
func (p *Packer) Err() error { return p.err }

// Fail records err as the Packer's error unless one is already recorded. Marshal methods call it
// for values that cannot be encoded (a nil interface, an unregistered type).
func (p *Packer) Fail(err error) {
	if p.err == nil {
		p.err = err
	}
}

// Version writes the codec version, the first field of every top-level encoding (§1.1).
func (p *Packer) Version() { p.Uint16(Version) }

// Uint8 writes one byte.
func (p *Packer) Uint8(v uint8) {
	if p.err == nil {
		p.buf = append(p.buf, v)
	}
}

// Uint16 writes v big-endian.
func (p *Packer) Uint16(v uint16) {
	if p.err == nil {
		p.buf = binary.BigEndian.AppendUint16(p.buf, v)
	}
}

// Uint32 writes v big-endian.
func (p *Packer) Uint32(v uint32) {
	if p.err == nil {
		p.buf = binary.BigEndian.AppendUint32(p.buf, v)
	}
}

// Uint64 writes v big-endian.
func (p *Packer) Uint64(v uint64) {
	if p.err == nil {
		p.buf = binary.BigEndian.AppendUint64(p.buf, v)
	}
}

// Bool writes 1 for true and 0 for false.
func (p *Packer) Bool(v bool) {
	var b uint8
	if v {
		b = 1
	}
	p.Uint8(b)
}

// TypeID writes the uint32 type ID that precedes an interface value (§1.1).
func (p *Packer) TypeID(id uint32) { p.Uint32(id) }

// Count writes a slice's element count as a uint32; counts above [MaxCount] fail with ErrOversize.
func (p *Packer) Count(n int) {
	if n < 0 || n > MaxCount {
		p.Fail(fmt.Errorf("%w: count %d", ErrOversize, n))
		return
	}
	p.Uint32(uint32(n))
}

// Fixed writes b with no length, as for fixed-size arrays (IDs, keys, signatures).
func (p *Packer) Fixed(b []byte) {
	if p.err == nil {
		p.buf = append(p.buf, b...)
	}
}

// VarBytes writes b as a uint32 length followed by its bytes.
func (p *Packer) VarBytes(b []byte) {
	p.Count(len(b))
	p.Fixed(b)
}

// Str writes s as a uint16 length followed by its bytes; strings longer than [MaxStringLen] fail
// with ErrOversize.
func (p *Packer) Str(s string) {
	if len(s) > MaxStringLen {
		p.Fail(fmt.Errorf("%w: string of %d bytes", ErrOversize, len(s)))
		return
	}
	p.Uint16(uint16(len(s)))
	if p.err == nil {
		p.buf = append(p.buf, s...)
	}
}

// ID writes a 32-byte ID.
func (p *Packer) ID(id ids.ID) { p.Fixed(id[:]) }

// ShortID writes a 20-byte short ID.
func (p *Packer) ShortID(id ids.ShortID) { p.Fixed(id[:]) }

// NodeID writes a 20-byte node ID.
func (p *Packer) NodeID(id ids.NodeID) { p.Fixed(id[:]) }

// Uint32s writes a count followed by each value, as for signature indices.
func (p *Packer) Uint32s(vs []uint32) {
	p.Count(len(vs))
	for _, v := range vs {
		p.Uint32(v)
	}
}

// IDs writes a count followed by each 32-byte ID.
func (p *Packer) IDs(vs []ids.ID) {
	p.Count(len(vs))
	for i := range vs {
		p.ID(vs[i])
	}
}

// ShortIDs writes a count followed by each 20-byte short ID.
func (p *Packer) ShortIDs(vs []ids.ShortID) {
	p.Count(len(vs))
	for i := range vs {
		p.ShortID(vs[i])
	}
}
