package bls

import (
	"encoding/json"
	"fmt"

	"github.com/cornice-node/cornice/ids"
)

// ProofOfPossession is a BLS public key with the proof that its owner holds the secret key: the
// key's signature, under the proof-of-possession tag, of its own 48-byte compressed form
// (node-api.md §4.3). Its JSON form is {"publicKey":"0x…","proofOfPossession":"0x…"} in lower-case
// hex without a checksum.
type ProofOfPossession struct {
	PublicKey         [PublicKeyLen]byte
	ProofOfPossession [SignatureLen]byte
}

// NewProofOfPossession returns sk's proof of possession. It is deterministic.
func NewProofOfPossession(sk *SecretKey) *ProofOfPossession {
	pk := sk.PublicKey().Compress()
	pop := &ProofOfPossession{PublicKey: [PublicKeyLen]byte(pk)}
	copy(pop.ProofOfPossession[:], sk.SignProofOfPossession(pk).Compress())
	return pop
}

// Verify checks that the public key is valid, that the proof is a signature in the G2 subgroup, and
// that it signs the public key's bytes. It returns an error wrapping ErrInvalidPublicKey,
// ErrInvalidSignature or ErrInvalidProofOfPossession.
func (p *ProofOfPossession) Verify() error {
	pk, err := PublicKeyFromCompressedBytes(p.PublicKey[:])
	if err != nil {
		return err
	}
	sig, err := SignatureFromBytes(p.ProofOfPossession[:])
	if err != nil {
		return err
	}
	if !VerifyProofOfPossession(pk, sig, p.PublicKey[:]) {
		return ErrInvalidProofOfPossession
	}
	return nil
}

// popJSON is the wire form of a ProofOfPossession.
type popJSON struct {
	PublicKey         string `json:"publicKey"`
	ProofOfPossession string `json:"proofOfPossession"`
}

// MarshalJSON returns {"publicKey":"0x<96 hex>","proofOfPossession":"0x<192 hex>"}.
func (p ProofOfPossession) MarshalJSON() ([]byte, error) {
	pk, err := ids.HexNC.Encode(p.PublicKey[:])
	if err != nil {
		return nil, err
	}
	sig, err := ids.HexNC.Encode(p.ProofOfPossession[:])
	if err != nil {
		return nil, err
	}
	return json.Marshal(popJSON{PublicKey: pk, ProofOfPossession: sig})
}

// UnmarshalJSON parses the form MarshalJSON writes. Both fields need the lower-case "0x" prefix and
// exactly 48 and 96 bytes; the public key must be a valid key, as in the reference node. The proof
// itself is only checked by Verify. JSON null leaves p unchanged.
func (p *ProofOfPossession) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil
	}
	var j popJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	pk, err := ids.HexNC.Decode(j.PublicKey)
	if err != nil {
		return fmt.Errorf("decode publicKey: %w", err)
	}
	if _, err := PublicKeyFromCompressedBytes(pk); err != nil {
		return fmt.Errorf("decode publicKey: %w", err)
	}
	sig, err := ids.HexNC.Decode(j.ProofOfPossession)
	if err != nil {
		return fmt.Errorf("decode proofOfPossession: %w", err)
	}
	if len(sig) != SignatureLen {
		return fmt.Errorf("decode proofOfPossession: %w: expected %d bytes but got %d", ErrInvalidSignature, SignatureLen, len(sig))
	}
	p.PublicKey = [PublicKeyLen]byte(pk)
	p.ProofOfPossession = [SignatureLen]byte(sig)
	return nil
}
