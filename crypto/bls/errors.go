package bls

import (
	"errors"
	"fmt"
)

// Errors of key, signature and proof-of-possession handling. The reference node's texts are not
// part of its API (node-api.md §4.3), so these are our own.
var (
	// ErrInvalidSecretKey is returned for bytes that are not a 32-byte big-endian scalar in [1, r).
	ErrInvalidSecretKey = errors.New("bls: invalid secret key")
	// ErrInvalidPublicKey is returned for bytes that are not a valid G1 point, or the identity.
	ErrInvalidPublicKey = errors.New("bls: invalid public key")
	// ErrInvalidSignature is returned for bytes that are not a point of the G2 subgroup.
	ErrInvalidSignature = errors.New("bls: invalid signature")
	// ErrInvalidProofOfPossession is returned when a proof of possession does not verify against its key.
	ErrInvalidProofOfPossession = errors.New("bls: invalid proof of possession")
	// ErrNoPublicKeys is returned when aggregating an empty list of public keys.
	ErrNoPublicKeys = errors.New("bls: no public keys to aggregate")
	// ErrNoSignatures is returned when aggregating an empty list of signatures.
	ErrNoSignatures = errors.New("bls: no signatures to aggregate")
)

// readKeyError reports a signer key file that cannot be read: "could not read signing key from
// <path>: <err>" (node-api.md §4.3).
func readKeyError(path string, err error) error {
	return fmt.Errorf("could not read signing key from %s: %w", path, err)
}

// parseKeyError reports a signer key file whose contents are not a secret key.
func parseKeyError(path string, err error) error {
	return fmt.Errorf("could not parse signing key from %s: %w", path, err)
}

// writeKeyError reports a failure to store a newly generated signer key.
func writeKeyError(path string, err error) error {
	return fmt.Errorf("could not write signing key to %s: %w", path, err)
}
