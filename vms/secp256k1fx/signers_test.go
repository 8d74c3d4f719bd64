package secp256k1fx

import (
	"crypto/sha256"
	"math/big"
	"math/rand/v2"
	"testing"

	gsecp "github.com/consensys/gnark-crypto/ecc/secp256k1"
	"github.com/consensys/gnark-crypto/ecc/secp256k1/fp"
	"github.com/consensys/gnark-crypto/ecc/secp256k1/fr"
	secp "github.com/decred/dcrd/dcrec/secp256k1/v4"
	"github.com/decred/dcrd/dcrec/secp256k1/v4/ecdsa"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
)

// testKey returns a private key drawn from rng.
func testKey(rng *rand.Rand) *secp.PrivateKey {
	var b [32]byte
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return secp.PrivKeyFromBytes(b[:])
}

// signHash signs hash with k in the [r‖s‖v] form (low S, as decred signs).
func signHash(k *secp.PrivateKey, hash [32]byte) Signature {
	compact := ecdsa.SignCompact(k, hash[:], false)
	var sig Signature
	copy(sig[:64], compact[1:])
	sig[64] = compact[0] - 27
	return sig
}

func addressOf(k *secp.PrivateKey) ids.ShortID {
	return PublicKeyAddress(k.PubKey().SerializeCompressed())
}

// TestFixedBase checks k·P from a table against gnark's own scalar multiplication, for both
// digit widths in use and scalars at the edges of the recoding (all-ones digits carry out of
// every row).
func TestFixedBase(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	_, g := gsecp.Generators()
	var p gsecp.G1Affine
	p.ScalarMultiplication(&g, big.NewInt(123456789))
	n := fr.Modulus()
	scalars := []*big.Int{
		big.NewInt(0), big.NewInt(1), big.NewInt(7), big.NewInt(8), big.NewInt(9), big.NewInt(255),
		new(big.Int).Sub(n, big.NewInt(1)),
		new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 255), big.NewInt(1)),
		new(big.Int).Lsh(big.NewInt(1), 255),
	}
	for range 20 {
		var b [32]byte
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		scalars = append(scalars, new(big.Int).Mod(new(big.Int).SetBytes(b[:]), n))
	}
	for _, w := range []uint{4, 5, 7, 8, generatorBits} {
		table := newFixedBase(&p, w)
		for _, k := range scalars {
			var e fr.Element
			e.SetBigInt(k)
			var acc gsecp.G1Jac // Z = 0: the point at infinity
			table.addMul(&acc, e.Bits())
			var want gsecp.G1Jac
			want.FromAffine(&p)
			want.ScalarMultiplication(&want, k)
			require.True(t, acc.Equal(&want), "w %d, k %s", w, k)
		}
	}
}

