package router

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/network/wire"
)

// App requests (network-consensus-warp.md §1.3, §1.8): a peer's AppRequest for a chain this node
// runs is answered by the chain's AppHandler off the peer's reader, by a few workers, and the
// answer goes back as an AppResponse or an AppError; this node's own AppRequests (Router.AppRequest)
// wait for the matching answer until their deadline.

// The router's defaults for app requests.
const (
	// DefaultAppWorkers is how many AppRequests are answered at once.
	DefaultAppWorkers = 4
	// appQueue is how many AppRequests may wait for a worker; more are dropped, and their senders
	// time out.
	appQueue = 256
	// MaxInboundDeadline caps the deadline a peer gives its AppRequest, as the reference's
	// --network-maximum-inbound-timeout (10 s) does.
	MaxInboundDeadline = 10 * time.Second
)

// AppError is a refusal as an AppError message carries it: a code (negative ones are the SDK's,
// positive ones a VM's) and a message.
type AppError struct {
	Code    int32
	Message string
}

// Error returns the code and the message, as the reference's common.AppError prints.
func (e *AppError) Error() string { return fmt.Sprintf("%d: %s", e.Code, e.Message) }

// ErrAppTimeout is the failure of an AppRequest that got no answer in time, or whose peer
// disconnected first: the reference's common.ErrTimeout.
var ErrAppTimeout = &AppError{Code: -1, Message: "timed out"}

// ErrNotConnected is returned by AppRequest for a peer the network cannot send to.
var ErrNotConnected = errors.New("router: peer not connected")

// AppHandler answers the AppRequests of one chain. It must be safe for concurrent use.
type AppHandler interface {
	// AppRequest answers appBytes (all of them, the SDK's handler ID prefix included) from
	// from, with the response's app bytes or a refusal. ctx ends at the request's deadline.
	AppRequest(ctx context.Context, from ids.NodeID, appBytes []byte) ([]byte, *AppError)
}

// Apps finds the AppHandler of a chain this node runs.
type Apps interface {
	// App returns chainID's handler, or false when this node does not answer for the chain:
	// its AppRequests are dropped, as the reference drops messages for an unknown chain.
	App(chainID ids.ID) (AppHandler, bool)
}

// appKey names an AppRequest this node sent by what its answer must match (§1.8).
type appKey struct {
	nodeID    ids.NodeID
	chainID   ids.ID
	requestID uint32
}

// appAnswer is an AppResponse's bytes or an AppError.
type appAnswer struct {
	bytes []byte
	err   *AppError
}

// appJob is an inbound AppRequest waiting for a worker.
type appJob struct {
	from     ids.NodeID
	h        AppHandler
	app      *wire.App
	deadline time.Time
}

// handleApp routes an inbound app message: a request to its chain's queue, an answer to the
// request it matches.
func (r *Router) handleApp(from ids.NodeID, op wire.Op, body []byte) {
	a, err := wire.ParseApp(op, body)
	if err != nil {
		r.drop(reasonMalformed, from, op, err)
		return
	}
	r.metrics.received.WithLabelValues(op.String()).Inc()
	if op != wire.OpAppRequest {
		ans := appAnswer{bytes: a.AppBytes}
		if op == wire.OpAppError {
			ans = appAnswer{err: &AppError{Code: a.ErrorCode, Message: a.ErrorMessage}}
		}
		if !r.answerApp(appKey{nodeID: from, chainID: a.ChainID, requestID: a.RequestID}, ans) {
			r.drop(reasonUnrequested, from, op, nil)
		}
		return
	}
	var h AppHandler
	if r.d.Apps != nil {
		h, _ = r.d.Apps.App(a.ChainID)
	}
	if h == nil {
		r.drop(reasonUnknownChain, from, op, nil)
		return
	}
	// A deadline is a duration from receipt, capped (§1.3).
	d := time.Duration(min(a.Deadline, uint64(MaxInboundDeadline)))
	select {
	case r.appJobs <- appJob{from: from, h: h, app: a, deadline: r.d.Clock.Now().Add(d)}:
	default:
		r.drop(reasonQueueFull, from, op, nil)
	}
}

// appWorker answers queued AppRequests until the router closes.
func (r *Router) appWorker() {
	for {
		select {
		case <-r.ctx.Done():
			return
		case j := <-r.appJobs:
			r.serveApp(j)
		}
	}
}

