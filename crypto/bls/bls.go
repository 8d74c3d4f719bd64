package bls

import (
	"crypto/rand"
	"fmt"

	blst "github.com/supranational/blst/bindings/go"
)

// Sizes of the serialised forms.
const (
	SecretKeyLen             = 32
	PublicKeyLen             = 48
	UncompressedPublicKeyLen = 96
	SignatureLen             = 96
)

// Domain separation tags (node-api.md §4.3).
var (
	signatureDST         = []byte("BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_")
	proofOfPossessionDST = []byte("BLS_POP_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_")
)

// SecretKey is a BLS secret scalar.
type SecretKey struct {
	sk *blst.SecretKey
}

// PublicKey is a BLS public key, a G1 point that is valid and not the identity.
type PublicKey struct {
	p blst.P1Affine
}

// Signature is a BLS signature, a G2 point in the prime-order subgroup.
type Signature struct {
	p blst.P2Affine
}

// NewSecretKey generates a secret key from 32 random bytes of input key material through blst's
// KeyGen (IETF BLS KeyGen, HKDF-SHA-256), as the reference node does.
func NewSecretKey() (*SecretKey, error) {
	var ikm [32]byte
	if _, err := rand.Read(ikm[:]); err != nil {
		return nil, fmt.Errorf("read key material: %w", err)
	}
	sk := blst.KeyGen(ikm[:])
	clear(ikm[:])
	if sk == nil {
		// KeyGen only refuses key material shorter than 32 bytes.
		panic("bls: KeyGen refused 32 bytes of key material")
	}
	return &SecretKey{sk: sk}, nil
}

// SecretKeyFromBytes parses a 32-byte big-endian scalar. It fails with ErrInvalidSecretKey for any
// other length, zero, or a value not below the group order.
func SecretKeyFromBytes(b []byte) (*SecretKey, error) {
	if len(b) != SecretKeyLen {
		return nil, fmt.Errorf("%w: expected %d bytes but got %d", ErrInvalidSecretKey, SecretKeyLen, len(b))
	}
	sk := new(blst.SecretKey).Deserialize(b)
	if sk == nil || !sk.Valid() {
		return nil, ErrInvalidSecretKey
	}
	return &SecretKey{sk: sk}, nil
}

// Bytes returns the secret key as a 32-byte big-endian scalar, the form of a signer.key file.
func (sk *SecretKey) Bytes() []byte {
	return sk.sk.Serialize()
}

// PublicKey returns the public key of sk.
func (sk *SecretKey) PublicKey() *PublicKey {
	pk := new(PublicKey)
	pk.p.From(sk.sk)
	return pk
}

// Sign signs msg with the signature tag.
func (sk *SecretKey) Sign(msg []byte) *Signature {
	sig := new(Signature)
	sig.p.Sign(sk.sk, msg, signatureDST)
	return sig
}

// SignProofOfPossession signs msg with the proof-of-possession tag. A proof of possession signs the
// 48-byte compressed public key; see NewProofOfPossession.
func (sk *SecretKey) SignProofOfPossession(msg []byte) *Signature {
	sig := new(Signature)
	sig.p.Sign(sk.sk, msg, proofOfPossessionDST)
	return sig
}

// PublicKeyFromCompressedBytes parses a 48-byte compressed public key and validates it (on the
// curve, in the subgroup, not the identity).
func PublicKeyFromCompressedBytes(b []byte) (*PublicKey, error) {
	if len(b) != PublicKeyLen {
		return nil, fmt.Errorf("%w: expected %d bytes but got %d", ErrInvalidPublicKey, PublicKeyLen, len(b))
	}
	pk := new(PublicKey)
	if pk.p.Uncompress(b) == nil || !pk.p.KeyValidate() {
		return nil, ErrInvalidPublicKey
	}
	return pk, nil
}

// PublicKeyFromBytes parses a 96-byte uncompressed public key, the form the P-Chain stores for L1
// validators and sorts warp validator sets by, and validates it.
func PublicKeyFromBytes(b []byte) (*PublicKey, error) {
	if len(b) != UncompressedPublicKeyLen {
		return nil, fmt.Errorf("%w: expected %d bytes but got %d", ErrInvalidPublicKey, UncompressedPublicKeyLen, len(b))
	}
	pk := new(PublicKey)
	if pk.p.Deserialize(b) == nil || !pk.p.KeyValidate() {
		return nil, ErrInvalidPublicKey
	}
	return pk, nil
}

// Compress returns the 48-byte compressed form of the public key.
func (pk *PublicKey) Compress() []byte {
	return pk.p.Compress()
}

// Bytes returns the 96-byte uncompressed form of the public key.
func (pk *PublicKey) Bytes() []byte {
	return pk.p.Serialize()
}

// Equal reports whether pk and other are the same key.
func (pk *PublicKey) Equal(other *PublicKey) bool {
	return pk.p.Equals(&other.p)
}

// SignatureFromBytes parses a 96-byte compressed signature and checks that it is in the G2 subgroup.
func SignatureFromBytes(b []byte) (*Signature, error) {
	if len(b) != SignatureLen {
		return nil, fmt.Errorf("%w: expected %d bytes but got %d", ErrInvalidSignature, SignatureLen, len(b))
	}
	sig := new(Signature)
	if sig.p.Uncompress(b) == nil || !sig.p.SigValidate(false) {
		return nil, ErrInvalidSignature
	}
	return sig, nil
}

// Compress returns the 96-byte compressed form of the signature.
func (sig *Signature) Compress() []byte {
	return sig.p.Compress()
}

// Verify reports whether sig is pk's signature of msg under the signature tag.
func Verify(pk *PublicKey, sig *Signature, msg []byte) bool {
	return verify(pk, sig, msg, signatureDST)
}

// VerifyProofOfPossession reports whether sig is pk's signature of msg under the proof-of-possession
// tag.
func VerifyProofOfPossession(pk *PublicKey, sig *Signature, msg []byte) bool {
	return verify(pk, sig, msg, proofOfPossessionDST)
}

// verify key-validates pk and group-checks sig before the pairing check. The constructors have
// validated both already, but a zero PublicKey and a zero Signature are both the identity, which
// would satisfy the pairing equation for any message.
func verify(pk *PublicKey, sig *Signature, msg, dst []byte) bool {
	if pk == nil || sig == nil {
		return false
	}
	return sig.p.Verify(true, &pk.p, true, msg, dst)
}

// AggregatePublicKeys returns the sum of pks, for checking an aggregate signature of one message.
func AggregatePublicKeys(pks []*PublicKey) (*PublicKey, error) {
	if len(pks) == 0 {
		return nil, ErrNoPublicKeys
	}
	points := make([]*blst.P1Affine, len(pks))
	for i, pk := range pks {
		points[i] = &pk.p
	}
	var agg blst.P1Aggregate
	if !agg.Aggregate(points, false) {
		return nil, ErrInvalidPublicKey
	}
	return &PublicKey{p: *agg.ToAffine()}, nil
}

// AggregateSignatures returns the sum of sigs.
func AggregateSignatures(sigs []*Signature) (*Signature, error) {
	if len(sigs) == 0 {
		return nil, ErrNoSignatures
	}
	points := make([]*blst.P2Affine, len(sigs))
	for i, sig := range sigs {
		points[i] = &sig.p
	}
	var agg blst.P2Aggregate
	if !agg.Aggregate(points, false) {
		return nil, ErrInvalidSignature
	}
	return &Signature{p: *agg.ToAffine()}, nil
}
