package router

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/network/wire"
)

// waitFor bounds every wait of these tests.
const waitFor = 10 * time.Second

var (
	self  = ids.NodeID{1}
	peer  = ids.NodeID{2}
	chain = ids.ID{9}
)

// sent is a message the fake network was asked to send.
type sent struct {
	to  ids.NodeID
	op  wire.Op
	msg *wire.Chain
}

// fakeNetwork records what is sent; nodes in down cannot be sent to.
type fakeNetwork struct {
	mu   sync.Mutex
	sent []sent
	down map[ids.NodeID]bool
}

func (n *fakeNetwork) Send(to ids.NodeID, m *wire.Message) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.down[to] {
		return false
	}
	c, err := wire.ParseChain(m.Op, m.Body)
	if err != nil {
		panic(err)
	}
	n.sent = append(n.sent, sent{to, m.Op, c})
	return true
}

func (n *fakeNetwork) all() []sent {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]sent(nil), n.sent...)
}

// testChain runs its messages on a goroutine of its own, on a handler that records each call.
type testChain struct {
	inbox chan Message
	calls chan string
	h     Handler
}

func newTestChain(t *testing.T, queue int, bootstrapping bool) *testChain {
	c := &testChain{inbox: make(chan Message, queue), calls: make(chan string, 100)}
	c.h = &recorder{calls: c.calls}
	if bootstrapping {
		c.h = &bootRecorder{recorder{calls: c.calls}}
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-ctx.Done():
				return
			case m := <-c.inbox:
				if err := m(ctx, c.h); err != nil {
					panic(err)
				}
			}
		}
	}()
	t.Cleanup(func() { cancel(); <-done })
	return c
}

func (c *testChain) TryDeliver(m Message) bool {
	select {
	case c.inbox <- m:
		return true
	default:
		return false
	}
}