// TestSignersRecoverAddress checks that Signers.RecoverAddress answers what RecoverAddress
// answers: for the expected signer (before and after its table exists), for another signer than
// the one expected, for a remembered address whose key did not sign, and for signatures that
// fail recovery; and that a remembered signer's signatures are answered by the table.
func TestSignersRecoverAddress(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	a, b := testKey(rng), testKey(rng)
	addrA, addrB := addressOf(a), addressOf(b)
	s := NewSigners(4)
	check := func(hash [32]byte, sig Signature, want ids.ShortID) {
		t.Helper()
		wantAddr, wantErr := RecoverAddress(hash, sig)
		got, err := s.RecoverAddress(hash, sig, want)
		require.Equal(t, wantErr, err)
		require.Equal(t, wantAddr, got)
	}
	for i := range 6 {
		hash := sha256.Sum256([]byte{byte(i)})
		check(hash, signHash(a, hash), addrA)
		check(hash, signHash(b, hash), addrA) // b signed where a was expected
		check(hash, signHash(a, hash), addrB) // a signed where b was expected
	}
	s.mu.Lock()
	require.NotNil(t, s.keys[addrA].table, "a signed as expected more than once")
	_, knowsB := s.keys[addrB]
	require.False(t, knowsB, "b never signed where it was expected")
	tableA := s.keys[addrA].table
	s.mu.Unlock()

	hash := sha256.Sum256([]byte("table"))
	sig := signHash(a, hash)
	require.True(t, verifyWithTable(tableA, hash, &sig))
	other := sha256.Sum256([]byte("other"))
	require.False(t, verifyWithTable(tableA, other, &sig), "a signature over another hash")
	byB := signHash(b, hash)
	require.False(t, verifyWithTable(tableA, hash, &byB), "another key's signature")
	flipped := sig
	flipped[64] ^= 1
	require.False(t, verifyWithTable(tableA, hash, &flipped), "the other recovery flag")

	// Failures: the same errors as RecoverAddress, the table notwithstanding.
	check(hash, flipped, addrA)
	mutated := sig
	mutated[64] = 2
	check(hash, mutated, addrA)
	highS := sig
	sInt := new(big.Int).SetBytes(sig[32:64])
	new(big.Int).Sub(secp.S256().N, sInt).FillBytes(highS[32:64])
	check(hash, highS, addrA)
	var zero Signature
	check(hash, zero, addrA)
	overR := sig
	secp.S256().N.FillBytes(overR[:32])
	check(hash, overR, addrA)
	noPoint := sig
	big.NewInt(5).FillBytes(noPoint[:32]) // x = 5 is on the curve only if 132 is a square mod p
	check(hash, noPoint, addrA)

	// A nil Signers recovers in full.
	var none *Signers
	got, err := none.RecoverAddress(hash, sig, addrA)
	require.NoError(t, err)
	require.Equal(t, addrA, got)
}

// TestVerifyWithTableAgrees checks on many random signatures that the fast check accepts
// exactly what recovery attributes to the table's key: a key's own signatures over random
// hashes, with each single bit flipped, and the signatures of other keys.
func TestVerifyWithTableAgrees(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(9, 10))
	k := testKey(rng)
	var pub gsecp.G1Affine
	uncompressed := k.PubKey().SerializeUncompressed()
	pub.X.SetBytes(uncompressed[1:33])
	pub.Y.SetBytes(uncompressed[33:65])
	table := newFixedBase(&pub, signerTableBits)
	other := testKey(rng)
	for i := range 40 {
		var hash [32]byte
		for j := range hash {
			hash[j] = byte(rng.Uint32())
		}
		sig := signHash(k, hash)
		require.True(t, verifyWithTable(table, hash, &sig), "signature %d", i)
		byOther := signHash(other, hash)
		require.False(t, verifyWithTable(table, hash, &byOther), "signature %d by another key", i)
		bit := rng.IntN(65 * 8)
		flipped := sig
		flipped[bit/8] ^= 1 << (bit % 8)
		requireAgrees(t, table, k.PubKey(), hash, flipped)
	}
}

// requireAgrees fails unless verifyWithTable of sig over hash, with pub's table, answers
// whether recovery (with the malleability checks) gives pub.
func requireAgrees(t *testing.T, table *fixedBase, pub *secp.PublicKey, hash [32]byte, sig Signature) {
	t.Helper()
	got, err := RecoverPublicKey(hash, sig)
	want := err == nil && got.IsEqual(pub)
	require.Equal(t, want, checkMalleability(&sig) == nil && verifyWithTable(table, hash, &sig), "signature %x", sig)
}

