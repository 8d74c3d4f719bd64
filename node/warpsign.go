package node

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/cornice-node/cornice/api/sigagg"
	"github.com/cornice-node/cornice/crypto/bls"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/router"
	"github.com/cornice-node/cornice/warp"
	"github.com/cornice-node/cornice/warp/acp118"
)

// Warp signatures on request (network-consensus-warp.md §4.3): each chain's ACP-118 handler
// (AppRequest handler 2), which the router serves to peers and to this node itself, and the
// node-local aggregator behind POST /ext/aggregate-signatures, which asks the signing subnet's
// validators through the router.

// evmSignatureCache is how many signatures an EVM chain's handler remembers: what such a chain
// signs (a message or block hash its accepted blocks hold) stays signed, so a relayer asking
// again is answered without a lookup.
const evmSignatureCache = 500

var (
	// errNoWarpHandler is a chain whose VM signs no warp messages.
	errNoWarpHandler = errors.New("the chain signs no warp messages")
	// errUnregisteredHandler is the SDK's answer to app bytes for a handler nobody serves.
	errUnregisteredHandler = &router.AppError{Code: acp118.CodeUnregisteredHandler, Message: "unregistered handler"}
)

var (
	_ router.Apps            = (*warpApps)(nil)
	_ acp118.SignatureSource = peerSignatures{}
)

// warpApps serves the AppRequests of the chains this node runs: handler 2 (ACP-118) for each
// chain, signing with the node's BLS key under the rules of the chain's VM; any other handler ID,
// and every request to a chain whose VM signs nothing (the X-Chain), is answered "unregistered
// handler", as the reference's SDK router answers.
type warpApps struct {
	n *Node

	mu sync.Mutex // guards handlers
	// handlers are the chains' ACP-118 handlers, made on first use so that each keeps its cache.
	handlers map[ids.ID]*acp118.Handler
}

// App implements router.Apps.
func (a *warpApps) App(chainID ids.ID) (router.AppHandler, bool) {
	if a.n.manager == nil {
		return nil, false
	}
	vm, ok := a.n.manager.VM(chainID)
	if !ok {
		return nil, false
	}
	if _, ok := vm.(acp118.Verifier); !ok || a.n.signer == nil {
		return unregistered{}, true
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	h, ok := a.handlers[chainID]
	if !ok {
		size := evmSignatureCache
		if chainID == ids.Empty {
			size = 0 // the P-Chain's answers follow its validator state, as the reference's
		}
		h = acp118.NewHandler(chainVerifier{n: a.n, chainID: chainID}, warp.NewSigner(a.n.signer, a.n.cfg.NetworkID, chainID), size)
		a.handlers[chainID] = h
	}
	return warpApp{h}, true
}

// warpApp is a chain's ACP-118 handler as the router calls it.
type warpApp struct{ h *acp118.Handler }

func (w warpApp) AppRequest(ctx context.Context, _ ids.NodeID, appBytes []byte) ([]byte, *router.AppError) {
	resp, err := w.h.ServeApp(ctx, appBytes)
	if err != nil {
		return nil, &router.AppError{Code: err.Code, Message: err.Message}
	}
	return resp, nil
}

// unregistered answers every AppRequest of a chain that serves no app handler.
type unregistered struct{}

func (unregistered) AppRequest(context.Context, ids.NodeID, []byte) ([]byte, *router.AppError) {
	return nil, errUnregisteredHandler
}

// chainVerifier is a chain's rules of what it signs, its VM's, looked up at each request: the
// handler outlives any one VM value the manager holds.
type chainVerifier struct {
	n       *Node
	chainID ids.ID
}

func (c chainVerifier) VerifyWarp(ctx context.Context, msg *warp.UnsignedMessage, justification []byte) error {
	vm, ok := c.n.manager.VM(c.chainID)
	if !ok {
		return fmt.Errorf("%w: %s", errUnknownChain, c.chainID)
	}
	v, ok := vm.(acp118.Verifier)
	if !ok {
		return fmt.Errorf("%w: %s", errNoWarpHandler, c.chainID)
	}
	return v.VerifyWarp(ctx, msg, justification)
}

// peerSignatures is the aggregator's acp118.SignatureSource: an ACP-118 AppRequest through the
// router, to a peer over the network (bounded by the router's timeout, sent as its deadline) or
// to this node in process.
type peerSignatures struct{ r *router.Router }

// Signature implements acp118.SignatureSource.
func (p peerSignatures) Signature(ctx context.Context, nodeID ids.NodeID, chainID ids.ID, req *acp118.Request) (*bls.Signature, error) {
	resp, err := p.r.AppRequest(ctx, nodeID, chainID, req.AppBytes())
	if err != nil {
		return nil, err
	}
	return acp118.ParseResponse(resp)
}

// signatureAggregator gathers signatures of warp messages from the validators of their subnet:
// what /ext/aggregate-signatures and the relay use.
func (n *Node) signatureAggregator() *acp118.Aggregator {
	return acp118.NewAggregator(warpValidators{n}, peerSignatures{n.router})
}

// mountSignatureAggregator serves POST /ext/aggregate-signatures.
func (n *Node) mountSignatureAggregator() error {
	svc := sigagg.New(n.signatureAggregator(), warpValidators{n}, n.log.With("service", "aggregate-signatures"))
	if err := n.http.AddRoute("aggregate-signatures", svc); err != nil {
		return fmt.Errorf("mount signature aggregator: %w", err)
	}
	return nil
}
