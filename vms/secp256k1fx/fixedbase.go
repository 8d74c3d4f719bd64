package secp256k1fx

import (
	"sync"

	gsecp "github.com/consensys/gnark-crypto/ecc/secp256k1"
	"github.com/consensys/gnark-crypto/ecc/secp256k1/fp"
	"github.com/consensys/gnark-crypto/ecc/secp256k1/fr"
)

// fixedBase holds multiples of one point P so that k·P costs one mixed addition per w-bit digit
// of k and no doubling: rows[i][d-1] = d·2^(w·i)·P for d in 1…2^(w-1), in affine coordinates.
// The digits are signed (−2^(w−1) … 2^(w−1)), so a negative one adds the entry's negation and a
// row holds half the multiples unsigned digits would need. A variable-base multiplication (what
// recovery does with the signature's point) costs about 128 doublings and 40 additions with
// decred's GLV code; with w = 7 this is 37 additions. It is immutable once built.
type fixedBase struct {
	w    uint
	rows [][]gsecp.G1Affine
}

// newFixedBase builds P's table with w-bit digits (2 ≤ w ≤ 12): ⌈257/w⌉ rows of 2^(w−1)
// points, 64 bytes each. A 256-bit scalar recoded into signed digits needs one bit more than
// it has, for the last digit's carry (addMul).
func newFixedBase(p *gsecp.G1Affine, w uint) *fixedBase {
	nRows := (257 + int(w) - 1) / int(w)
	per := 1 << (w - 1)
	jac := make([]gsecp.G1Jac, 0, nRows*per)
	var base gsecp.G1Jac
	base.FromAffine(p)
	for range nRows {
		row := len(jac)
		jac = append(jac, base)
		for d := 1; d < per; d++ {
			next := jac[len(jac)-1]
			next.AddAssign(&jac[row])
			jac = append(jac, next)
		}
		// The next row's base is 2^w times this one's: twice the last entry, 2^(w−1)·base.
		base.Double(&jac[len(jac)-1])
	}
	// No entry is the point at infinity: d·2^(w·i) is never a multiple of the prime group
	// order, so the batch conversion inverts every Z.
	aff := gsecp.BatchJacobianToAffineG1(jac)
	t := &fixedBase{w: w, rows: make([][]gsecp.G1Affine, nRows)}
	for i := range t.rows {
		t.rows[i] = aff[i*per : (i+1)*per : (i+1)*per]
	}
	return t
}

// addMul adds k·P to acc, k being given as its canonical (not Montgomery) 64-bit limbs, least
// significant first (fr.Element.Bits).
//
// The recoding: digit i is bits w·i … w·i+w−1 of k plus the carry out of digit i−1; a digit
// above 2^(w−1) becomes digit − 2^w and carries one into digit i+1. No carry leaves the last
// row: its bits reach past bit 256, which is 0 (k < n < 2^256), so they are at most
// 2^(w−1) − 1, and with the carry in at most 2^(w−1).
func (t *fixedBase) addMul(acc *gsecp.G1Jac, k [4]uint64) {
	w := t.w
	half := uint64(1) << (w - 1)
	mask := uint64(1)<<w - 1
	var carry uint64
	for i, row := range t.rows {
		digit := carry
		if bit := uint(i) * w; bit < 256 {
			word, off := bit/64, bit%64
			chunk := k[word] >> off
			if off+w > 64 && word < 3 {
				chunk |= k[word+1] << (64 - off)
			}
			digit += chunk & mask
		}
		carry = 0
		if digit > half {
			carry = 1
			if m := uint64(1)<<w - digit; m != 0 { // digit = 2^w adds nothing here
				var neg gsecp.G1Affine
				neg.Neg(&row[m-1])
				acc.AddMixed(&neg)
			}
		} else if digit != 0 {
			acc.AddMixed(&row[digit-1])
		}
	}
}

// generatorBits is the digit width of the generator's table: 22 rows of 2,048 points, 2.9 MB,
// so u1·G costs 22 additions (8 bits: 33 additions, in 270 KB). There is one such table per
// process, built in about 30 ms when Signers remembers its first key (or on first use).
const generatorBits = 12

// generatorTable is the generator's table, built on first use and never changed: every fast
// check multiplies the generator.
var generatorTable = sync.OnceValue(func() *fixedBase {
	_, g := gsecp.Generators()
	return newFixedBase(&g, generatorBits)
})

// signerTableBits is the digit width of a remembered signer's table: 37 rows of 64 points,
// 152 KB (9.7 MB for the 64 keys a chain remembers), built in about the time of seven
// recoveries. A check costs 37 additions for the key's part (6 bits: 43, in 88 KB).
const signerTableBits = 7

// verifyWithTable reports whether sig over hash recovers to the public key whose table is
// key: whether the point R = (e·s⁻¹)·G + (r·s⁻¹)·P, which recovery would start from, has x = r
// and the parity of y that the recovery flag names. If so, public-key recovery of sig gives P
// (s·R = e·G + r·P, so P = r⁻¹·(s·R − e·G), which is what recovery computes). The caller has
// checked the flag and the low S (checkMalleability). It reports false for every signature it
// cannot decide, which the caller then recovers in full.
//
// x = r exactly, not r + n: a point whose x is r + n (possible when r < p − n) is what recovery
// flags 2 and 3 name, which checkMalleability refuses, so recovery never starts from it.
func verifyWithTable(key *fixedBase, hash [32]byte, sig *Signature) bool {
	var r, s, e fr.Element
	if r.SetBytesCanonical(sig[:32]) != nil || s.SetBytesCanonical(sig[32:64]) != nil ||
		r.IsZero() || s.IsZero() {
		return false
	}
	e.SetBytes(hash[:]) // reduced modulo the group order, as recovery reduces it
	var sInv, u1, u2 fr.Element
	sInv.Inverse(&s)
	u1.Mul(&e, &sInv)
	u2.Mul(&r, &sInv)
	var acc gsecp.G1Jac // Z = 0: the point at infinity
	generatorTable().addMul(&acc, u1.Bits())
	key.addMul(&acc, u2.Bits())
	if acc.Z.IsZero() {
		return false
	}
	// R's affine x is X/Z²: compare X with r·Z² first, which needs no inversion, so that a
	// signature by another key is refused for two multiplications. r < n < p, so r as a field
	// element is its own canonical form.
	var x, zz fp.Element
	if x.SetBytesCanonical(sig[:32]) != nil {
		return false
	}
	zz.Square(&acc.Z)
	x.Mul(&x, &zz)
	if !x.Equal(&acc.X) {
		return false
	}
	// The parity of y = Y/Z³ needs its canonical value: one inversion.
	var pt gsecp.G1Affine
	pt.FromJacobian(&acc)
	y := pt.Y.Bytes()
	return y[31]&1 == sig[64]
}