func (c *testChain) Deliver(ctx context.Context, m Message) error {
	select {
	case c.inbox <- m:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// next returns the next call the chain's handler got.
func (c *testChain) next(t *testing.T) string {
	t.Helper()
	select {
	case call := <-c.calls:
		return call
	case <-time.After(waitFor):
		require.FailNow(t, "no call")
		return ""
	}
}

// none checks that the handler got no call (a short look: a call would be on its way already).
func (c *testChain) none(t *testing.T) {
	t.Helper()
	select {
	case call := <-c.calls:
		require.FailNow(t, "unexpected call", call)
	case <-time.After(20 * time.Millisecond):
	}
}

type recorder struct{ calls chan string }

func (r *recorder) rec(format string, args ...any) error {
	r.calls <- fmt.Sprintf(format, args...)
	return nil
}

func (r *recorder) PushQuery(_ context.Context, from ids.NodeID, id uint32, b []byte, h uint64) error {
	return r.rec("PushQuery %s %d %s %d", from, id, b, h)
}
func (r *recorder) PullQuery(_ context.Context, from ids.NodeID, id uint32, blk ids.ID, h uint64) error {
	return r.rec("PullQuery %s %d %x %d", from, id, blk[:1], h)
}
func (r *recorder) Chits(_ context.Context, from ids.NodeID, id uint32, p, ph, a ids.ID, ah uint64) error {
	return r.rec("Chits %s %d %x %x %x %d", from, id, p[:1], ph[:1], a[:1], ah)
}
func (r *recorder) QueryFailed(_ context.Context, from ids.NodeID, id uint32) error {
	return r.rec("QueryFailed %s %d", from, id)
}
func (r *recorder) Get(_ context.Context, from ids.NodeID, id uint32, blk ids.ID) error {
	return r.rec("Get %s %d %x", from, id, blk[:1])
}
func (r *recorder) Put(_ context.Context, from ids.NodeID, id uint32, b []byte) error {
	return r.rec("Put %s %d %s", from, id, b)
}
func (r *recorder) GetFailed(_ context.Context, from ids.NodeID, id uint32) error {
	return r.rec("GetFailed %s %d", from, id)
}
func (r *recorder) GetAncestors(_ context.Context, from ids.NodeID, id uint32, blk ids.ID) error {
	return r.rec("GetAncestors %s %d %x", from, id, blk[:1])
}
func (r *recorder) GetAcceptedFrontier(_ context.Context, from ids.NodeID, id uint32) error {
	return r.rec("GetAcceptedFrontier %s %d", from, id)
}
func (r *recorder) GetAccepted(_ context.Context, from ids.NodeID, id uint32, blks []ids.ID) error {
	return r.rec("GetAccepted %s %d %d", from, id, len(blks))
}

type bootRecorder struct{ recorder }

func (r *bootRecorder) AcceptedFrontier(_ context.Context, from ids.NodeID, id uint32, blk ids.ID) error {
	return r.rec("AcceptedFrontier %s %d %x", from, id, blk[:1])
}
func (r *bootRecorder) GetAcceptedFrontierFailed(_ context.Context, from ids.NodeID, id uint32) error {
	return r.rec("GetAcceptedFrontierFailed %s %d", from, id)
}
func (r *bootRecorder) Accepted(_ context.Context, from ids.NodeID, id uint32, blks []ids.ID) error {
	return r.rec("Accepted %s %d %d", from, id, len(blks))
}
func (r *bootRecorder) GetAcceptedFailed(_ context.Context, from ids.NodeID, id uint32) error {
	return r.rec("GetAcceptedFailed %s %d", from, id)
}
func (r *bootRecorder) Ancestors(_ context.Context, from ids.NodeID, id uint32, blks [][]byte) error {
	return r.rec("Ancestors %s %d %d", from, id, len(blks))
}
func (r *bootRecorder) GetAncestorsFailed(_ context.Context, from ids.NodeID, id uint32) error {
	return r.rec("GetAncestorsFailed %s %d", from, id)
}

// newRouter returns a router over a fake network, with the given request timeout.
func newRouter(t *testing.T, timeout time.Duration) (*Router, *fakeNetwork, *prometheus.Registry) {
	t.Helper()
	net := &fakeNetwork{down: map[ids.NodeID]bool{}}
	reg := prometheus.NewRegistry()
	r, err := New(Config{NodeID: self, Timeout: timeout}, Deps{Network: net, Metrics: reg})
	require.NoError(t, err)
	t.Cleanup(r.Close)
	return r, net, reg
}

func inbound(op wire.Op, c wire.Chain) *wire.Message {
	c.ChainID = chain
	return wire.NewChain(op, &c)
}

// Requests from peers reach their chain's handler, with every field; what cannot be delivered
// is dropped and counted by reason.
func TestInboundRequests(t *testing.T) {
	t.Parallel()
	r, _, _ := newRouter(t, waitFor)
	c := newTestChain(t, 10, false)
	_, err := r.Register(chain, c)
	require.NoError(t, err)
	_, err = r.Register(chain, c)
	require.ErrorContains(t, err, "registered already")

	r.HandleInbound(peer, inbound(wire.OpPushQuery, wire.Chain{RequestID: 1, Container: []byte("blk"), RequestedHeight: 5}))
	require.Equal(t, "PushQuery "+peer.String()+" 1 blk 5", c.next(t))
	r.HandleInbound(peer, inbound(wire.OpPullQuery, wire.Chain{RequestID: 2, ContainerID: ids.ID{0xab}, RequestedHeight: 6}))
	require.Equal(t, "PullQuery "+peer.String()+" 2 ab 6", c.next(t))
	r.HandleInbound(peer, inbound(wire.OpGet, wire.Chain{RequestID: 3, ContainerID: ids.ID{0xcd}}))
	require.Equal(t, "Get "+peer.String()+" 3 cd", c.next(t))
	r.HandleInbound(peer, inbound(wire.OpGetAncestors, wire.Chain{RequestID: 4, ContainerID: ids.ID{0xef}}))
	require.Equal(t, "GetAncestors "+peer.String()+" 4 ef", c.next(t))
	r.HandleInbound(peer, inbound(wire.OpGetAcceptedFrontier, wire.Chain{RequestID: 5}))
	require.Equal(t, "GetAcceptedFrontier "+peer.String()+" 5", c.next(t))
	r.HandleInbound(peer, inbound(wire.OpGetAccepted, wire.Chain{RequestID: 6, ContainerIDs: []ids.ID{{1}, {2}}}))
	require.Equal(t, "GetAccepted "+peer.String()+" 6 2", c.next(t))

	dropped := func(reason string) float64 { return testutil.ToFloat64(r.metrics.dropped.WithLabelValues(reason)) }
	r.HandleInbound(peer, wire.NewChain(wire.OpGet, &wire.Chain{ChainID: ids.ID{7}}))
	require.Equal(t, 1.0, dropped(reasonUnknownChain))
	r.HandleInbound(peer, &wire.Message{Op: wire.OpGet, Body: []byte{0x0a, 0x01, 0x00}})
	require.Equal(t, 1.0, dropped(reasonMalformed))
	r.HandleInbound(peer, &wire.Message{Op: wire.OpSimplex, Body: nil}) // no engine takes Simplex
	require.Equal(t, 1.0, dropped(reasonUnhandledOp))
	for _, op := range []wire.Op{wire.OpChits, wire.OpPut, wire.OpAncestors, wire.OpAccepted, wire.OpAcceptedFrontier} {
		r.HandleInbound(peer, inbound(op, wire.Chain{RequestID: 1}))
	}
	require.Equal(t, 5.0, dropped(reasonUnrequested), "answers to no request")
	c.none(t)

	// A full queue drops a request: the requester's timeout covers it.
	full := &testChain{inbox: make(chan Message)} // nobody reads it
	_, err = r.Register(ids.ID{8}, full)
	require.NoError(t, err)
	r.HandleInbound(peer, wire.NewChain(wire.OpGet, &wire.Chain{ChainID: ids.ID{8}}))
	require.Equal(t, 1.0, dropped(reasonQueueFull))

	r.Unregister(chain)
	r.HandleInbound(peer, inbound(wire.OpGet, wire.Chain{}))
	require.Equal(t, 2.0, dropped(reasonUnknownChain))
}

// A query goes to peers over the network with its deadline and to this node in process; each
// answer is delivered once; a peer that does not answer in time gets a QueryFailed. Time is
// virtual (synctest): on a loaded machine the real 200 ms could end before the peer's answer.
func TestQueryAnswersAndTimeout(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		r, net, _ := newRouter(t, 200*time.Millisecond)
		c := newTestChain(t, 10, false)
		s, err := r.Register(chain, c)
		require.NoError(t, err)
		other := ids.NodeID{3}
		s.SendPullQuery(context.Background(), []ids.NodeID{self, peer, other}, 7, ids.ID{0xaa}, 4)

		require.Equal(t, "PullQuery "+self.String()+" 7 aa 4", c.next(t), "delivered to itself in process")
		out := net.all()
		require.Len(t, out, 2)
		for i, to := range []ids.NodeID{peer, other} {
			require.Equal(t, to, out[i].to)
			require.Equal(t, wire.OpPullQuery, out[i].op)
			require.Equal(t, wire.Chain{ChainID: chain, RequestID: 7, Deadline: uint64(200 * time.Millisecond), ContainerID: ids.ID{0xaa}, RequestedHeight: 4}, *out[i].msg)
		}

		// This node's own Chits go through the router too.
		s.SendChits(context.Background(), self, 7, ids.ID{1}, ids.ID{2}, ids.ID{3}, 9)
		require.Equal(t, "Chits "+self.String()+" 7 01 02 03 9", c.next(t))
		chits := inbound(wire.OpChits, wire.Chain{RequestID: 7, PreferredID: ids.ID{4}, PreferredIDAtHeight: ids.ID{5}, AcceptedID: ids.ID{6}, AcceptedHeight: 3})
		r.HandleInbound(peer, chits)
		require.Equal(t, "Chits "+peer.String()+" 7 04 05 06 3", c.next(t))
		r.HandleInbound(peer, chits)
		require.Equal(t, "QueryFailed "+other.String()+" 7", c.next(t), "the duplicate is dropped; other times out")
		c.none(t)
		require.Equal(t, 1.0, testutil.ToFloat64(r.metrics.dropped.WithLabelValues(reasonUnrequested)))
		require.Equal(t, 1.0, testutil.ToFloat64(r.metrics.timeouts.WithLabelValues("chits")))
	})
}

