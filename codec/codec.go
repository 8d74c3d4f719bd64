package codec

import "math"

// Version is the only codec version of P and X objects; it prefixes every top-level encoding (§1.1).
const Version uint16 = 0

// Size limits of reference/platform-exchange.md §1.2.
const (
	// MaxSize is the largest tx or block the default codec accepts: 256 KiB.
	MaxSize = 256 * 1024
	// MaxGenesisSize is the largest genesis the genesis codecs accept: MaxInt32 bytes.
	MaxGenesisSize = math.MaxInt32
	// MaxStringLen is the longest string: its length is a uint16.
	MaxStringLen = math.MaxUint16
	// MaxCount is the largest slice count or byte-slice length (§1.1: at most MaxInt32).
	MaxCount = math.MaxInt32
)

// Marshaler is implemented by every type the codec writes: Marshal appends the type's fields, in
// wire order and without a type ID, to p.
type Marshaler interface {
	Marshal(p *Packer)
}
