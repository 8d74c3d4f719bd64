package acp118

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/cornice-node/cornice/crypto/bls"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/warp"
)

// SignatureSource asks a validator for its signature of a request for a chain: over the network
// for a peer, in process for this node. It must be safe for concurrent use and return once ctx
// is done.
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
// holding at least quorum percent of the subnet's weight (network-consensus-warp.md §4.3): every
// canonical validator is asked at once (any of its node IDs, in turn), each signature is checked
// against the validator's key before its weight counts, and the requests still out are cancelled
// as soon as quorum + buffer percent have signed. Otherwise it waits for every answer (each
// request is bounded by the source's deadline and by ctx) and keeps what it has: it fails with
// ErrNotEnoughSignatures, naming every refusal, when less than quorum percent signed.
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

	type answer struct {
		i   int
		sig *bls.Signature
		err error
	}
	var wg sync.WaitGroup
	defer wg.Wait() // after stop: the askers still out return once asking is done
	asking, stop := context.WithCancel(ctx)
	defer stop()
	answers := make(chan answer, len(set.Validators)) // every asker can leave its answer and go
	for i, v := range set.Validators {
		wg.Go(func() {
			sig, err := a.ask(asking, v, msg, req)
			answers <- answer{i: i, sig: sig, err: err}
		})
	}
	sigs := make(map[int]*bls.Signature)
	refusals := make([]error, len(set.Validators))
	var signed uint64
	for range set.Validators {
		ans := <-answers
		if ans.err != nil {
			refusals[ans.i] = ans.err
			continue
		}
		sigs[ans.i] = ans.sig
		signed += set.Validators[ans.i].Weight // cannot overflow: the set's total did not
		if warp.VerifyWeight(signed, set.TotalWeight, quorum+buffer, 100) == nil {
			break
		}
	}
	if err := warp.VerifyWeight(signed, set.TotalWeight, quorum, 100); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNotEnoughSignatures, errors.Join(append([]error{err}, refusals...)...))
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
