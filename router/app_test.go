package router

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/network/wire"
)

// appNet is a network of routers by node ID: a message sent to a router in it is handed to its
// HandleInbound, from the sender, as a peer's reader would; every message is also recorded.
type appNet struct {
	mu      sync.Mutex
	routers map[ids.NodeID]*Router
	sent    []sentApp
}

type sentApp struct {
	from, to ids.NodeID
	op       wire.Op
	app      *wire.App
}

// node is one router's view of the network: it sends as from.
type node struct {
	net  *appNet
	from ids.NodeID
}

func (n node) Send(to ids.NodeID, m *wire.Message) bool {
	a, err := wire.ParseApp(m.Op, m.Body)
	if err != nil {
		panic(err)
	}
	n.net.mu.Lock()
	n.net.sent = append(n.net.sent, sentApp{from: n.from, to: to, op: m.Op, app: a})
	r := n.net.routers[to]
	n.net.mu.Unlock()
	if r == nil {
		return false
	}
	// Through the bytes, as the network delivers it.
	parsed, err := wire.Parse(m.Marshal())
	if err != nil {
		panic(err)
	}
	go r.HandleInbound(n.from, parsed)
	return true
}

func (n *appNet) all() []sentApp {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]sentApp(nil), n.sent...)
}

// appsOf serves the chains whose handlers it holds.
type appsOf map[ids.ID]AppHandler

func (a appsOf) App(chainID ids.ID) (AppHandler, bool) {
	h, ok := a[chainID]
	return h, ok
}

// appFunc adapts a function to AppHandler.
type appFunc func(ctx context.Context, from ids.NodeID, b []byte) ([]byte, *AppError)

func (f appFunc) AppRequest(ctx context.Context, from ids.NodeID, b []byte) ([]byte, *AppError) {
	return f(ctx, from, b)
}

// newAppRouter adds a router for nodeID to net, serving apps, with the given request timeout.
func newAppRouter(t *testing.T, net *appNet, nodeID ids.NodeID, apps Apps, timeout time.Duration) *Router {
	t.Helper()
	r, err := New(Config{NodeID: nodeID, Timeout: timeout}, Deps{Network: node{net: net, from: nodeID}, Apps: apps})
	require.NoError(t, err)
	t.Cleanup(r.Close)
	net.mu.Lock()
	net.routers[nodeID] = r
	net.mu.Unlock()
	return r
}

// echo answers with the request's bytes reversed, and refuses "no" with a VM code.
func echo(deadlines chan<- time.Duration) appFunc {
	return func(ctx context.Context, _ ids.NodeID, b []byte) ([]byte, *AppError) {
		if dl, ok := ctx.Deadline(); ok && deadlines != nil {
			deadlines <- time.Until(dl)
		}
		if string(b) == "no" {
			return nil, &AppError{Code: 7, Message: "refused"}
		}
		out := make([]byte, len(b))
		for i := range b {
			out[len(b)-1-i] = b[i]
		}
		return out, nil
	}
}

// An AppRequest from a peer is answered by its chain's handler, within its deadline, with an
// AppResponse or, refused, an AppError with the handler's code and text, over the wire; this
// node's own requests to itself are answered in process.
func TestAppRequestAnswered(t *testing.T) {
	t.Parallel()
	net := &appNet{routers: map[ids.NodeID]*Router{}}
	deadlines := make(chan time.Duration, 10)
	a := newAppRouter(t, net, self, appsOf{chain: echo(nil)}, waitFor)
	newAppRouter(t, net, peer, appsOf{chain: echo(deadlines)}, waitFor)

	got, err := a.AppRequest(t.Context(), peer, chain, []byte("abc"))
	require.NoError(t, err)
	require.Equal(t, "cba", string(got))
	require.LessOrEqual(t, <-deadlines, waitFor, "the peer's handler runs under the request's deadline")
	out := net.all()
	require.Len(t, out, 2)
	require.Equal(t, wire.OpAppRequest, out[0].op)
	require.Equal(t, wire.App{ChainID: chain, RequestID: out[0].app.RequestID, Deadline: uint64(waitFor), AppBytes: []byte("abc")}, *out[0].app)
	require.Equal(t, sentApp{from: peer, to: self, op: wire.OpAppResponse,
		app: &wire.App{ChainID: chain, RequestID: out[0].app.RequestID, AppBytes: []byte("cba")}}, out[1])

	_, err = a.AppRequest(t.Context(), peer, chain, []byte("no"))
	require.Equal(t, &AppError{Code: 7, Message: "refused"}, err)
	out = net.all()
	require.Equal(t, wire.OpAppError, out[3].op)
	require.Equal(t, int32(7), out[3].app.ErrorCode)
	require.NotEqual(t, out[0].app.RequestID, out[2].app.RequestID, "each request has its own ID")

	// To itself: in process, nothing on the network.
	got, err = a.AppRequest(t.Context(), self, chain, []byte("xy"))
	require.NoError(t, err)
	require.Equal(t, "yx", string(got))
	require.Len(t, net.all(), 4)

	// A context deadline sooner than the router's travels as the request's deadline.
	ctx, cancel := context.WithTimeout(t.Context(), waitFor/2)
	defer cancel()
	_, err = a.AppRequest(ctx, peer, chain, []byte("z"))
	require.NoError(t, err)
	require.LessOrEqual(t, net.all()[4].app.Deadline, uint64(waitFor/2))
}

