package bls

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// testdataDir holds the local network's signer keys and genesis.
const testdataDir = "../../testdata"

// genesisSigners returns the signer of each initial staker in testdata/genesis_local.json.
func genesisSigners(tb testing.TB) []ProofOfPossession {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join(testdataDir, "genesis_local.json"))
	require.NoError(tb, err)
	var genesis struct {
		InitialStakers []struct {
			Signer ProofOfPossession `json:"signer"`
		} `json:"initialStakers"`
	}
	require.NoError(tb, json.Unmarshal(b, &genesis))
	pops := make([]ProofOfPossession, len(genesis.InitialStakers))
	for i, s := range genesis.InitialStakers {
		pops[i] = s.Signer
	}
	return pops
}

func TestLocalSignersMatchGenesis(t *testing.T) {
	t.Parallel()
	pops := genesisSigners(t)
	require.Len(t, pops, 5)
	for i, want := range pops {
		t.Run("signer"+strconv.Itoa(i+1), func(t *testing.T) {
			t.Parallel()
			sk, err := LoadOrGenerateSecretKey(filepath.Join(testdataDir, "local-stakers", "signer"+strconv.Itoa(i+1)+".key"), false)
			require.NoError(t, err)
			got := NewProofOfPossession(sk)
			require.Equal(t, want, *got)
			require.NoError(t, got.Verify())
		})
	}
}

func TestSigner1Vector(t *testing.T) {
	t.Parallel()
	const (
		wantPK           = "0x900c9b119b5c82d781d4b49be78c3fc7ae65f2b435b7ed9e3a8b9a03e475edff86d8a64827fec8db23a6f236afbf127d"
		wantPKUncompress = "0x100c9b119b5c82d781d4b49be78c3fc7ae65f2b435b7ed9e3a8b9a03e475edff86d8a64827fec8db23a6f236afbf127d0a4e3d30c04795ab062cd8e7f6acde3167f3fe4701dcaa59445f07546d7c973b1ed8f7124cd9d45642ab365b54ec3c76"
		wantPoP          = "0x8bfd6d4d2086b2b8115d8f72f94095fefe5a6c07876b2accf51a811adf520f389e74a3d2152a6d90b521e2be58ffe468043dc5ea68b4c44410eb67f8dc24f13ed4f194000764c0e922cd254a3588a4962b1cb4db7de4bb9cda9d9d4d6b03f3d2"
	)
	raw, err := os.ReadFile(filepath.Join(testdataDir, "local-stakers", "signer1.key"))
	require.NoError(t, err)
	// signer1.key is the ASCII text "AvalancheLocalNetworkValidator01" (platform-exchange.md §3).
	require.Equal(t, "AvalancheLocalNetworkValidator01", string(raw))
	sk, err := SecretKeyFromBytes(raw)
	require.NoError(t, err)
	require.Equal(t, raw, sk.Bytes())

	pk := sk.PublicKey()
	require.Equal(t, wantPK, "0x"+hex.EncodeToString(pk.Compress()))
	require.Equal(t, wantPKUncompress, "0x"+hex.EncodeToString(pk.Bytes()))

	fromUncompressed, err := PublicKeyFromBytes(pk.Bytes())
	require.NoError(t, err)
	require.True(t, pk.Equal(fromUncompressed))

	b, err := json.Marshal(NewProofOfPossession(sk))
	require.NoError(t, err)
	require.Equal(t, `{"publicKey":"`+wantPK+`","proofOfPossession":"`+wantPoP+`"}`, string(b))
}

