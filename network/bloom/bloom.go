// Package bloom is the bloom filter peers exchange to say which IP claims they already know
// (network-consensus-warp.md §1.7), in the reference's wire form:
//
//	u8 number of hashes (1–16) ‖ that many u64 big-endian seeds ‖ the bit array (≥ 1 byte)
//
// An element is a 64-bit hash (Hash). Its bit positions come from the seeds in order: hash =
// rotl64(hash, 17) XOR seed, position = hash mod the number of bits, the rotated value carrying
// into the next seed. Bit i is bit i%8 (least significant first) of byte i/8.
//
// A Filter is not safe for concurrent use.
package bloom

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/bits"
)

// Limits of the wire form.
const (
	MinHashes  = 1
	MaxHashes  = 16
	minEntries = 1
	rotation   = 17
)

// ErrInvalid is wrapped by Parse for bytes that are not a filter.
var ErrInvalid = errors.New("invalid bloom filter")

// Filter is a bloom filter over 64-bit hashes.
type Filter struct {
	seeds   []uint64
	entries []byte
	count   int
}

// New returns an empty filter of numHashes random seeds and numEntries bytes of bits.
func New(numHashes, numEntries int) (*Filter, error) {
	if numHashes < MinHashes || numHashes > MaxHashes || numEntries < minEntries {
		return nil, fmt.Errorf("%w: %d hashes, %d bytes", ErrInvalid, numHashes, numEntries)
	}
	seedBytes := make([]byte, 8*numHashes)
	if _, err := rand.Read(seedBytes); err != nil {
		return nil, fmt.Errorf("bloom seeds: %w", err)
	}
	f := &Filter{seeds: make([]uint64, numHashes), entries: make([]byte, numEntries)}
	for i := range f.seeds {
		f.seeds[i] = binary.BigEndian.Uint64(seedBytes[8*i:])
	}
	return f, nil
}

// Parse reads a filter in its wire form. The result does not alias b.
func Parse(b []byte) (*Filter, error) {
	if len(b) == 0 {
		return nil, fmt.Errorf("%w: empty", ErrInvalid)
	}
	n := int(b[0])
	if n < MinHashes || n > MaxHashes {
		return nil, fmt.Errorf("%w: %d hashes", ErrInvalid, n)
	}
	offset := 1 + 8*n
	if len(b) < offset+minEntries {
		return nil, fmt.Errorf("%w: %d bytes for %d hashes", ErrInvalid, len(b), n)
	}
	f := &Filter{seeds: make([]uint64, n), entries: append([]byte(nil), b[offset:]...)}
	for i := range f.seeds {
		f.seeds[i] = binary.BigEndian.Uint64(b[1+8*i:])
	}
	return f, nil
}

// Marshal returns the filter's wire form.
func (f *Filter) Marshal() []byte {
	b := make([]byte, 0, 1+8*len(f.seeds)+len(f.entries))
	b = append(b, byte(len(f.seeds)))
	for _, s := range f.seeds {
		b = binary.BigEndian.AppendUint64(b, s)
	}
	return append(b, f.entries...)
}

// Add sets the bits of hash.
func (f *Filter) Add(hash uint64) {
	numBits := 8 * uint64(len(f.entries))
	for _, seed := range f.seeds {
		hash = bits.RotateLeft64(hash, rotation) ^ seed
		i := hash % numBits
		f.entries[i/8] |= 1 << (i % 8)
	}
	f.count++
}

// Contains reports whether every bit of hash is set: false means hash was never added.
func (f *Filter) Contains(hash uint64) bool {
	numBits := 8 * uint64(len(f.entries))
	for _, seed := range f.seeds {
		hash = bits.RotateLeft64(hash, rotation) ^ seed
		i := hash % numBits
		if f.entries[i/8]&(1<<(i%8)) == 0 {
			return false
		}
	}
	return true
}

// Count returns how many hashes were added since New.
func (f *Filter) Count() int { return f.count }

// Hash is an element's hash: the first 8 bytes, big-endian, of SHA-256(key ‖ salt).
func Hash(key, salt []byte) uint64 {
	h := sha256.New()
	h.Write(key)
	h.Write(salt)
	var sum [sha256.Size]byte
	return binary.BigEndian.Uint64(h.Sum(sum[:0]))
}

// OptimalParameters returns the number of hashes and bytes of a filter holding count elements
// with the false-positive probability p (0 < p < 1), sized as the reference sizes its filters:
// m = −count·ln p / ln²2 bits, rounded up to whole bytes less a fraction, and ⌈8·bytes·ln 2 /
// count⌉ hashes clamped to 1–16.
func OptimalParameters(count int, p float64) (numHashes, numEntries int) {
	count = max(count, 1)
	m := -float64(count) * math.Log(p) / (math.Ln2 * math.Ln2)
	numEntries = max(int((m+7)/8), minEntries)
	k := math.Ceil(float64(8*numEntries) * math.Ln2 / float64(count))
	return min(max(int(k), MinHashes), MaxHashes), numEntries
}

// EstimateCount returns how many elements a filter of these dimensions holds before its
// false-positive probability passes p.
func EstimateCount(numHashes, numEntries int, p float64) int {
	// p = (1 − e^(−k·n/m))^k, solved for n.
	m := float64(8 * numEntries)
	k := float64(numHashes)
	n := -m / k * math.Log(1-math.Pow(p, 1/k))
	return int(n)
}