// Every Get ends in Put or GetFailed: answered, unsendable, timed out, or its peer gone.
func TestGetEnds(t *testing.T) {
	t.Parallel()
	r, net, _ := newRouter(t, waitFor)
	c := newTestChain(t, 10, false)
	s, err := r.Register(chain, c)
	require.NoError(t, err)
	ctx := context.Background()

	s.SendGet(ctx, peer, 1, ids.ID{0x11})
	r.HandleInbound(peer, inbound(wire.OpPut, wire.Chain{RequestID: 1, Container: []byte("b1")}))
	require.Equal(t, "Put "+peer.String()+" 1 b1", c.next(t))

	net.down[ids.NodeID{5}] = true
	s.SendGet(ctx, ids.NodeID{5}, 2, ids.ID{0x22})
	require.Equal(t, "GetFailed "+ids.NodeID{5}.String()+" 2", c.next(t), "not sendable: fails at once")

	s.SendGet(ctx, peer, 3, ids.ID{0x33})
	r.Disconnected(peer)
	require.Equal(t, "GetFailed "+peer.String()+" 3", c.next(t), "the peer left")

	// A Put from another node than the one asked does not answer the Get.
	s.SendGet(ctx, peer, 4, ids.ID{0x44})
	r.HandleInbound(ids.NodeID{6}, inbound(wire.OpPut, wire.Chain{RequestID: 4}))
	c.none(t)
	r.Disconnected(peer)
	require.Equal(t, "GetFailed "+peer.String()+" 4", c.next(t))

	// Gets to this node are answered in process.
	s.SendGet(ctx, self, 5, ids.ID{0x55})
	require.Equal(t, "Get "+self.String()+" 5 55", c.next(t))
	s.SendPut(ctx, self, 5, []byte("b5"))
	require.Equal(t, "Put "+self.String()+" 5 b5", c.next(t))
}

