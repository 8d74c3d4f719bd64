package warp

import (
	"errors"
	"fmt"
)

// Errors of verification, with the reference's texts (network-consensus-warp.md §4.2,
// platform-exchange.md §0.9 and §4.4). Callers that answer a client (the P-Chain's tx
// verification, the EVM's predicates) pass them on unchanged.
var (
	// ErrWrongNetworkID is returned for a message of another network.
	ErrWrongNetworkID = errors.New("wrong networkID")
	// ErrInvalidBitSet is returned for a signer bitset that is not minimally encoded (a leading
	// zero byte).
	ErrInvalidBitSet = errors.New("bitset is invalid")
	// ErrUnknownValidator is returned for a signer bit at or past the canonical set's length.
	ErrUnknownValidator = errors.New("unknown validator")
	// ErrInsufficientWeight is returned when the signers' weight is below the quorum.
	ErrInsufficientWeight = errors.New("signature weight is insufficient")
	// ErrWeightOverflow is returned when a sum of weights exceeds 2⁶⁴−1.
	ErrWeightOverflow = errors.New("weight overflowed")
	// ErrParseSignature is returned for signature bytes that are not a G2 point.
	ErrParseSignature = errors.New("failed to parse signature")
	// ErrInvalidSignature is returned when the aggregate signature does not verify.
	ErrInvalidSignature = errors.New("signature is invalid")
	// ErrNoSigners is returned when aggregating no signatures.
	ErrNoSigners = errors.New("no signers")
	// ErrWrongSourceChainID is returned when a signer is asked to sign a message of another chain.
	ErrWrongSourceChainID = errors.New("wrong SourceChainID")
	// ErrInvalidQuorum is returned for a quorum fraction that is not 0 < num ≤ den.
	ErrInvalidQuorum = errors.New("invalid quorum")
	// ErrUnknownSignatureType is returned for a signature type ID other than 0 (BitSetSignature).
	ErrUnknownSignatureType = errors.New("unknown signature type")
)

// CodeInsufficientWeight is the "code" of the error reply of POST /ext/aggregate-signatures
// (api/sigagg) when the validators that signed hold less than the quorum: a client waiting for
// validators to accept what it asks them to sign retries on it, without matching the text. It
// lies in JSON-RPC's range for server errors, apart from the node's -32000 and -32003; the
// reference aggregator sends no code.
const CodeInsufficientWeight = -32010

// unknownValidatorError is the reference's text for a bit past the set: the highest index
// against the set's length (platform-exchange.md §0.9).
func unknownValidatorError(bitLen, setLen int) error {
	return fmt.Errorf("%w: NumIndices (%d) >= NumFilteredValidators (%d)", ErrUnknownValidator, bitLen-1, setLen)
}

// insufficientWeightError is the reference's text for a missed quorum: num·total > den·signed
// (codec-vectors-2.json, warp_signed_message_bitset_signer1_signer3).
func insufficientWeightError(num, total, den, signed uint64) error {
	return fmt.Errorf("%w: %d*%d > %d*%d", ErrInsufficientWeight, num, total, den, signed)
}
