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
	g, err := a.gather(ctx, msg, justification, subnetID, quorum+buffer)
	if err != nil {
		return nil, err
	}
	if err := warp.VerifyWeight(g.signed, g.total, quorum, 100); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNotEnoughSignatures, errors.Join(append([]error{err}, g.refusals...)...))
	}
	return warp.Aggregate(msg, g.sigs)
}

// Gather is Aggregate as the EVM's warp_get*AggregateSignature methods answer (l1-evm.md §5.7):
// it stops asking once quorum percent have signed (any value, unchecked: above 100 it waits for
// every answer) and returns whatever signed, enough or not, and nil when nobody did.
func (a *Aggregator) Gather(ctx context.Context, msg *warp.UnsignedMessage, justification []byte, subnetID ids.ID, quorum uint64) (*warp.Message, error) {
	g, err := a.gather(ctx, msg, justification, subnetID, quorum)
	if err != nil || len(g.sigs) == 0 {
		return nil, err
	}
	return warp.Aggregate(msg, g.sigs)
}

// gathered is what gather collected: the signatures by canonical index, their weight, the
// set's total weight, and each validator's refusal (nil for those that signed or were not
// waited for).
type gathered struct {
	sigs          map[int]*bls.Signature
	signed, total uint64
	refusals      []error
}

// gather asks every canonical validator of subnetID at the P-Chain's current height at once and
// collects their signatures until stop percent of the weight signed or every answer is in.
func (a *Aggregator) gather(ctx context.Context, msg *warp.UnsignedMessage, justification []byte, subnetID ids.ID, stop uint64) (*gathered, error) {
	height, err := a.state.PChainHeight(ctx)
	if err != nil {
		return nil, err
	}
	set, err := warp.CanonicalSetAt(ctx, a.state, subnetID, height)
	if err != nil {
		return nil, err
	}
	if len(set.Validators) == 0 {
		return nil, fmt.Errorf("%w (SubnetID: %s, Height: %d)", ErrNoValidators, subnetID, height)
	}
	req := &Request{Message: msg.Bytes(), Justification: justification}

	type answer struct {
		i   int
		sig *bls.Signature
		err error
	}
	var wg sync.WaitGroup
	defer wg.Wait() // after stop: the askers still out return once asking is done
	asking, cancel := context.WithCancel(ctx)
	defer cancel()
	answers := make(chan answer, len(set.Validators)) // every asker can leave its answer and go
	for i, v := range set.Validators {
		wg.Go(func() {
			sig, err := a.ask(asking, v, msg, req)
			answers <- answer{i: i, sig: sig, err: err}
		})
	}
	g := &gathered{sigs: make(map[int]*bls.Signature), total: set.TotalWeight, refusals: make([]error, len(set.Validators))}
	for range set.Validators {
		ans := <-answers
		if ans.err != nil {
			g.refusals[ans.i] = ans.err
			continue
		}
		g.sigs[ans.i] = ans.sig
		g.signed += set.Validators[ans.i].Weight // cannot overflow: the set's total did not
		if warp.VerifyWeight(g.signed, g.total, stop, 100) == nil {
			break
		}
	}
	return g, nil
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
