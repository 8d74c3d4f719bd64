package acp118

import (
	"context"
	"fmt"

	"github.com/ethereum/go-ethereum/common/lru"

	"github.com/cornice-node/cornice/crypto/bls"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/warp"
)

// Verifier is a chain's rules of what this node agrees to sign (network-consensus-warp.md §4.3).
type Verifier interface {
	// VerifyWarp returns nil when the node signs msg given justification, else why not: an
	// *Error with the chain's own code, or any other error (CodeUnexpected).
	VerifyWarp(ctx context.Context, msg *warp.UnsignedMessage, justification []byte) error
}

// errUnregisteredHandler answers app bytes for a handler ID other than HandlerID: the SDK's
// ErrUnregisteredHandler.
var errUnregisteredHandler = &Error{Code: CodeUnregisteredHandler, Message: "unregistered handler"}

// Handler answers one chain's signature requests: it parses the request, asks the chain's
// Verifier, and signs with the node's key, as the reference's handler does. With a cache, a
// message signed once is signed again without asking the verifier: a chain whose yes never turns
// into a no (an EVM chain signs what its accepted blocks hold) may keep one; the P-Chain, whose
// answers follow its changing validator state, does not, as in the reference. It is safe for
// concurrent use.
type Handler struct {
	verifier Verifier
	signer   *warp.Signer
	// cache maps a message ID to the signature given, the most recent cacheSize; nil for none.
	cache *lru.Cache[ids.ID, *bls.Signature]
}

// NewHandler returns the handler of the chain that verifier and signer belong to, remembering
// the signatures of the cacheSize messages it signed last (0: none).
func NewHandler(verifier Verifier, signer *warp.Signer, cacheSize int) *Handler {
	h := &Handler{verifier: verifier, signer: signer}
	if cacheSize > 0 {
		h.cache = lru.NewCache[ids.ID, *bls.Signature](cacheSize)
	}
	return h
}

// ServeApp answers an AppRequest's whole app bytes as the reference's p2p SDK router does for a
// chain whose one request handler is this: bytes without a handler ID, or for another handler,
// are refused with CodeUnregisteredHandler.
func (h *Handler) ServeApp(ctx context.Context, appBytes []byte) ([]byte, *Error) {
	id, request, err := SplitAppBytes(appBytes)
	if err != nil || id != HandlerID {
		return nil, errUnregisteredHandler
	}
	return h.AppRequest(ctx, request)
}

// AppRequest answers a request (the app bytes after the handler ID) with a response's bytes,
// or refuses it with an *Error, as an AppError carries it; the texts are the reference's.
func (h *Handler) AppRequest(ctx context.Context, request []byte) ([]byte, *Error) {
	req, err := ParseRequest(request)
	if err != nil {
		return nil, &Error{Code: CodeUnexpected, Message: fmt.Sprintf("failed to unmarshal request: %s", err)}
	}
	sig, err := h.Sign(ctx, req)
	if err != nil {
		return nil, asError(err)
	}
	return ResponseBytes(sig), nil
}

// Sign verifies req's message with the chain's rules and returns the node's signature of it. A
// refusal is an *Error: the verifier's, or CodeUnexpected with the reference's text.
func (h *Handler) Sign(ctx context.Context, req *Request) (*bls.Signature, error) {
	msg, err := warp.ParseUnsignedMessage(req.Message)
	if err != nil {
		return nil, &Error{Code: CodeUnexpected, Message: fmt.Sprintf("failed to parse warp unsigned message: %s", err)}
	}
	id := msg.ID()
	if h.cache != nil {
		if sig, ok := h.cache.Get(id); ok {
			return sig, nil
		}
	}
	if err := h.verifier.VerifyWarp(ctx, msg, req.Justification); err != nil {
		return nil, err
	}
	sig, err := h.signer.Sign(msg)
	if err != nil {
		return nil, &Error{Code: CodeUnexpected, Message: fmt.Sprintf("failed to sign message: %s", err)}
	}
	if h.cache != nil {
		h.cache.Add(id, sig)
	}
	return sig, nil
}
