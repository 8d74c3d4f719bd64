package validators

import (
	"errors"
	"fmt"

	"github.com/cornice-node/cornice/ids"
)

// Errors of Set. None of them reaches an API client as is; callers wrap them with what they were
// doing.
var (
	// ErrZeroWeight is returned when a weight of zero is added or removed: a validator with no
	// weight is not a validator.
	ErrZeroWeight = errors.New("weight must be non-zero")
	// ErrWeightOverflow is returned when adding a weight would overflow a validator's weight or the
	// subnet's total weight.
	ErrWeightOverflow = errors.New("weight overflows uint64")
	// ErrNotValidator is returned when removing weight from a node that does not validate the subnet.
	ErrNotValidator = errors.New("node is not a validator of the subnet")
	// ErrInsufficientWeight is returned when removing more weight than the validator has.
	ErrInsufficientWeight = errors.New("validator has less weight than removed")
)

// overflowError reports an Add that would overflow.
func overflowError(subnetID ids.ID, nodeID ids.NodeID, weight uint64) error {
	return fmt.Errorf("add weight %d to %s on subnet %s: %w", weight, nodeID, subnetID, ErrWeightOverflow)
}

// notValidatorError reports a removal for a node outside the subnet's set.
func notValidatorError(subnetID ids.ID, nodeID ids.NodeID) error {
	return fmt.Errorf("remove %s from subnet %s: %w", nodeID, subnetID, ErrNotValidator)
}

// insufficientWeightError reports a RemoveWeight of more than the validator has.
func insufficientWeightError(subnetID ids.ID, nodeID ids.NodeID, have, remove uint64) error {
	return fmt.Errorf("remove weight %d from %s on subnet %s holding %d: %w",
		remove, nodeID, subnetID, have, ErrInsufficientWeight)
}
