package acp118

import (
	"context"

	"github.com/cornice-node/cornice/crypto/bls"
	"github.com/cornice-node/cornice/warp"
)

// Verifier is a chain's rules of what this node agrees to sign (network-consensus-warp.md §4.3).
type Verifier interface {
	// VerifyWarp returns nil when the node signs msg given justification, else why not: an
	// *Error with the chain's own code, or any other error (CodeUnexpected).
	VerifyWarp(ctx context.Context, msg *warp.UnsignedMessage, justification []byte) error
}

// Handler answers one chain's signature requests: it parses the request, asks the chain's
// Verifier, and signs with the node's key. It holds no state and is safe for concurrent use.
type Handler struct {
	verifier Verifier
	signer   *warp.Signer
}

// NewHandler returns the handler of the chain that verifier and signer belong to.
func NewHandler(verifier Verifier, signer *warp.Signer) *Handler {
	return &Handler{verifier: verifier, signer: signer}
}

// AppRequest answers a request (the app bytes after the handler ID) with a response's bytes,
// or refuses it with an *Error, as an AppError carries it.
func (h *Handler) AppRequest(ctx context.Context, request []byte) ([]byte, *Error) {
	req, err := ParseRequest(request)
	if err != nil {
		return nil, asError(err)
	}
	sig, err := h.Sign(ctx, req)
	if err != nil {
		return nil, asError(err)
	}
	return ResponseBytes(sig), nil
}

// Sign verifies req's message with the chain's rules and returns the node's signature of it.
func (h *Handler) Sign(ctx context.Context, req *Request) (*bls.Signature, error) {
	msg, err := warp.ParseUnsignedMessage(req.Message)
	if err != nil {
		return nil, err
	}
	if err := h.verifier.VerifyWarp(ctx, msg, req.Justification); err != nil {
		return nil, err
	}
	return h.signer.Sign(msg)
}