func TestSignVerify(t *testing.T) {
	t.Parallel()
	sk, err := NewSecretKey()
	require.NoError(t, err)
	other, err := NewSecretKey()
	require.NoError(t, err)
	require.NotEqual(t, sk.Bytes(), other.Bytes())

	pk := sk.PublicKey()
	msg := []byte("warp message")
	sig := sk.Sign(msg)
	pop := sk.SignProofOfPossession(msg)

	parsedPK, err := PublicKeyFromCompressedBytes(pk.Compress())
	require.NoError(t, err)
	parsedSig, err := SignatureFromBytes(sig.Compress())
	require.NoError(t, err)

	tests := []struct {
		name   string
		verify func(*PublicKey, *Signature, []byte) bool
		pk     *PublicKey
		sig    *Signature
		msg    []byte
		want   bool
	}{
		{name: "valid", verify: Verify, pk: pk, sig: sig, msg: msg, want: true},
		{name: "parsed", verify: Verify, pk: parsedPK, sig: parsedSig, msg: msg, want: true},
		{name: "valid pop", verify: VerifyProofOfPossession, pk: pk, sig: pop, msg: msg, want: true},
		{name: "other message", verify: Verify, pk: pk, sig: sig, msg: []byte("warp messagf"), want: false},
		{name: "other key", verify: Verify, pk: other.PublicKey(), sig: sig, msg: msg, want: false},
		{name: "signature as pop", verify: VerifyProofOfPossession, pk: pk, sig: sig, msg: msg, want: false},
		{name: "pop as signature", verify: Verify, pk: pk, sig: pop, msg: msg, want: false},
		{name: "zero values", verify: Verify, pk: &PublicKey{}, sig: &Signature{}, msg: msg, want: false},
		{name: "zero values pop", verify: VerifyProofOfPossession, pk: &PublicKey{}, sig: &Signature{}, msg: msg, want: false},
		{name: "nil key", verify: Verify, pk: nil, sig: sig, msg: msg, want: false},
		{name: "nil signature", verify: Verify, pk: pk, sig: nil, msg: msg, want: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tt.want, tt.verify(tt.pk, tt.sig, tt.msg))
		})
	}
}

func TestSigningIsDeterministic(t *testing.T) {
	t.Parallel()
	sk, err := NewSecretKey()
	require.NoError(t, err)
	msg := []byte{1, 2, 3}
	require.Equal(t, sk.Sign(msg).Compress(), sk.Sign(msg).Compress())
	require.Equal(t, NewProofOfPossession(sk), NewProofOfPossession(sk))
}

func TestSecretKeyFromBytesErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   []byte
	}{
		{name: "empty", in: nil},
		{name: "31 bytes", in: bytes.Repeat([]byte{1}, 31)},
		{name: "33 bytes", in: bytes.Repeat([]byte{1}, 33)},
		{name: "zero", in: make([]byte, 32)},
		{name: "above the group order", in: bytes.Repeat([]byte{0xff}, 32)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := SecretKeyFromBytes(tt.in)
			require.ErrorIs(t, err, ErrInvalidSecretKey)
		})
	}
}

func TestPublicKeyAndSignatureParseErrors(t *testing.T) {
	t.Parallel()
	sk, err := NewSecretKey()
	require.NoError(t, err)
	pk := sk.PublicKey().Compress()
	sig := sk.Sign(nil).Compress()

	infinityPK := make([]byte, PublicKeyLen)
	infinityPK[0] = 0xc0
	infinitySig := make([]byte, SignatureLen)
	infinitySig[0] = 0xc0
	// Flipping the compression flag makes bytes that are not a compressed point.
	uncompressedFlag := bytes.Clone(pk)
	uncompressedFlag[0] &^= 0x80

	pkTests := []struct {
		name string
		in   []byte
	}{
		{name: "empty", in: nil},
		{name: "short", in: pk[:47]},
		{name: "long", in: append(bytes.Clone(pk), 0)},
		{name: "infinity", in: infinityPK},
		{name: "zeros", in: make([]byte, PublicKeyLen)},
		{name: "not compressed", in: uncompressedFlag},
		{name: "x not on curve", in: append([]byte{0x9f}, bytes.Repeat([]byte{0xff}, 47)...)},
	}
	for _, tt := range pkTests {
		t.Run("public key/"+tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := PublicKeyFromCompressedBytes(tt.in)
			require.ErrorIs(t, err, ErrInvalidPublicKey)
		})
	}

	_, err = PublicKeyFromBytes(pk)
	require.ErrorIs(t, err, ErrInvalidPublicKey)
	_, err = PublicKeyFromBytes(make([]byte, UncompressedPublicKeyLen))
	require.ErrorIs(t, err, ErrInvalidPublicKey)

	sigTests := []struct {
		name string
		in   []byte
	}{
		{name: "empty", in: nil},
		{name: "short", in: sig[:95]},
		{name: "zeros", in: make([]byte, SignatureLen)},
		{name: "public key", in: pk},
		{name: "garbage", in: bytes.Repeat([]byte{0xaa}, SignatureLen)},
	}
	for _, tt := range sigTests {
		t.Run("signature/"+tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := SignatureFromBytes(tt.in)
			require.ErrorIs(t, err, ErrInvalidSignature)
		})
	}
	// The identity is in the subgroup; it parses but never verifies.
	inf, err := SignatureFromBytes(infinitySig)
	require.NoError(t, err)
	require.False(t, Verify(sk.PublicKey(), inf, nil))
}

