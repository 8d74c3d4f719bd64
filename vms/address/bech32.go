package address

import (
	"fmt"
	"strings"

	"github.com/cornice-node/cornice/ids"
)

// Bech32 as specified by BIP-173, the encoding of chain addresses (platform-exchange.md §2.4): a
// human-readable part, the separator '1', then 5-bit groups from bech32Charset, the last six of
// which are a checksum. The reference uses bech32, not bech32m: the checksum constant is 1.
const (
	bech32Charset     = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
	bech32MaxLen      = 90
	bech32ChecksumLen = 6
)

// bech32Generator holds the BCH generator coefficients of BIP-173's polymod.
var bech32Generator = [5]uint32{0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3}

// bech32Polymod computes BIP-173's checksum polynomial over the expanded hrp and the 5-bit values.
func bech32Polymod(hrp string, values []byte) uint32 {
	chk := uint32(1)
	step := func(v byte) {
		top := chk >> 25
		chk = (chk&0x1ffffff)<<5 ^ uint32(v)
		for i, g := range bech32Generator {
			if (top>>i)&1 == 1 {
				chk ^= g
			}
		}
	}
	for i := range len(hrp) {
		step(hrp[i] >> 5)
	}
	step(0)
	for i := range len(hrp) {
		step(hrp[i] & 31)
	}
	for _, v := range values {
		step(v)
	}
	return chk
}

// DecodeBech32 decodes a bech32 string into its lower-case human-readable part and its data as
// 8-bit bytes. It rejects mixed case, characters outside 33–126, strings longer than 90
// characters, a bad checksum, and data whose padding is longer than 4 bits or not zero (BIP-173).
func DecodeBech32(s string) (hrp string, data []byte, err error) {
	if len(s) > bech32MaxLen {
		return "", nil, fmt.Errorf("%w: %d characters, limit %d", ErrInvalidBech32, len(s), bech32MaxLen)
	}
	hasLower, hasUpper := false, false
	for i := range len(s) {
		c := s[i]
		switch {
		case c < 33 || c > 126:
			return "", nil, fmt.Errorf("%w: character %#x at %d", ErrInvalidBech32, c, i)
		case c >= 'a' && c <= 'z':
			hasLower = true
		case c >= 'A' && c <= 'Z':
			hasUpper = true
		}
	}
	if hasLower && hasUpper {
		return "", nil, fmt.Errorf("%w: mixed case", ErrInvalidBech32)
	}
	s = strings.ToLower(s)
	sep := strings.LastIndexByte(s, '1')
	if sep < 1 || sep+1+bech32ChecksumLen > len(s) {
		return "", nil, fmt.Errorf("%w: separator at %d in %d characters", ErrInvalidBech32, sep, len(s))
	}
	hrp = s[:sep]
	values := make([]byte, 0, len(s)-sep-1)
	for i := sep + 1; i < len(s); i++ {
		v := strings.IndexByte(bech32Charset, s[i])
		if v < 0 {
			return "", nil, fmt.Errorf("%w: character %q at %d", ErrInvalidBech32, s[i], i)
		}
		values = append(values, byte(v))
	}
	if bech32Polymod(hrp, values) != 1 {
		return "", nil, fmt.Errorf("%w: bad checksum", ErrInvalidBech32)
	}
	data, err = regroupBits(values[:len(values)-bech32ChecksumLen], 5, 8, false)
	if err != nil {
		return "", nil, err
	}
	return hrp, data, nil
}

// EncodeBech32 encodes data (8-bit bytes) under hrp, the inverse of DecodeBech32. The hrp must be
// 1–83 characters in 33–126 and not upper case.
func EncodeBech32(hrp string, data []byte) (string, error) {
	values, err := regroupBits(data, 8, 5, true)
	if err != nil {
		return "", err
	}
	if len(hrp) < 1 || len(hrp)+1+len(values)+bech32ChecksumLen > bech32MaxLen {
		return "", fmt.Errorf("%w: hrp of %d and data of %d characters", ErrInvalidBech32, len(hrp), len(values))
	}
	for i := range len(hrp) {
		if c := hrp[i]; c < 33 || c > 126 || (c >= 'A' && c <= 'Z') {
			return "", fmt.Errorf("%w: hrp character %#x", ErrInvalidBech32, c)
		}
	}
	chk := bech32Polymod(hrp, append(values, make([]byte, bech32ChecksumLen)...)) ^ 1
	var b strings.Builder
	b.Grow(len(hrp) + 1 + len(values) + bech32ChecksumLen)
	b.WriteString(hrp)
	b.WriteByte('1')
	for _, v := range values {
		b.WriteByte(bech32Charset[v])
	}
	for i := range bech32ChecksumLen {
		b.WriteByte(bech32Charset[(chk>>(5*(5-i)))&31])
	}
	return b.String(), nil
}

// regroupBits converts groups of from bits into groups of to bits, big-endian. With pad, a last
// partial group is padded with zeros; without, leftover bits must be fewer than from and zero.
func regroupBits(in []byte, from, to uint, pad bool) ([]byte, error) {
	var (
		acc  uint32
		bits uint
		out  = make([]byte, 0, (uint(len(in))*from+to-1)/to)
		mask = uint32(1)<<to - 1
	)
	for _, v := range in {
		if uint32(v)>>from != 0 {
			return nil, fmt.Errorf("%w: value %d wider than %d bits", ErrInvalidBech32, v, from)
		}
		acc = acc<<from | uint32(v)
		bits += from
		for bits >= to {
			bits -= to
			out = append(out, byte(acc>>bits&mask))
		}
	}
	switch {
	case pad:
		if bits > 0 {
			out = append(out, byte(acc<<(to-bits)&mask))
		}
	case bits >= from:
		return nil, fmt.Errorf("%w: %d bits of padding", ErrInvalidBech32, bits)
	case acc&(uint32(1)<<bits-1) != 0:
		return nil, fmt.Errorf("%w: non-zero padding", ErrInvalidBech32)
	}
	return out, nil
}

// Parse parses a chain address `<alias>-<bech32>` such as `X-local18jma8…` into its chain alias,
// its human-readable part and its 20-byte short address (§2.4). Like the reference, it splits on
// the first '-' and accepts any alias and HRP; errors wrap ErrInvalidAddress.
func Parse(s string) (alias, hrp string, addr ids.ShortID, err error) {
	alias, rest, ok := strings.Cut(s, "-")
	if !ok {
		return "", "", ids.ShortID{}, fmt.Errorf("%w %q: no chain alias", ErrInvalidAddress, s)
	}
	hrp, data, err := DecodeBech32(rest)
	if err != nil {
		return "", "", ids.ShortID{}, fmt.Errorf("%w %q: %w", ErrInvalidAddress, s, err)
	}
	addr, err = ids.ToShortID(data)
	if err != nil {
		return "", "", ids.ShortID{}, fmt.Errorf("%w %q: %w", ErrInvalidAddress, s, err)
	}
	return alias, hrp, addr, nil
}

// Format is the inverse of Parse: alias + "-" + the bech32 encoding of addr under hrp.
func Format(alias, hrp string, addr ids.ShortID) (string, error) {
	s, err := EncodeBech32(hrp, addr[:])
	if err != nil {
		return "", err
	}
	return alias + "-" + s, nil
}