// What the router cannot answer: a chain it does not run is dropped (the requester times out),
// a malformed message is dropped, an answer to no request is dropped; a request whose deadline
// has passed is dropped unanswered.
func TestAppRequestDropped(t *testing.T) {
	t.Parallel()
	net := &appNet{routers: map[ids.NodeID]*Router{}}
	called := make(chan struct{}, 10)
	r := newAppRouter(t, net, self, appsOf{chain: appFunc(func(context.Context, ids.NodeID, []byte) ([]byte, *AppError) {
		called <- struct{}{}
		return nil, nil
	})}, waitFor)
	dropped := func(reason string) float64 { return testutil.ToFloat64(r.metrics.dropped.WithLabelValues(reason)) }

	r.HandleInbound(peer, wire.NewApp(wire.OpAppRequest, &wire.App{ChainID: ids.ID{1}, RequestID: 1, Deadline: uint64(time.Second)}))
	require.Equal(t, 1.0, dropped(reasonUnknownChain))
	r.HandleInbound(peer, &wire.Message{Op: wire.OpAppRequest, Body: []byte{0x0a, 0x01, 0x00}})
	require.Equal(t, 1.0, dropped(reasonMalformed))
	r.HandleInbound(peer, wire.NewApp(wire.OpAppResponse, &wire.App{ChainID: chain, RequestID: 1}))
	r.HandleInbound(peer, wire.NewApp(wire.OpAppError, &wire.App{ChainID: chain, RequestID: 1, ErrorCode: -1}))
	require.Equal(t, 2.0, dropped(reasonUnrequested))
	r.HandleInbound(peer, wire.NewApp(wire.OpAppRequest, &wire.App{ChainID: chain, RequestID: 2})) // deadline 0
	require.Eventually(t, func() bool { return dropped(reasonExpired) == 1 }, waitFor, time.Millisecond)
	require.Empty(t, called)
	require.Empty(t, net.all(), "nothing answered")
}

// This node's AppRequest fails when it cannot be sent, when no answer comes in time (the
// reference's AppError -1 "timed out"), when its peer disconnects first, or when its context
// ends; the late answer is then dropped.
func TestAppRequestFails(t *testing.T) {
	t.Parallel()
	net := &appNet{routers: map[ids.NodeID]*Router{}}
	r := newAppRouter(t, net, self, nil, 50*time.Millisecond)
	_, err := r.AppRequest(t.Context(), peer, chain, []byte{1})
	require.ErrorIs(t, err, ErrNotConnected)

	// A peer that runs no such chain drops the request: it times out.
	silent := ids.NodeID{5}
	newAppRouter(t, net, silent, appsOf{}, waitFor)
	_, err = r.AppRequest(t.Context(), silent, chain, []byte{1})
	require.Equal(t, ErrAppTimeout, err)
	require.EqualError(t, err, "-1: timed out")
	require.Equal(t, 1.0, testutil.ToFloat64(r.metrics.timeouts.WithLabelValues("app_response")))

	// Disconnection fails it at once; so does the end of the context.
	long := newAppRouter(t, net, ids.NodeID{6}, nil, waitFor)
	done := make(chan error, 1)
	go func() {
		_, err := long.AppRequest(t.Context(), silent, chain, []byte{1})
		done <- err
	}()
	require.Eventually(t, func() bool { return len(net.all()) == 3 }, waitFor, time.Millisecond)
	long.Disconnected(silent)
	require.Equal(t, ErrAppTimeout, <-done)

	ctx, cancel := context.WithCancel(t.Context())
	go func() {
		_, err := long.AppRequest(ctx, silent, chain, []byte{1})
		done <- err
	}()
	require.Eventually(t, func() bool { return len(net.all()) == 4 }, waitFor, time.Millisecond)
	cancel()
	require.ErrorIs(t, <-done, context.Canceled)
	late := net.all()[3].app
	long.HandleInbound(silent, wire.NewApp(wire.OpAppResponse, &wire.App{ChainID: chain, RequestID: late.RequestID}))
	require.Equal(t, 1.0, testutil.ToFloat64(long.metrics.dropped.WithLabelValues(reasonUnrequested)))

	// To itself, for a chain it does not run: as the reference, a timeout.
	_, err = r.AppRequest(t.Context(), self, chain, []byte{1})
	require.Equal(t, ErrAppTimeout, err)
}