// serveApp answers one AppRequest, unless its deadline passed while it waited: the sender has
// given up on it (the reference's handler drops expired messages, §1.3).
func (r *Router) serveApp(j appJob) {
	if !r.d.Clock.Now().Before(j.deadline) {
		r.drop(reasonExpired, j.from, wire.OpAppRequest, nil)
		return
	}
	ctx, cancel := context.WithDeadline(r.ctx, j.deadline)
	defer cancel()
	resp, appErr := j.h.AppRequest(ctx, j.from, j.app.AppBytes)
	answer := &wire.App{ChainID: j.app.ChainID, RequestID: j.app.RequestID}
	op := wire.OpAppResponse
	if appErr != nil {
		op, answer.ErrorCode, answer.ErrorMessage = wire.OpAppError, appErr.Code, appErr.Message
	} else {
		answer.AppBytes = resp
	}
	// An answer that cannot be sent is the requester's timeout.
	r.d.Network.Send(j.from, wire.NewApp(op, answer))
}

// AppRequest sends appBytes to nodeID as an AppRequest of chainID and waits for the answer: the
// AppResponse's bytes, or an error: the peer's *AppError, ErrAppTimeout when no answer came
// within the router's timeout (which travels as the request's deadline, shortened to ctx's) or
// the peer disconnected, ErrNotConnected when it cannot be sent, or ctx's error. A request to
// this node itself is answered in process, by its own chain's handler, as the reference's sender
// does (§1.8).
func (r *Router) AppRequest(ctx context.Context, nodeID ids.NodeID, chainID ids.ID, appBytes []byte) ([]byte, error) {
	timeout := r.cfg.Timeout
	if dl, ok := ctx.Deadline(); ok {
		timeout = min(timeout, dl.Sub(r.d.Clock.Now()))
	}
	if timeout <= 0 {
		return nil, ErrAppTimeout
	}
	if nodeID == r.cfg.NodeID {
		return r.selfApp(ctx, chainID, timeout, appBytes)
	}
	k := appKey{nodeID: nodeID, chainID: chainID, requestID: r.nextAppID.Add(1)}
	ch := make(chan appAnswer, 1)
	r.mu.Lock()
	r.appPending[k] = ch
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		delete(r.appPending, k)
		r.mu.Unlock()
	}()
	msg := wire.NewApp(wire.OpAppRequest, &wire.App{ChainID: chainID, RequestID: k.requestID, Deadline: uint64(timeout), AppBytes: appBytes})
	if !r.d.Network.Send(nodeID, msg) {
		return nil, fmt.Errorf("%w: %s", ErrNotConnected, nodeID)
	}
	t := r.d.Clock.NewTimer(timeout)
	defer t.Stop()
	select {
	case ans := <-ch:
		if ans.err != nil {
			return nil, ans.err
		}
		return ans.bytes, nil
	case <-t.C:
		r.metrics.timeouts.WithLabelValues(wire.OpAppResponse.String()).Inc()
		return nil, ErrAppTimeout
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// selfApp answers this node's own AppRequest with its chain's handler.
func (r *Router) selfApp(ctx context.Context, chainID ids.ID, timeout time.Duration, appBytes []byte) ([]byte, error) {
	var h AppHandler
	if r.d.Apps != nil {
		h, _ = r.d.Apps.App(chainID)
	}
	if h == nil {
		// The reference's request to a chain it does not run is dropped, and times out.
		return nil, ErrAppTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	resp, appErr := h.AppRequest(ctx, r.cfg.NodeID, appBytes)
	if appErr != nil {
		return nil, appErr
	}
	return resp, nil
}

// answerApp hands ans to the AppRequest k waits on, and reports whether one did.
func (r *Router) answerApp(k appKey, ans appAnswer) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	ch, ok := r.appPending[k]
	if !ok {
		return false
	}
	delete(r.appPending, k)
	ch <- ans // buffered for the one answer
	return true
}

// failAppsLocked fails every AppRequest in flight to nodeID, which cannot answer any more.
func (r *Router) failAppsLocked(nodeID ids.NodeID) {
	for k, ch := range r.appPending {
		if k.nodeID == nodeID {
			delete(r.appPending, k)
			ch <- appAnswer{err: ErrAppTimeout}
		}
	}
}
