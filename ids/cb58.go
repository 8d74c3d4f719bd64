package ids

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math/bits"
	"slices"
)

// checksumLen is the length of the checksum that CB58 and the checksummed hex encodings append: the
// last 4 bytes of a single SHA-256 of the payload (node-api.md §6), not Bitcoin's double hash.
const checksumLen = 4

// base58Alphabet is Bitcoin's alphabet; digit 0 is '1'.
const base58Alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

// The conversions work on five base-58 digits at a time: 58^5 < 2^30, so a limb times 2^32 plus a
// carry fits in a uint64.
const (
	digitsPerLimb = 5
	limbBase      = 58 * 58 * 58 * 58 * 58
)

// noDigit marks bytes outside the alphabet in base58Digits.
const noDigit = 0xff

// base58Digits maps an ASCII byte to its base-58 digit, or noDigit. It never changes.
var base58Digits = func() [256]byte {
	var t [256]byte
	for i := range t {
		t[i] = noDigit
	}
	for i := range len(base58Alphabet) {
		t[base58Alphabet[i]] = byte(i)
	}
	return t
}()

// checksum returns the last 4 bytes of SHA-256(b).
func checksum(b []byte) [checksumLen]byte {
	h := sha256.Sum256(b)
	return [checksumLen]byte(h[sha256.Size-checksumLen:])
}

// CB58Encode returns the CB58 form of b: base-58 of b followed by its checksum. It never fails.
func CB58Encode(b []byte) string {
	// Small payloads (every identifier) are built on the stack, so the only allocation is the string.
	var payloadBuf [64]byte
	var payload []byte
	if len(b)+checksumLen <= len(payloadBuf) {
		payload = payloadBuf[:0]
	} else {
		payload = make([]byte, 0, len(b)+checksumLen)
	}
	payload = append(payload, b...)
	sum := checksum(b)
	payload = append(payload, sum[:]...)

	var outBuf [96]byte
	return string(appendBase58(outBuf[:0], payload))
}

// CB58Decode returns the payload of the CB58 string s after checking its checksum. Errors wrap
// ErrBase58Decoding, ErrMissingChecksum or ErrBadChecksum (node-api.md §6).
func CB58Decode(s string) ([]byte, error) {
	decoded, err := appendDecodeBase58(nil, s)
	if err != nil {
		return nil, err
	}
	return splitChecksum(decoded)
}

// cb58DecodeInto is CB58Decode for a caller that supplies scratch space, so identifiers parse without
// allocating. The result may alias buf.
func cb58DecodeInto(buf []byte, s string) ([]byte, error) {
	decoded, err := appendDecodeBase58(buf[:0], s)
	if err != nil {
		return nil, err
	}
	return splitChecksum(decoded)
}

// splitChecksum checks and removes the trailing checksum of b.
func splitChecksum(b []byte) ([]byte, error) {
	if len(b) < checksumLen {
		return nil, ErrMissingChecksum
	}
	n := len(b) - checksumLen
	payload, sum := b[:n:n], b[n:]
	want := checksum(payload)
	if !bytes.Equal(sum, want[:]) {
		return nil, ErrBadChecksum
	}
	return payload, nil
}

// appendBase58 appends the base-58 form of src to dst: one '1' per leading zero byte, then the
// digits of the remaining big-endian number.
func appendBase58(dst, src []byte) []byte {
	zeros := 0
	for zeros < len(src) && src[zeros] == 0 {
		zeros++
	}
	for range zeros {
		dst = append(dst, base58Alphabet[0])
	}
	rest := src[zeros:]
	if len(rest) == 0 {
		return dst
	}
	if len(rest) <= smallLen {
		return appendBase58Small(dst, rest)
	}

	// limbs holds the number in base 58^5, least significant limb first.
	// Invariant: every limb is < limbBase.
	// Each byte needs at most log(256)/log(58) < 1.37 digits.
	maxLimbs := (len(rest)*137/100+1)/digitsPerLimb + 1
	var limbBuf [20]uint32
	limbs := limbBuf[:0]
	if maxLimbs > len(limbBuf) {
		limbs = make([]uint32, 0, maxLimbs)
	}
	dst = slices.Grow(dst, maxLimbs*digitsPerLimb)
	// Feed the input 32 bits at a time; the first word takes the odd leading bytes.
	first := len(rest) % 4
	if first == 0 {
		first = 4
	}
	for i := 0; i < len(rest); {
		n := 4
		if i == 0 {
			n = first
		}
		var word uint64
		for _, c := range rest[i : i+n] {
			word = word<<8 | uint64(c)
		}
		i += n
		shift := uint(8 * n)
		carry := word
		for j := range limbs {
			x := uint64(limbs[j])<<shift + carry
			limbs[j] = uint32(x % limbBase)
			carry = x / limbBase
		}
		for carry > 0 {
			limbs = append(limbs, uint32(carry%limbBase))
			carry /= limbBase
		}
	}

	return appendChunks(dst, limbs, digitsPerLimb)
}

