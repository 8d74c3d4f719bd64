package router

import (
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/network/wire"
)

// gossipApp is an AppHandler that takes gossip onto a channel.
type gossipApp struct {
	appFunc
	got chan string
}

func (g gossipApp) AppGossip(from ids.NodeID, b []byte) { g.got <- from.String() + ":" + string(b) }

func newGossipApp() gossipApp {
	return gossipApp{appFunc: echo(nil), got: make(chan string, 10)}
}

// AppGossip goes to every connected validator of the chain, over the wire, and reaches the
// peer's gossip handler for the chain; a peer that is not a validator is skipped.
func TestAppGossipDelivered(t *testing.T) {
	t.Parallel()
	net := &appNet{routers: map[ids.NodeID]*Router{}}
	g := newGossipApp()
	third := ids.NodeID{9}
	r, err := New(Config{NodeID: self}, Deps{Network: node{net: net, from: self}, Apps: appsOf{chain: echo(nil)},
		Weights: func(_ ids.ID, nodeID ids.NodeID) (uint64, uint64) {
			if nodeID == third {
				return 0, 10
			}
			return 5, 10
		}})
	require.NoError(t, err)
	t.Cleanup(r.Close)
	newAppRouter(t, net, peer, appsOf{chain: g}, waitFor)
	newAppRouter(t, net, third, appsOf{chain: newGossipApp()}, waitFor)

	require.Zero(t, r.AppGossip(chain, []byte("x")), "no peer connected yet")
	r.Connected(peer)
	r.Connected(third)
	require.Equal(t, 1, r.AppGossip(chain, []byte{0, 1, 2}))
	require.Equal(t, self.String()+":"+string([]byte{0, 1, 2}), <-g.got)
	out := net.all()
	require.Len(t, out, 1)
	require.Equal(t, sentApp{from: self, to: peer, op: wire.OpAppGossip, app: &wire.App{ChainID: chain, AppBytes: []byte{0, 1, 2}}}, out[0])

	r.Disconnected(peer)
	require.Zero(t, r.AppGossip(chain, []byte("x")), "a disconnected peer is not gossiped to")
}

// Gossip that cannot be taken is dropped and counted: malformed, too large, for a chain this
// node does not run, or whose handler takes no gossip; none reaches a handler.
func TestAppGossipDropped(t *testing.T) {
	t.Parallel()
	g := newGossipApp()
	other := ids.ID{4}
	r, err := New(Config{NodeID: self}, Deps{Network: node{net: &appNet{routers: map[ids.NodeID]*Router{}}, from: self},
		Apps: appsOf{chain: g, other: echo(nil)}})
	require.NoError(t, err)
	t.Cleanup(r.Close)
	gossip := func(chainID ids.ID, b []byte) {
		r.HandleInbound(peer, wire.NewApp(wire.OpAppGossip, &wire.App{ChainID: chainID, AppBytes: b}))
	}
	r.HandleInbound(peer, &wire.Message{Op: wire.OpAppGossip, Body: []byte{0x10, 0x01}})
	gossip(chain, make([]byte, MaxAppGossipBytes+1))
	gossip(ids.ID{5}, []byte("x"))
	gossip(other, []byte("x"))
	for reason, n := range map[string]float64{reasonMalformed: 1, reasonTooLarge: 1, reasonUnknownChain: 2} {
		require.Equal(t, n, testutil.ToFloat64(r.metrics.dropped.WithLabelValues(reason)), reason)
	}
	gossip(chain, []byte("ok"))
	select {
	case got := <-g.got:
		require.Equal(t, peer.String()+":ok", got, "only the good one arrives")
	case <-time.After(waitFor):
		t.Fatal("gossip not delivered")
	}
}
