package secp256k1fx

import (
	"crypto/sha256"
	"math/big"
	"math/rand/v2"
	"testing"

	gsecp "github.com/consensys/gnark-crypto/ecc/secp256k1"
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
	for _, w := range []uint{4, 5, 8} {
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