// appendChunks appends the base-58 digits of a number held in chunks of width digits each,
// least significant first: the most significant chunk without leading zero digits, the others
// with all width.
func appendChunks[C uint32 | uint64](dst []byte, chunks []C, width int) []byte {
	var buf [10]byte // the widest chunk: appendBase58Small's
	digits := buf[:width]
	top := chunks[len(chunks)-1]
	k := width
	for top > 0 {
		k--
		digits[k] = base58Alphabet[top%58]
		top /= 58
	}
	dst = append(dst, digits[k:]...)
	for j := len(chunks) - 2; j >= 0; j-- {
		v := chunks[j]
		for k := width - 1; k >= 0; k-- {
			digits[k] = base58Alphabet[v%58]
			v /= 58
		}
		dst = append(dst, digits...)
	}
	return dst
}

// smallLen is the longest number appendBase58Small converts: an ID with its checksum (36 bytes)
// and every shorter identifier.
const smallLen = 40

// smallBase is 58^10, the largest power of 58 below 2^64: each division of the number by it
// gives ten digits.
const smallBase = 58 * 58 * 58 * 58 * 58 * 58 * 58 * 58 * 58 * 58

// appendBase58Small appends the base-58 digits of the big-endian number src, at most smallLen
// bytes without leading zeros (appendBase58 writes those). It is appendBase58's path for
// identifiers, every ID in every API answer and log line: the number held in five 64-bit words
// takes one hardware division a word for ten digits, where the general path takes one per 32-bit
// word for five.
func appendBase58Small(dst, src []byte) []byte {
	// words holds the number, most significant word first; the first takes the odd leading bytes.
	var words [smallLen / 8]uint64
	nw := (len(src) + 7) / 8
	w := words[len(words)-nw:]
	first := len(src) - 8*(nw-1)
	for _, c := range src[:first] {
		w[0] = w[0]<<8 | uint64(c)
	}
	for i := 1; i < nw; i++ {
		w[i] = binary.BigEndian.Uint64(src[first+8*(i-1):])
	}
	// chunks holds the remainders, ten digits each, least significant first. smallLen bytes are
	// under 55 digits, so six chunks.
	var chunks [6]uint64
	nc := 0
	for len(w) > 0 {
		var rem uint64
		for i := range w {
			w[i], rem = bits.Div64(rem, w[i], smallBase)
		}
		chunks[nc] = rem
		nc++
		for len(w) > 0 && w[0] == 0 {
			w = w[1:]
		}
	}
	return appendChunks(dst, chunks[:nc], 10)
}

// appendDecodeBase58 appends the bytes that the base-58 string s encodes to dst. Errors wrap
// ErrBase58Decoding with the detail the reference node's library gives.
func appendDecodeBase58(dst []byte, s string) ([]byte, error) {
	if len(s) == 0 {
		return nil, fmt.Errorf("%w: %w", ErrBase58Decoding, errZeroLength)
	}
	for i := range len(s) {
		c := s[i]
		if c > 127 {
			return nil, fmt.Errorf("%w: %w", ErrBase58Decoding, errHighBit)
		}
		if base58Digits[c] == noDigit {
			return nil, fmt.Errorf("%w: %w", ErrBase58Decoding, invalidDigitError(c))
		}
	}

	zeros := 0
	for zeros < len(s) && s[zeros] == base58Alphabet[0] {
		zeros++
	}
	dst = slices.Grow(dst, zeros)
	for range zeros {
		dst = append(dst, 0)
	}
	rest := s[zeros:]
	if len(rest) == 0 {
		return dst, nil
	}

	// limbs holds the number in base 2^32, least significant limb first.
	// Each digit needs at most log(58)/log(256) < 0.74 bytes.
	maxBytes := len(rest)*74/100 + 1
	maxLimbs := maxBytes/4 + 1
	var limbBuf [16]uint32
	limbs := limbBuf[:0]
	if maxLimbs > len(limbBuf) {
		limbs = make([]uint32, 0, maxLimbs)
	}
	dst = slices.Grow(dst, maxBytes)
	for i := 0; i < len(rest); {
		n := min(digitsPerLimb, len(rest)-i)
		var value, mult uint64 = 0, 1
		for _, c := range []byte(rest[i : i+n]) {
			value = value*58 + uint64(base58Digits[c])
			mult *= 58
		}
		i += n
		carry := value
		for j := range limbs {
			x := uint64(limbs[j])*mult + carry
			limbs[j] = uint32(x)
			carry = x >> 32
		}
		for carry > 0 {
			limbs = append(limbs, uint32(carry))
			carry >>= 32
		}
	}

	// Write the limbs big-endian, dropping the leading zero bytes of the top limb.
	top := limbs[len(limbs)-1]
	switch {
	case top >= 1<<24:
		dst = append(dst, byte(top>>24), byte(top>>16), byte(top>>8), byte(top))
	case top >= 1<<16:
		dst = append(dst, byte(top>>16), byte(top>>8), byte(top))
	case top >= 1<<8:
		dst = append(dst, byte(top>>8), byte(top))
	default:
		dst = append(dst, byte(top))
	}
	for j := len(limbs) - 2; j >= 0; j-- {
		v := limbs[j]
		dst = append(dst, byte(v>>24), byte(v>>16), byte(v>>8), byte(v))
	}
	return dst, nil
}
