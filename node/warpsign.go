package node

import (
	"context"
	"errors"
	"fmt"

	"github.com/cornice-node/cornice/api/sigagg"
	"github.com/cornice-node/cornice/crypto/bls"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/warp"
	"github.com/cornice-node/cornice/warp/acp118"
)

// Warp signatures on request (network-consensus-warp.md §4.3): each chain's ACP-118 handler
// (AppRequest handler 2), which the network's router serves to peers, and the node-local
// aggregator behind POST /ext/aggregate-signatures, which on a lone node gathers the node's own
// signature.

var (
	// errNotConnected is a validator the aggregator cannot reach: on a lone node, any other.
	errNotConnected = errors.New("not connected")
	// errNoBLSKey is a signature asked of a node without a BLS key.
	errNoBLSKey = errors.New("the node has no BLS key")
	// errNoWarpHandler is a chain whose VM signs no warp messages.
	errNoWarpHandler = errors.New("the chain signs no warp messages")
)

// warpHandler returns the ACP-118 handler of chain chainID: its VM's rules of what it signs,
// with the node's BLS key.
func (n *Node) warpHandler(chainID ids.ID) (*acp118.Handler, error) {
	if n.signer == nil {
		return nil, errNoBLSKey
	}
	if n.manager == nil {
		return nil, fmt.Errorf("%w: %s", errUnknownChain, chainID)
	}
	vm, ok := n.manager.VM(chainID)
	if !ok {
		return nil, fmt.Errorf("%w: %s", errUnknownChain, chainID)
	}
	v, ok := vm.(acp118.Verifier)
	if !ok {
		return nil, fmt.Errorf("%w: %s", errNoWarpHandler, chainID)
	}
	return acp118.NewHandler(v, warp.NewSigner(n.signer, n.cfg.NetworkID, chainID)), nil
}

// localSignatures is the aggregator's acp118.SignatureSource on a lone node: the node's own
// handlers; no other validator is reachable.
type localSignatures struct{ n *Node }

var _ acp118.SignatureSource = localSignatures{}

// Signature implements acp118.SignatureSource.
func (l localSignatures) Signature(ctx context.Context, nodeID ids.NodeID, chainID ids.ID, req *acp118.Request) (*bls.Signature, error) {
	if nodeID != l.n.nodeID {
		return nil, fmt.Errorf("%w: %s", errNotConnected, nodeID)
	}
	h, err := l.n.warpHandler(chainID)
	if err != nil {
		return nil, err
	}
	return h.Sign(ctx, req)
}

// mountSignatureAggregator serves POST /ext/aggregate-signatures.
func (n *Node) mountSignatureAggregator() error {
	state := warpValidators{n}
	svc := sigagg.New(acp118.NewAggregator(state, localSignatures{n}), state, n.log.With("service", "aggregate-signatures"))
	if err := n.http.AddRoute("aggregate-signatures", svc); err != nil {
		return fmt.Errorf("mount signature aggregator: %w", err)
	}
	return nil
}
