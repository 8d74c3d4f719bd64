package staking

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"fmt"
)

// MaxCertificateLen is the largest certificate, in DER bytes, that a node accepts (node-api.md §4.2).
const MaxCertificateLen = 2048

// Accepted RSA keys (node-api.md §4.2).
const (
	rsaPublicExponent = 65537
	rsaBits2048       = 2048
	rsaBits4096       = 4096
)

// ParseCertificate parses a peer's or the node's own certificate and applies the reference node's
// acceptance rules (node-api.md §4.2): at most 2 KiB of DER, and a public key that is either RSA
// with a 2048- or 4096-bit odd modulus and exponent 65537, or ECDSA on P-256.
//
// Unlike the reference node, which only extracts the public key, the whole certificate must be
// well-formed X.509 as crypto/x509 reads it; certificates made by either node are.
func ParseCertificate(der []byte) (*x509.Certificate, error) {
	if len(der) > MaxCertificateLen {
		return nil, ErrCertificateTooLarge
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrMalformedCertificate, err)
	}
	if err := checkPublicKey(cert.PublicKey); err != nil {
		return nil, err
	}
	return cert, nil
}

// checkPublicKey applies the key rules of ParseCertificate.
func checkPublicKey(pub any) error {
	switch pub := pub.(type) {
	case *rsa.PublicKey:
		if bits := pub.N.BitLen(); bits != rsaBits2048 && bits != rsaBits4096 {
			return fmt.Errorf("%w: %d", ErrUnsupportedRSAModulusBitLen, bits)
		}
		if pub.N.Bit(0) == 0 {
			return ErrRSAModulusIsEven
		}
		if pub.E != rsaPublicExponent {
			return fmt.Errorf("%w: %d", ErrUnsupportedRSAPublicExponent, pub.E)
		}
		return nil
	case *ecdsa.PublicKey:
		if pub.Curve != elliptic.P256() {
			return fmt.Errorf("%w: %s", ErrUnsupportedCurve, pub.Curve.Params().Name)
		}
		return nil
	default:
		return fmt.Errorf("%w: %T", ErrUnknownPublicKeyAlgorithm, pub)
	}
}

// Sign signs SHA-256(msg) with a staking key: RSA PKCS #1 v1.5, or ECDSA with an ASN.1 signature,
// the forms CheckSignature accepts.
func Sign(key crypto.Signer, msg []byte) ([]byte, error) {
	digest := sha256.Sum256(msg)
	sig, err := key.Sign(rand.Reader, digest[:], crypto.SHA256)
	if err != nil {
		return nil, fmt.Errorf("sign with staking key: %w", err)
	}
	return sig, nil
}

// CheckSignature checks that sig is the signature of SHA-256(msg) by cert's key, with RSA PKCS #1
// v1.5 or ECDSA with an ASN.1 signature (node-api.md §4.2). It fails with ErrInvalidSignature or
// ErrUnknownPublicKeyAlgorithm.
func CheckSignature(cert *x509.Certificate, msg, sig []byte) error {
	digest := sha256.Sum256(msg)
	switch pub := cert.PublicKey.(type) {
	case *rsa.PublicKey:
		if err := rsa.VerifyPKCS1v15(pub, crypto.SHA256, digest[:], sig); err != nil {
			return fmt.Errorf("%w: %w", ErrInvalidSignature, err)
		}
		return nil
	case *ecdsa.PublicKey:
		if !ecdsa.VerifyASN1(pub, digest[:], sig) {
			return ErrInvalidSignature
		}
		return nil
	default:
		return fmt.Errorf("%w: %T", ErrUnknownPublicKeyAlgorithm, pub)
	}
}
