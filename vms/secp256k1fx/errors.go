package secp256k1fx

import "errors"

// Syntactic errors of the secp256k1fx types (reference/platform-exchange.md §3.1). The reference
// documents the rules but not these texts; they are worded after the reference node's
// vms/secp256k1fx and no golden test pins them yet.
var (
	// ErrWrongSig refuses a signature that does not recover to the owner's address.
	ErrWrongSig = errors.New("wrong signature")
	// ErrMutatedSig refuses a signature with a high S or a recovery flag other than 0 or 1 (§3.2).
	ErrMutatedSig = errors.New("signature was mutated from its original format")
	// ErrNilOutput is returned for a missing output or owners.
	ErrNilOutput = errors.New("nil output")
	// ErrOutputUnspendable is returned when the threshold exceeds the number of addresses.
	ErrOutputUnspendable = errors.New("output is unspendable")
	// ErrOutputUnoptimized is returned for a zero threshold with addresses.
	ErrOutputUnoptimized = errors.New("output representation should be optimized")
	// ErrAddrsNotSortedUnique is returned when addresses are not strictly increasing.
	ErrAddrsNotSortedUnique = errors.New("addresses not sorted and unique")
	// ErrNoValueOutput is returned for a TransferOutput of amount 0.
	ErrNoValueOutput = errors.New("output has no value")
	// ErrNoValueInput is returned for a TransferInput of amount 0.
	ErrNoValueInput = errors.New("input has no value")
	// ErrInputIndicesNotSortedUnique is returned when signature indices are not strictly increasing.
	ErrInputIndicesNotSortedUnique = errors.New("address indices not sorted and unique")
)
