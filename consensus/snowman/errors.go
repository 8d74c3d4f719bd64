package snowman

import "errors"

// ErrParametersInvalid is wrapped by every error of Parameters.Verify. The full texts are the
// reference's, for example `parameters invalid: k = 20, alphaPreference = 10: fails the
// condition that: k/2 < alphaPreference` (snow/consensus/snowball/parameters.go; §2.1).
var ErrParametersInvalid = errors.New("parameters invalid")

// The conditions of Parameters.Verify; their texts are the reference's.
var (
	errAlphaPreferenceNotAboveHalfK        = errors.New("fails the condition that: k/2 < alphaPreference")
	errAlphaConfidenceBelowAlphaPreference = errors.New("fails the condition that: alphaPreference <= alphaConfidence")
	errAlphaConfidenceAboveK               = errors.New("fails the condition that: alphaConfidence <= k")
	errConcurrentRepollsNotPositive        = errors.New("fails the condition that: 0 < concurrentRepolls")
	errConcurrentRepollsAboveBeta          = errors.New("fails the condition that: concurrentRepolls <= beta")
	errOptimalProcessingNotPositive        = errors.New("fails the condition that: 0 < optimalProcessing")
	errMaxOutstandingItemsNotPositive      = errors.New("fails the condition that: 0 < maxOutstandingItems")
	errMaxItemProcessingTimeNotPositive    = errors.New("fails the condition that: 0 < maxItemProcessingTime")
)

// Errors of Add, RecordPoll and Polls.Add. ErrDuplicateAdd and ErrUnknownParent have the reference's texts
// (snow/consensus/snowman/topological.go); the others are cornice's own.
var (
	// ErrDuplicateAdd refuses a block that is processing or is the last accepted block.
	ErrDuplicateAdd = errors.New("duplicate block add")
	// ErrUnknownParent refuses a block whose parent is neither processing nor the last accepted
	// block: the engine must fetch the parent first, or drop the block if the parent was
	// rejected.
	ErrUnknownParent = errors.New("unknown parent block")
	// ErrDecidedHeight refuses a block at or below the last accepted height: it is decided
	// already (accepted, or rejected as a sibling of an accepted block).
	ErrDecidedHeight = errors.New("block height is at or below the last accepted height")
	// ErrHeight refuses a block whose height is not its parent's plus one.
	ErrHeight = errors.New("block height is not its parent's height plus one")
	// ErrTooManyVotes refuses a poll with more votes than K: a poll samples K stake units, and
	// each answers once.
	ErrTooManyVotes = errors.New("more votes than the sample size")
	// ErrDuplicatePoll refuses a poll under a request ID that a poll in flight has.
	ErrDuplicatePoll = errors.New("request ID of a poll in flight")
)