// TestVerifyWithTableOverflowX checks that the fast check refuses a signature whose point R
// has x = r + n: its key P is the one a recovery with flag 2 or 3 would give, which the
// malleability check refuses, and recovery with flag 0 or 1 starts from the point with x = r
// instead. Such a signature cannot come from signing (x ≥ n has a probability of about
// 2^−128), so it is built backwards: R first, then P = r⁻¹·(s·R − e·G).
func TestVerifyWithTableOverflowX(t *testing.T) {
	t.Parallel()
	n := fr.Modulus()
	// The first x = n + t on the curve (t ≥ 1): x³ + 7 is a square modulo p.
	var R gsecp.G1Affine
	r := big.NewInt(0)
	for {
		r.Add(r, big.NewInt(1))
		R.X.SetBigInt(new(big.Int).Add(n, r))
		var y2 fp.Element
		y2.Square(&R.X).Mul(&y2, &R.X)
		var seven fp.Element
		seven.SetUint64(7)
		y2.Add(&y2, &seven)
		if R.Y.Sqrt(&y2) != nil {
			break
		}
	}
	require.True(t, R.IsOnCurve())
	sInt := big.NewInt(123456789)
	hash := sha256.Sum256([]byte("overflow"))
	e := new(big.Int).Mod(new(big.Int).SetBytes(hash[:]), n)
	_, g := gsecp.Generators()
	var sR, eG, P gsecp.G1Affine
	sR.ScalarMultiplication(&R, sInt)
	eG.ScalarMultiplication(&g, e)
	P.Sub(&sR, &eG)
	P.ScalarMultiplication(&P, new(big.Int).ModInverse(r, n))

	var sig Signature
	r.FillBytes(sig[:32])
	sInt.FillBytes(sig[32:64])
	sig[64] = R.Y.Bytes()[31] & 1
	table := newFixedBase(&P, signerTableBits)
	require.False(t, verifyWithTable(table, hash, &sig))

	// The construction is right: the same s and e with R's x taken modulo nothing (a
	// signature "x = r + n" cannot say) verify in a direct computation: s⁻¹·(e·G + r'·P) = R
	// for r' = x(R) mod n = r.
	var u1G, u2P, sum gsecp.G1Affine
	sInv := new(big.Int).ModInverse(sInt, n)
	u1G.ScalarMultiplication(&g, new(big.Int).Mod(new(big.Int).Mul(e, sInv), n))
	u2P.ScalarMultiplication(&P, new(big.Int).Mod(new(big.Int).Mul(r, sInv), n))
	sum.Add(&u1G, &u2P)
	require.True(t, sum.Equal(&R), "R = s⁻¹·(e·G + r·P)")

	// Through Signers: the answer is recovery's, whatever that gives for x = r.
	s := NewSigners(1)
	pBytes := P.RawBytes() // X‖Y, uncompressed without the prefix
	addrP := PublicKeyAddress(append([]byte{2 | P.Y.Bytes()[31]&1}, pBytes[:32]...))
	s.keys[addrP] = &knownKey{pub: P, table: table}
	wantAddr, wantErr := RecoverAddress(hash, sig)
	got, err := s.RecoverAddress(hash, sig, addrP)
	require.Equal(t, wantErr, err)
	require.Equal(t, wantAddr, got)
	require.NotEqual(t, addrP, got)
}

// FuzzSignersRecoverAddress checks that Signers.RecoverAddress answers what RecoverAddress
// answers, and that the fast check accepts exactly the signatures recovery attributes to the
// expected key, for signatures by one of three keys over any message, with any bits flipped
// (mask), where any of the three is expected, edge values of r and s substituted (edge).
func FuzzSignersRecoverAddress(f *testing.F) {
	rng := rand.New(rand.NewPCG(11, 12))
	type key struct {
		priv  *secp.PrivateKey
		addr  ids.ShortID
		table *fixedBase
	}
	var keys [3]key
	s := NewSigners(len(keys))
	for i := range keys {
		k := testKey(rng)
		keys[i] = key{priv: k, addr: addressOf(k)}
		for j := range 2 { // the second signature as expected builds the table
			hash := sha256.Sum256([]byte{byte(i), byte(j)})
			_, err := s.RecoverAddress(hash, signHash(k, hash), keys[i].addr)
			require.NoError(f, err)
		}
		keys[i].table = s.keys[keys[i].addr].table
		require.NotNil(f, keys[i].table)
	}
	f.Add(uint8(0), uint8(0), []byte("good"), []byte{}, uint8(0))
	f.Add(uint8(1), uint8(0), []byte("wrong key"), []byte{}, uint8(0))
	f.Add(uint8(0), uint8(0), []byte("flag"), append(make([]byte, 64), 1), uint8(0))
	f.Add(uint8(0), uint8(0), []byte("bad flag"), append(make([]byte, 64), 2), uint8(0))
	f.Add(uint8(2), uint8(2), []byte("r bit"), []byte{0, 0, 0, 0, 0x10}, uint8(0))
	f.Add(uint8(2), uint8(2), []byte("s bit"), append(make([]byte, 40), 0x01), uint8(0))
	for edge := range uint8(8) {
		f.Add(uint8(0), uint8(0), []byte("edge"), []byte{}, edge)
	}
	n := secp.S256().N
	f.Fuzz(func(t *testing.T, signer, expected uint8, msg, mask []byte, edge uint8) {
		k := &keys[int(signer)%len(keys)]
		want := &keys[int(expected)%len(keys)]
		hash := sha256.Sum256(msg)
		sig := signHash(k.priv, hash)
		for i := range min(len(mask), len(sig)) {
			sig[i] ^= mask[i]
		}
		r, sv := new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:64])
		switch edge % 8 {
		case 1: // high S: the same signature, malleated
			sv.Sub(n, sv)
		case 2:
			r.SetInt64(0)
		case 3:
			sv.SetInt64(0)
		case 4: // r = n: not canonical
			r.Set(n)
		case 5:
			r.Sub(n, big.NewInt(1))
		case 6: // r on no point with x = 5 (x³ + 7 = 132 is not a square modulo p)
			r.SetInt64(5)
		case 7:
			sv.SetInt64(1)
		}
		r.Mod(r, new(big.Int).Lsh(big.NewInt(1), 256))
		sv.Mod(sv, new(big.Int).Lsh(big.NewInt(1), 256))
		r.FillBytes(sig[:32])
		sv.FillBytes(sig[32:64])

		wantAddr, wantErr := RecoverAddress(hash, sig)
		got, err := s.RecoverAddress(hash, sig, want.addr)
		require.Equal(t, wantErr, err)
		require.Equal(t, wantAddr, got)
		requireAgrees(t, want.table, want.priv.PubKey(), hash, sig)
	})
}

