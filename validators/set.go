package validators

import (
	"maps"
	"math/bits"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/cornice-node/cornice/ids"
)

// Validator is one member of a subnet's validator set.
type Validator struct {
	NodeID ids.NodeID
	Weight uint64
}

// Set holds the validators of every subnet with their weights. The zero value is not usable; call
// New.
type Set struct {
	mu sync.RWMutex
	// subnets maps a subnet ID to its validators.
	// Invariant: no subnet in the map is empty, and no validator in it has weight 0.
	subnets map[ids.ID]*subnet
	// version counts the changes, for Version.
	version atomic.Uint64
}

// subnet is the validator set of one subnet.
type subnet struct {
	weights map[ids.NodeID]uint64
	// Invariant: total == the sum of weights, which never overflows.
	total uint64
}

// New returns an empty Set.
func New() *Set {
	return &Set{subnets: make(map[ids.ID]*subnet)}
}

// Add adds weight to nodeID's weight on subnetID, making nodeID a validator of the subnet if it
// was not one. It fails with ErrZeroWeight for a weight of 0 and with ErrWeightOverflow if the
// validator's weight or the subnet's total weight would overflow; on failure nothing changes.
func (s *Set) Add(subnetID ids.ID, nodeID ids.NodeID, weight uint64) error {
	if weight == 0 {
		return ErrZeroWeight
	}
	s.mu.Lock()
	defer s.mu.Unlock()

	sn := s.subnets[subnetID]
	if sn == nil {
		sn = &subnet{weights: make(map[ids.NodeID]uint64)}
	}
	// The node's weight is part of the total, so a total that does not overflow guarantees the
	// node's weight does not either.
	total, carry := bits.Add64(sn.total, weight, 0)
	if carry != 0 {
		return overflowError(subnetID, nodeID, weight)
	}
	sn.total = total
	sn.weights[nodeID] += weight
	s.subnets[subnetID] = sn
	s.version.Add(1)
	return nil
}

// RemoveWeight takes weight from nodeID's weight on subnetID. A validator whose weight reaches 0
// leaves the set. It fails with ErrZeroWeight for a weight of 0, ErrNotValidator if nodeID does not
// validate the subnet, and ErrInsufficientWeight if it holds less than weight; on failure nothing
// changes.
func (s *Set) RemoveWeight(subnetID ids.ID, nodeID ids.NodeID, weight uint64) error {
	if weight == 0 {
		return ErrZeroWeight
	}
	s.mu.Lock()
	defer s.mu.Unlock()

	sn := s.subnets[subnetID]
	if sn == nil {
		return notValidatorError(subnetID, nodeID)
	}
	have, ok := sn.weights[nodeID]
	if !ok {
		return notValidatorError(subnetID, nodeID)
	}
	if have < weight {
		return insufficientWeightError(subnetID, nodeID, have, weight)
	}
	s.setWeightLocked(subnetID, sn, nodeID, have-weight)
	return nil
}

// Remove takes nodeID out of subnetID's validator set, whatever its weight. It fails with
// ErrNotValidator if nodeID does not validate the subnet.
func (s *Set) Remove(subnetID ids.ID, nodeID ids.NodeID) error {
	s.mu.Lock()
	defer s.mu.Unlock()

	sn := s.subnets[subnetID]
	if sn == nil {
		return notValidatorError(subnetID, nodeID)
	}
	if _, ok := sn.weights[nodeID]; !ok {
		return notValidatorError(subnetID, nodeID)
	}
	s.setWeightLocked(subnetID, sn, nodeID, 0)
	return nil
}

// setWeightLocked lowers nodeID's weight in sn to weight, removing the validator at 0 and the subnet
// when it becomes empty. Assumes s.mu is held for writing and weight <= the current weight.
func (s *Set) setWeightLocked(subnetID ids.ID, sn *subnet, nodeID ids.NodeID, weight uint64) {
	s.version.Add(1)
	sn.total -= sn.weights[nodeID] - weight
	if weight > 0 {
		sn.weights[nodeID] = weight
		return
	}
	delete(sn.weights, nodeID)
	if len(sn.weights) == 0 {
		delete(s.subnets, subnetID)
	}
}

// Version returns a number that changes whenever a validator set changes (any subnet's), and
// only then: what a reader derived from the sets is current while Version is what it was before
// the reader looked (node's chain weights for the router cache so). It takes no lock.
func (s *Set) Version() uint64 { return s.version.Load() }

// GetWeight returns nodeID's weight on subnetID, 0 if it is not a validator of the subnet.
func (s *Set) GetWeight(subnetID ids.ID, nodeID ids.NodeID) uint64 {
	s.mu.RLock()
	defer s.mu.RUnlock()

	if sn := s.subnets[subnetID]; sn != nil {
		return sn.weights[nodeID]
	}
	return 0
}

// TotalWeight returns the sum of the weights of subnetID's validators, 0 for a subnet without
// validators. The error is always nil for a Set, whose totals cannot overflow; the signature is the
// one api/info declares, so that implementations reading weights from disk can report failures.
func (s *Set) TotalWeight(subnetID ids.ID) (uint64, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()

	if sn := s.subnets[subnetID]; sn != nil {
		return sn.total, nil
	}
	return 0, nil
}

// Len returns the number of validators of subnetID.
func (s *Set) Len(subnetID ids.ID) int {
	s.mu.RLock()
	defer s.mu.RUnlock()

	if sn := s.subnets[subnetID]; sn != nil {
		return len(sn.weights)
	}
	return 0
}

// List returns subnetID's validators sorted by NodeID bytes; it is empty, not nil, for a subnet
// without validators. The slice belongs to the caller.
func (s *Set) List(subnetID ids.ID) []Validator {
	s.mu.RLock()
	sn := s.subnets[subnetID]
	var out []Validator
	if sn != nil {
		out = make([]Validator, 0, len(sn.weights))
		for nodeID, w := range sn.weights {
			out = append(out, Validator{NodeID: nodeID, Weight: w})
		}
	}
	s.mu.RUnlock()

	if out == nil {
		return []Validator{}
	}
	slices.SortFunc(out, func(a, b Validator) int { return a.NodeID.Compare(b.NodeID) })
	return out
}

// Weights returns subnetID's validators and their weights, for sampling (snowman.Validators);
// the map belongs to the caller. The error is always nil for a Set.
func (s *Set) Weights(subnetID ids.ID) (map[ids.NodeID]uint64, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()

	out := make(map[ids.NodeID]uint64)
	if sn := s.subnets[subnetID]; sn != nil {
		maps.Copy(out, sn.weights)
	}
	return out, nil
}
