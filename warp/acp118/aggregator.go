package acp118

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/cornice-node/cornice/crypto/bls"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/warp"
)

// SignatureSource asks a validator for its signature of a request for a chain. On a lone node
// it reaches the node's own handlers; over the network, peers' (the router's part).
type SignatureSource interface {
	Signature(ctx context.Context, nodeID ids.NodeID, chainID ids.ID, req *Request) (*bls.Signature, error)
}

// Aggregator gathers signatures of a subnet's validators (network-consensus-warp.md §4.3).
type Aggregator struct {
	state  warp.ValidatorState
	source SignatureSource
}

// NewAggregator returns an aggregator over the validator sets of state, asking source.
func NewAggregator(state warp.ValidatorState, source SignatureSource) *Aggregator {
	return &Aggregator{state: state, source: source}
}

// Aggregate returns msg signed by validators of subnetID, as of the P-Chain's current height,
// holding at least quorum percent of the subnet's weight: the canonical validators are asked in
// turn, heaviest first (any of its node IDs), each signature checked against its key, until
// quorum + buffer percent have signed or every validator was asked. It fails with
// ErrNotEnoughSignatures, naming the last refusal, when less than quorum percent signed.
func (a *Aggregator) Aggregate(ctx context.Context, msg *warp.UnsignedMessage, justification []byte, subnetID ids.ID, quorum, buffer uint64) (*warp.Message, error) {
	if quorum == 0 || quorum+buffer > 100 || quorum+buffer < quorum {
		return nil, fmt.Errorf("%w: %d + %d", ErrInvalidQuorum, quorum, buffer)
	}
	height, err := a.state.PChainHeight(ctx)
	if err != nil {
		return nil, err
	}
	set, err := warp.CanonicalSetAt(ctx, a.state, subnetID, height)
	if err != nil {
		return nil, err
	}
	if len(set.Validators) == 0 {
		return nil, ErrNoValidators
	}
	req := &Request{Message: msg.Bytes(), Justification: justification}
	sigs := make(map[int]*bls.Signature)
	var (
		signed  uint64
		refusal error
	)
	order := make([]int, len(set.Validators))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return cmp.Compare(set.Validators[b].Weight, set.Validators[a].Weight)
	})
	for _, i := range order {
		v := set.Validators[i]
		if warp.VerifyWeight(signed, set.TotalWeight, quorum+buffer, 100) == nil {
			break
		}
		sig, err := a.ask(ctx, v, msg, req)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			refusal = err
			continue
		}
		sigs[i] = sig
		signed += v.Weight // cannot overflow: the set's total did not
	}
	if err := warp.VerifyWeight(signed, set.TotalWeight, quorum, 100); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNotEnoughSignatures, errors.Join(err, refusal))
	}
	return warp.Aggregate(msg, sigs)
}

// ask returns v's signature of msg from the first of its nodes that gives a valid one.
func (a *Aggregator) ask(ctx context.Context, v *warp.CanonicalValidator, msg *warp.UnsignedMessage, req *Request) (*bls.Signature, error) {
	var last error
	for _, nodeID := range v.NodeIDs {
		sig, err := a.source.Signature(ctx, nodeID, msg.SourceChainID, req)
		if err != nil {
			last = fmt.Errorf("%s: %w", nodeID, err)
			continue
		}
		if !bls.Verify(v.PublicKey, sig, req.Message) {
			last = fmt.Errorf("%s: %w", nodeID, warp.ErrInvalidSignature)
			continue
		}
		return sig, nil
	}
	return nil, last
}