// An answer is delivered even when the chain's queue is full: it waits for room.
func TestAnswerWaitsForRoom(t *testing.T) {
	t.Parallel()
	r, _, _ := newRouter(t, waitFor)
	c := newTestChain(t, 1, false)
	blocked := make(chan struct{})
	c.inbox <- func(context.Context, Handler) error { <-blocked; return nil }
	c.inbox <- func(context.Context, Handler) error { return nil } // the queue is full now
	s, err := r.Register(chain, c)
	require.NoError(t, err)
	s.SendGet(context.Background(), peer, 1, ids.ID{1})
	r.HandleInbound(peer, inbound(wire.OpPut, wire.Chain{RequestID: 1, Container: []byte("b")}))
	close(blocked)
	require.Equal(t, "Put "+peer.String()+" 1 b", c.next(t))
}

// Bootstrapping answers reach a handler that bootstraps; their failures too. Time is virtual
// (synctest): each answer comes before the 100 ms timeout however loaded the machine.
func TestBootstrappingMessages(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		r, net, _ := newRouter(t, 100*time.Millisecond)
		c := newTestChain(t, 10, true)
		s, err := r.Register(chain, c)
		require.NoError(t, err)
		ctx := context.Background()

		s.SendGetAcceptedFrontier(ctx, []ids.NodeID{peer}, 1)
		r.HandleInbound(peer, inbound(wire.OpAcceptedFrontier, wire.Chain{RequestID: 1, ContainerID: ids.ID{0x77}}))
		require.Equal(t, "AcceptedFrontier "+peer.String()+" 1 77", c.next(t))
		s.SendGetAccepted(ctx, []ids.NodeID{peer}, 2, []ids.ID{{1}, {2}})
		r.HandleInbound(peer, inbound(wire.OpAccepted, wire.Chain{RequestID: 2, ContainerIDs: []ids.ID{{1}}}))
		require.Equal(t, "Accepted "+peer.String()+" 2 1", c.next(t))
		s.SendGetAncestors(ctx, peer, 3, ids.ID{3})
		last := net.all()[2]
		require.Equal(t, wire.OpGetAncestors, last.op)
		require.Equal(t, uint32(wire.EngineTypeChain), last.msg.EngineType)
		r.HandleInbound(peer, inbound(wire.OpAncestors, wire.Chain{RequestID: 3, Containers: [][]byte{{1}, {2}}}))
		require.Equal(t, "Ancestors "+peer.String()+" 3 2", c.next(t))

		s.SendGetAncestors(ctx, peer, 4, ids.ID{4})
		require.Equal(t, "GetAncestorsFailed "+peer.String()+" 4", c.next(t))
		s.SendGetAccepted(ctx, []ids.NodeID{peer}, 5, nil)
		require.Equal(t, "GetAcceptedFailed "+peer.String()+" 5", c.next(t))
		s.SendGetAcceptedFrontier(ctx, []ids.NodeID{peer}, 6)
		require.Equal(t, "GetAcceptedFrontierFailed "+peer.String()+" 6", c.next(t))

		// Answers to this node's own requests.
		s.SendGetAcceptedFrontier(ctx, []ids.NodeID{self}, 7)
		require.Equal(t, "GetAcceptedFrontier "+self.String()+" 7", c.next(t))
		s.SendAcceptedFrontier(ctx, self, 7, ids.ID{0x78})
		require.Equal(t, "AcceptedFrontier "+self.String()+" 7 78", c.next(t))
		s.SendGetAccepted(ctx, []ids.NodeID{self}, 8, []ids.ID{{1}})
		require.Equal(t, "GetAccepted "+self.String()+" 8 1", c.next(t))
		s.SendAccepted(ctx, self, 8, nil)
		require.Equal(t, "Accepted "+self.String()+" 8 0", c.next(t))
		s.SendGetAncestors(ctx, self, 9, ids.ID{9})
		require.Equal(t, "GetAncestors "+self.String()+" 9 09", c.next(t))
		s.SendAncestors(ctx, self, 9, [][]byte{{1}})
		require.Equal(t, "Ancestors "+self.String()+" 9 1", c.next(t))
	})
}

