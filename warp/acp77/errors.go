package acp77

import "errors"

// Errors of Verify, with the reference's texts (platform-exchange.md §4.4).
var (
	// ErrInvalidSubnetID is returned for a registration on the Primary Network.
	ErrInvalidSubnetID = errors.New("invalid subnetID")
	// ErrInvalidWeight is returned for a registration of weight 0.
	ErrInvalidWeight = errors.New("invalid weight")
	// ErrInvalidNodeID is returned for a registration with an empty node ID.
	ErrInvalidNodeID = errors.New("invalid nodeID")
	// ErrNonceReservedForRemoval is returned for nonce 2⁶⁴−1 with a weight other than 0.
	ErrNonceReservedForRemoval = errors.New("maxUint64 nonce is reserved for removal")
	// ErrWrongType is returned when a message is not of the kind asked for.
	ErrWrongType = errors.New("wrong message type")
)
