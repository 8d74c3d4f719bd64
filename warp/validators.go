package warp

import (
	"bytes"
	"context"
	"fmt"
	"math/bits"
	"slices"

	"github.com/cornice-node/cornice/crypto/bls"
	"github.com/cornice-node/cornice/ids"
)

// Validator is one validator of a subnet at a P-Chain height, as the P-Chain reports it.
type Validator struct {
	NodeID ids.NodeID
	Weight uint64
	// PublicKey is the compressed BLS key; nil for a validator without one, whose weight still
	// counts in the total.
	PublicKey *[bls.PublicKeyLen]byte
}

// CanonicalValidator is one entry of a canonical set: every validator sharing one BLS key,
// merged.
type CanonicalValidator struct {
	PublicKey *bls.PublicKey
	// PublicKeyBytes is the 96-byte uncompressed key, the sort key of the set.
	PublicKeyBytes []byte
	Weight         uint64
	NodeIDs        []ids.NodeID
}

// CanonicalSet is the validator list signer bitsets index (network-consensus-warp.md §4.2):
// validators with a BLS key, merged by key, sorted by the uncompressed key bytes.
type CanonicalSet struct {
	Validators []*CanonicalValidator
	// TotalWeight is the weight of every validator, with or without a key.
	TotalWeight uint64
}

// NewCanonicalSet flattens vs as the reference does: the total is the sum of all weights;
// validators without a key are dropped; those sharing a key are merged, weights added; the
// result is sorted by uncompressed key. A sum past 2⁶⁴−1 is ErrWeightOverflow.
func NewCanonicalSet(vs []Validator) (CanonicalSet, error) {
	var set CanonicalSet
	byKey := make(map[[bls.PublicKeyLen]byte]*CanonicalValidator, len(vs))
	for _, v := range vs {
		var carry uint64
		if set.TotalWeight, carry = bits.Add64(set.TotalWeight, v.Weight, 0); carry != 0 {
			return CanonicalSet{}, fmt.Errorf("%w: total weight of the set", ErrWeightOverflow)
		}
		if v.PublicKey == nil {
			continue
		}
		cv, ok := byKey[*v.PublicKey]
		if !ok {
			pk, err := bls.PublicKeyFromCompressedBytes(v.PublicKey[:])
			if err != nil {
				return CanonicalSet{}, fmt.Errorf("key of validator %s: %w", v.NodeID, err)
			}
			cv = &CanonicalValidator{PublicKey: pk, PublicKeyBytes: pk.Bytes()}
			byKey[*v.PublicKey] = cv
			set.Validators = append(set.Validators, cv)
		}
		// Cannot overflow: the total, which includes this weight, did not.
		cv.Weight += v.Weight
		cv.NodeIDs = append(cv.NodeIDs, v.NodeID)
	}
	slices.SortFunc(set.Validators, func(a, b *CanonicalValidator) int {
		return bytes.Compare(a.PublicKeyBytes, b.PublicKeyBytes)
	})
	return set, nil
}

// Index returns the position of the validator with key pk in the set.
func (s CanonicalSet) Index(pk *bls.PublicKey) (int, bool) {
	key := pk.Bytes()
	return slices.BinarySearchFunc(s.Validators, key, func(v *CanonicalValidator, k []byte) int {
		return bytes.Compare(v.PublicKeyBytes, k)
	})
}

// ValidatorState is what verification needs of the P-Chain: its height, the validator sets of
// subnets at its heights, and which subnet validates a chain. The node implements it over the
// P-Chain's VM and hands it to the VMs that verify warp messages.
type ValidatorState interface {
	// PChainHeight returns the height of the P-Chain's last accepted block.
	PChainHeight(ctx context.Context) (uint64, error)
	// ValidatorsAt returns subnetID's validators as of P-Chain height.
	ValidatorsAt(ctx context.Context, subnetID ids.ID, height uint64) ([]Validator, error)
	// SubnetOf returns the subnet that validates chainID: ids.Empty (the Primary Network) for
	// the P-, X- and C-Chains.
	SubnetOf(ctx context.Context, chainID ids.ID) (ids.ID, error)
}

// CanonicalSetAt returns the canonical set of subnetID at P-Chain height.
func CanonicalSetAt(ctx context.Context, s ValidatorState, subnetID ids.ID, height uint64) (CanonicalSet, error) {
	vs, err := s.ValidatorsAt(ctx, subnetID, height)
	if err != nil {
		return CanonicalSet{}, fmt.Errorf("validators of subnet %s at P-Chain height %d: %w", subnetID, height, err)
	}
	return NewCanonicalSet(vs)
}