// TestSignersBounded checks that a Signers forgets keys beyond its bound.
func TestSignersBounded(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 6))
	s := NewSigners(2)
	for i := range 5 {
		k := testKey(rng)
		hash := sha256.Sum256([]byte{byte(i)})
		got, err := s.RecoverAddress(hash, signHash(k, hash), addressOf(k))
		require.NoError(t, err)
		require.Equal(t, addressOf(k), got)
		s.mu.Lock()
		require.LessOrEqual(t, len(s.keys), 2)
		s.mu.Unlock()
	}
}

// BenchmarkSignersRecoverAddress compares a full recovery with the check against a remembered
// key's table.
func BenchmarkSignersRecoverAddress(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 8))
	k := testKey(rng)
	hash := sha256.Sum256([]byte("bench"))
	sig := signHash(k, hash)
	addr := addressOf(k)
	b.Run("recover", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := RecoverAddress(hash, sig); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("remembered", func(b *testing.B) {
		s := NewSigners(1)
		for range 2 {
			_, _ = s.RecoverAddress(hash, sig, addr)
		}
		b.ReportAllocs()
		for b.Loop() {
			if got, err := s.RecoverAddress(hash, sig, addr); err != nil || got != addr {
				b.Fatal(got, err)
			}
		}
	})
}

// TestCheckMalleability checks the bounds: S up to half the group order and flags 0 and 1 pass;
// S one above it, and flags 2 and up, are ErrMutatedSig.
func TestCheckMalleability(t *testing.T) {
	t.Parallel()
	half := new(big.Int).Rsh(secp.S256().N, 1)
	for _, tt := range []struct {
		s    *big.Int
		flag byte
		ok   bool
	}{
		{big.NewInt(1), 0, true},
		{half, 1, true},
		{new(big.Int).Add(half, big.NewInt(1)), 0, false},
		{new(big.Int).Sub(secp.S256().N, big.NewInt(1)), 0, false},
		{big.NewInt(1), 2, false},
		{big.NewInt(1), 0xff, false},
	} {
		var sig Signature
		tt.s.FillBytes(sig[32:64])
		sig[64] = tt.flag
		if tt.ok {
			require.NoError(t, checkMalleability(&sig), "s %s flag %d", tt.s, tt.flag)
		} else {
			require.ErrorIs(t, checkMalleability(&sig), ErrMutatedSig, "s %s flag %d", tt.s, tt.flag)
		}
	}
}
