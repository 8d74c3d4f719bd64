package staking

import (
	"errors"
	"fmt"
)

// Errors of certificate acceptance (node-api.md §4.2). The reference node's texts are not part of
// its API; these follow its wording.
var (
	// ErrCertificateTooLarge is returned for a certificate of more than MaxCertificateLen DER bytes.
	ErrCertificateTooLarge = fmt.Errorf("staking: certificate length is greater than %d", MaxCertificateLen)
	// ErrMalformedCertificate is returned for bytes that are not a parsable X.509 certificate.
	ErrMalformedCertificate = errors.New("staking: malformed certificate")
	// ErrUnsupportedRSAModulusBitLen is returned for an RSA key whose modulus is not 2048 or 4096 bits.
	ErrUnsupportedRSAModulusBitLen = errors.New("staking: unsupported RSA modulus bitlen")
	// ErrRSAModulusIsEven is returned for an RSA key with an even modulus.
	ErrRSAModulusIsEven = errors.New("staking: RSA modulus is an even number")
	// ErrUnsupportedRSAPublicExponent is returned for an RSA key whose exponent is not 65537.
	ErrUnsupportedRSAPublicExponent = errors.New("staking: unsupported RSA public exponent")
	// ErrUnsupportedCurve is returned for an ECDSA key on a curve other than P-256.
	ErrUnsupportedCurve = errors.New("staking: unsupported elliptic curve")
	// ErrUnknownPublicKeyAlgorithm is returned for a key that is neither RSA nor ECDSA.
	ErrUnknownPublicKeyAlgorithm = errors.New("staking: unknown public key algorithm")
	// ErrInvalidSignature is returned by CheckSignature when the signature does not verify.
	ErrInvalidSignature = errors.New("staking: invalid signature")
)

// missingKeyError reports a staking key file that does not exist: "couldn't find staking key at
// <path>" (node-api.md §4.2).
func missingKeyError(path string) error {
	return fmt.Errorf("couldn't find staking key at %s", path)
}

// missingCertError reports a staking certificate file that does not exist: "couldn't find staking
// certificate at <path>" (node-api.md §4.2).
func missingCertError(path string) error {
	return fmt.Errorf("couldn't find staking certificate at %s", path)
}