// A handler in normal operation gets no bootstrapping answer, even to a request it was sent
// for (it moved on since).
func TestBootstrappingAnswersAfterBootstrap(t *testing.T) {
	t.Parallel()
	r, _, _ := newRouter(t, waitFor)
	c := newTestChain(t, 10, false)
	s, err := r.Register(chain, c)
	require.NoError(t, err)
	s.SendGetAncestors(context.Background(), peer, 1, ids.ID{1})
	r.HandleInbound(peer, inbound(wire.OpAncestors, wire.Chain{RequestID: 1}))
	c.none(t)
}

func FuzzHandleInbound(f *testing.F) {
	f.Add(uint8(wire.OpChits), inbound(wire.OpChits, wire.Chain{RequestID: 1}).Body)
	f.Add(uint8(wire.OpPushQuery), inbound(wire.OpPushQuery, wire.Chain{Container: []byte{1}}).Body)
	f.Add(uint8(wire.OpAppRequest), wire.NewApp(wire.OpAppRequest, &wire.App{ChainID: chain, Deadline: 1, AppBytes: []byte{2}}).Body)
	f.Add(uint8(wire.OpAppError), wire.NewApp(wire.OpAppError, &wire.App{ChainID: chain, ErrorCode: -1}).Body)
	f.Add(uint8(wire.OpAppGossip), wire.NewApp(wire.OpAppGossip, &wire.App{ChainID: chain, AppBytes: []byte{0, 0x0a, 1, 2}}).Body)
	f.Fuzz(func(t *testing.T, op uint8, body []byte) {
		// Answers go nowhere: only app answers are sent here (a chain message would panic).
		net := node{net: &appNet{routers: map[ids.NodeID]*Router{}}, from: self}
		r, err := New(Config{NodeID: self}, Deps{Network: net, Apps: appsOf{chain: newGossipApp()}})
		require.NoError(t, err)
		defer r.Close()
		c := &testChain{inbox: make(chan Message, 1)}
		_, err = r.Register(chain, c)
		require.NoError(t, err)
		r.HandleInbound(peer, &wire.Message{Op: wire.Op(op), Body: body})
	})
}

// connChain is a testChain that hears of connections.
type connChain struct {
	*testChain
	news chan string
}

func (c connChain) Connected(_ context.Context, nodeID ids.NodeID) error {
	c.news <- "connected " + nodeID.String()
	return nil
}

func (c connChain) Disconnected(_ context.Context, nodeID ids.NodeID) error {
	c.news <- "disconnected " + nodeID.String()
	return nil
}

// A chain that implements Connections hears of the peers connected when it registers, then of
// each change; a chain that does not is not bothered.
func TestConnections(t *testing.T) {
	t.Parallel()
	r, _, _ := newRouter(t, waitFor)
	other := ids.NodeID{3}
	r.Connected(peer)
	r.Connected(other)
	r.Disconnected(other)
	c := connChain{testChain: newTestChain(t, 10, true), news: make(chan string, 10)}
	_, err := r.Register(chain, c)
	require.NoError(t, err)
	_, err = r.Register(ids.ID{8}, newTestChain(t, 10, false))
	require.NoError(t, err)
	require.Equal(t, "connected "+peer.String(), <-c.news)
	r.Connected(other)
	r.Disconnected(peer)
	require.Equal(t, "connected "+other.String(), <-c.news)
	require.Equal(t, "disconnected "+peer.String(), <-c.news)
	require.Empty(t, c.news)
}