func TestAggregate(t *testing.T) {
	t.Parallel()
	msg := []byte("signed by three")
	var pks []*PublicKey
	var sigs []*Signature
	for range 3 {
		sk, err := NewSecretKey()
		require.NoError(t, err)
		pks = append(pks, sk.PublicKey())
		sigs = append(sigs, sk.Sign(msg))
	}
	aggPK, err := AggregatePublicKeys(pks)
	require.NoError(t, err)
	aggSig, err := AggregateSignatures(sigs)
	require.NoError(t, err)
	require.True(t, Verify(aggPK, aggSig, msg))

	partialPK, err := AggregatePublicKeys(pks[:2])
	require.NoError(t, err)
	require.False(t, Verify(partialPK, aggSig, msg))

	single, err := AggregatePublicKeys(pks[:1])
	require.NoError(t, err)
	require.True(t, single.Equal(pks[0]))

	_, err = AggregatePublicKeys(nil)
	require.ErrorIs(t, err, ErrNoPublicKeys)
	_, err = AggregateSignatures(nil)
	require.ErrorIs(t, err, ErrNoSignatures)
}

func FuzzPublicKeyFromCompressedBytes(f *testing.F) {
	for _, pop := range genesisSigners(f) {
		f.Add(pop.PublicKey[:])
	}
	f.Add(make([]byte, PublicKeyLen))
	f.Fuzz(func(t *testing.T, b []byte) {
		pk, err := PublicKeyFromCompressedBytes(b)
		if err != nil {
			return
		}
		require.Equal(t, b, pk.Compress())
		back, err := PublicKeyFromBytes(pk.Bytes())
		require.NoError(t, err)
		require.True(t, pk.Equal(back))
	})
}

func FuzzPublicKeyFromBytes(f *testing.F) {
	f.Add(make([]byte, UncompressedPublicKeyLen))
	raw, err := hex.DecodeString("100c9b119b5c82d781d4b49be78c3fc7ae65f2b435b7ed9e3a8b9a03e475edff86d8a64827fec8db23a6f236afbf127d0a4e3d30c04795ab062cd8e7f6acde3167f3fe4701dcaa59445f07546d7c973b1ed8f7124cd9d45642ab365b54ec3c76")
	require.NoError(f, err)
	f.Add(raw)
	f.Fuzz(func(t *testing.T, b []byte) {
		pk, err := PublicKeyFromBytes(b)
		if err != nil {
			return
		}
		require.Equal(t, b, pk.Bytes())
	})
}

func FuzzSignatureFromBytes(f *testing.F) {
	for _, pop := range genesisSigners(f) {
		f.Add(pop.ProofOfPossession[:])
	}
	f.Add(make([]byte, SignatureLen))
	f.Fuzz(func(t *testing.T, b []byte) {
		sig, err := SignatureFromBytes(b)
		if err != nil {
			return
		}
		require.Equal(t, b, sig.Compress())
	})
}

func FuzzSecretKeyFromBytes(f *testing.F) {
	f.Add([]byte("AvalancheLocalNetworkValidator01"))
	f.Add(make([]byte, SecretKeyLen))
	f.Fuzz(func(t *testing.T, b []byte) {
		sk, err := SecretKeyFromBytes(b)
		if err != nil {
			return
		}
		require.Equal(t, b, sk.Bytes())
	})
}

func BenchmarkSign(b *testing.B) {
	sk, err := NewSecretKey()
	require.NoError(b, err)
	msg := make([]byte, 256)
	b.ReportAllocs()
	for b.Loop() {
		sk.Sign(msg)
	}
}

func BenchmarkVerify(b *testing.B) {
	sk, err := NewSecretKey()
	require.NoError(b, err)
	msg := make([]byte, 256)
	pk, sig := sk.PublicKey(), sk.Sign(msg)
	b.ReportAllocs()
	for b.Loop() {
		if !Verify(pk, sig, msg) {
			b.Fatal("signature did not verify")
		}
	}
}
