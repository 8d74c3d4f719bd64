package txs

import "github.com/cornice-node/cornice/codec"

// BLS sizes on the wire (§1.1): a compressed public key and a signature. They equal the constants
// of crypto/bls, which this format package does not import.
const (
	BLSPublicKeyLen = 48
	BLSSignatureLen = 96
)

// Signer is a permissionless validator's BLS signer: *EmptySigner or *ProofOfPossession. The set
// is closed.
type Signer interface {
	codec.Marshaler
	isSigner()
}

// EmptySigner means no BLS key (type ID 27); its encoding is the type ID alone.
type EmptySigner struct{}

// Marshal writes nothing: the signer has no fields.
func (*EmptySigner) Marshal(*codec.Packer) {}

// Unmarshal reads nothing: the signer has no fields.
func (*EmptySigner) Unmarshal(*codec.Unpacker) {}

func (*EmptySigner) isSigner() {}

// ProofOfPossession is a BLS public key and its proof of possession (type ID 28 as a Signer). In
// ConvertSubnetToL1Tx it appears inline, without a type ID (§4.3).
type ProofOfPossession struct {
	// PublicKey is the compressed public key.
	PublicKey [BLSPublicKeyLen]byte
	// Signature is the BLS signature of PublicKey under the proof-of-possession ciphersuite.
	Signature [BLSSignatureLen]byte
}

// Marshal writes the public key, then the signature.
func (s *ProofOfPossession) Marshal(p *codec.Packer) {
	p.Fixed(s.PublicKey[:])
	p.Fixed(s.Signature[:])
}

// Unmarshal reads the fields written by Marshal.
func (s *ProofOfPossession) Unmarshal(u *codec.Unpacker) {
	u.Fixed(s.PublicKey[:])
	u.Fixed(s.Signature[:])
}

func (*ProofOfPossession) isSigner() {}
