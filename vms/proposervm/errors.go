package proposervm

import "errors"

// Errors of parsing and verifying proposervm blocks. Messages follow the reference's where it has
// one.
var (
	// ErrNotProposerBlock is returned by Parse for bytes that are not a proposervm block.
	ErrNotProposerBlock = errors.New("not a proposervm block")
	// ErrOption is returned by Parse for an option block (type 1), which cornice never builds.
	ErrOption = errors.New("proposervm option blocks are not supported")
	// ErrUnexpectedSignature is returned for an unsigned block that carries a signature.
	ErrUnexpectedSignature = errors.New("signature provided when none was expected")
	// ErrUnexpectedProposer is returned for a block signed by another than its slot's proposer,
	// or unsigned while the validator set is not empty, or signed while it is.
	ErrUnexpectedProposer = errors.New("unexpected proposer for current window")
	// ErrTimeNotMonotonic is returned for a block older than its parent.
	ErrTimeNotMonotonic = errors.New("time not monotonically increasing")
	// ErrTimeTooAdvanced is returned for a block more than MaxSkew ahead of the local clock.
	ErrTimeTooAdvanced = errors.New("time too far advanced")
	// ErrBlockDelayTooShort is returned for a block closer to its parent than the minimum delay.
	ErrBlockDelayTooShort = errors.New("block delay too short")
	// ErrPChainHeightNotMonotonic is returned for a P-Chain height below the parent's.
	ErrPChainHeightNotMonotonic = errors.New("non monotonically increasing P-chain height")
	// ErrPChainHeightNotReached is returned for a P-Chain height above this node's P-Chain.
	ErrPChainHeightNotReached = errors.New("block P-chain height larger than current P-chain height")
	// ErrInnerParentMismatch is returned when the wrapped block does not extend the parent's.
	ErrInnerParentMismatch = errors.New("inner parentID didn't match expected parent")
	// ErrEpochMismatch is returned for a Granite block whose epoch is not the one ACP-181 gives.
	ErrEpochMismatch = errors.New("epoch mismatch")
	// ErrPreForkBlock is returned for a bare inner block above the heights accepted before the
	// chain was wrapped.
	ErrPreForkBlock = errors.New("unwrapped block after the chain was wrapped")
)
