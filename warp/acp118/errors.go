package acp118

import (
	"errors"
	"fmt"
)

// The SDK's error codes of an AppError (network/p2p/error.go).
const (
	// CodeUnexpected is an error of no other kind: a verifier's failure to read its state, or a
	// request that does not parse.
	CodeUnexpected int32 = -1
	// CodeUnregisteredHandler answers a request for a handler ID nobody serves.
	CodeUnregisteredHandler int32 = -2
	// CodeNotValidator answers a request to a node that does not sign for that chain.
	CodeNotValidator int32 = -3
	// CodeThrottled answers a request over the sender's rate.
	CodeThrottled int32 = -4
)

// Error is a refusal as an AppError carries it: a code (the SDK's, negative, or a verifier's own,
// positive) and a message.
type Error struct {
	Code    int32
	Message string
}

func (e *Error) Error() string { return e.Message }

// asError returns err as an *Error: its own when it is one, else CodeUnexpected with its text.
func asError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return &Error{Code: CodeUnexpected, Message: err.Error()}
}

var (
	// ErrParse is wrapped by the parsers for bytes that are not the message asked for.
	ErrParse = errors.New("acp118: malformed message")
	// ErrNotEnoughSignatures is returned by Aggregate when the validators that signed hold less
	// than the quorum; the text is the reference aggregator's.
	ErrNotEnoughSignatures = errors.New("failed to collect a threshold of signatures")
	// ErrNoValidators is returned by Aggregate and Gather for a subnet without validators with a
	// BLS key; the text is Subnet-EVM's warp API's.
	ErrNoValidators = errors.New("cannot aggregate signatures from subnet with no validators")
	// ErrInvalidQuorum refuses a quorum percentage outside 1–100.
	ErrInvalidQuorum = errors.New("invalid quorum percentage")
)

func parseError(what string, err error) error {
	return fmt.Errorf("%w: %s: %w", ErrParse, what, err)
}
