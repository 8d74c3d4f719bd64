package atomic

import (
	"errors"
	"fmt"

	"github.com/cornice-node/cornice/ids"
)

// The reference's texts for an atomic tx whose peer chain is not another chain of the same subnet
// (its verify.SameSubnet, which every atomic tx kind of X, P and C calls; §6.2).
var (
	// ErrSameChainID refuses an atomic tx whose peer is its own chain.
	ErrSameChainID = errors.New("same chainID")
	// ErrMismatchedSubnetIDs refuses an atomic tx whose peer validates in another subnet.
	ErrMismatchedSubnetIDs = errors.New("mismatched subnetIDs")
	// errUnknownChain is why a peer's subnet is unknown: the reference looks it up in the
	// P-Chain's state, whose miss reads "not found".
	errUnknownChain = errors.New("not found")
)

// VerifyPeer checks that peer may be the other side of an atomic tx of chain self, which
// subnetID validates: another chain of the same subnet. subnetOf returns a chain's subnet, and
// false for a chain the node does not know (chains.Registry's Chain gives both).
func VerifyPeer(self, subnetID, peer ids.ID, subnetOf func(ids.ID) (ids.ID, bool)) error {
	if peer == self {
		return ErrSameChainID
	}
	got, ok := subnetOf(peer)
	if !ok {
		return fmt.Errorf("failed to get subnet of %q: %w", peer, errUnknownChain)
	}
	if got != subnetID {
		return fmt.Errorf("%w; expected %q got %q", ErrMismatchedSubnetIDs, subnetID, got)
	}
	return nil
}
