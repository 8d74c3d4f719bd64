package network

import (
	"context"
	"net/netip"
	"testing"
	"time"

	refids "github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/message"
	refpeer "github.com/ava-labs/avalanchego/network/peer"
	"github.com/ava-labs/avalanchego/snow/networking/router"
	"github.com/ava-labs/avalanchego/utils/bloom"
	"github.com/ava-labs/avalanchego/utils/compression"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/network/wire"
)

// The reference's own peer implementation (avalanchego v1.14.2, network/peer.StartTestPeer)
// dials a cornice node: both handshakes complete, our Pings reach it with our uptime and its Pongs
// come back, its zstd-compressed messages reach the handler, and our PeerList answers its
// GetPeerList.
func TestReferencePeerConnects(t *testing.T) {
	t.Parallel()
	a := startNode(t, nodeOpts{})
	b := startNode(t, nodeOpts{boot: []*testNode{a}})
	require.Eventually(t, func() bool { return len(a.Peers()) == 1 }, waitFor, 10*time.Millisecond)

	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	ref, err := refpeer.StartTestPeer(ctx, a.addr, testNetworkID, router.InboundHandlerFunc(func(context.Context, *message.InboundMessage) {}))
	require.NoError(t, err)
	require.Equal(t, a.NodeID(), ids.NodeID(ref.ID()), "the reference peer's remote is a")

	// The reference peer is a's peer other than b.
	var got Peer
	require.Eventually(t, func() bool {
		for _, p := range a.Peers() {
			if p.NodeID != b.NodeID() {
				got = p
			}
		}
		return got.NodeID != ids.EmptyNodeID
	}, waitFor, 10*time.Millisecond)
	refID := got.NodeID
	// The peer is listed as soon as both PeerLists have crossed; the handler hears of it just after.
	require.Eventually(t, func() bool { return a.handler.isConnected(refID) }, waitFor, 10*time.Millisecond)
	require.Equal(t, "avalanchego/1.14.2", got.Version)
	require.Equal(t, netip.AddrPortFrom(netip.IPv6Loopback(), 1), got.PublicIP, "the test peer's signed claim")
	require.Equal(t, []ids.ID{ids.Empty}, got.TrackedSubnets)

	// The reference peer sees us as connected, with our version, and records the uptime our
	// Pings carry; its Pongs answer them.
	info := ref.Info()
	require.Equal(t, "cornice/1.14.2", info.Version)
	require.Equal(t, a.addr, info.PublicIP)
	require.Eventually(t, func() bool { return ref.ObservedUptime() == 77 }, waitFor, 10*time.Millisecond)
	require.Eventually(t, func() bool { return rttCount(t, a) > 0 }, waitFor, 10*time.Millisecond)

	// A compressed chain message reaches the handler.
	mc, err := message.NewCreator(prometheus.NewRegistry(), compression.TypeZstd, 10*time.Second)
	require.NoError(t, err)
	gossip, err := mc.AppGossip(refids.GenerateTestID(), make([]byte, 4096))
	require.NoError(t, err)
	require.True(t, ref.Send(ctx, gossip))
	require.Eventually(t, func() bool {
		a.handler.mu.Lock()
		defer a.handler.mu.Unlock()
		return len(a.handler.inbound) == 1 && a.handler.inbound[0] == 32
	}, waitFor, 10*time.Millisecond)

	// Asked for peers with an empty filter, we send b's claim.
	sentLists := func() float64 {
		return testutil.ToFloat64(a.metrics.msgs.WithLabelValues(wire.OpPeerList.String(), "sent"))
	}
	before := sentLists()
	gpl, err := mc.GetPeerList(bloom.EmptyFilter.Marshal(), nil, false)
	require.NoError(t, err)
	require.True(t, ref.Send(ctx, gpl))
	// At least one: b's own GetPeerList, every PeerListFrequency, may be answered in the
	// meantime (the first with the reference peer's claim), and a count seen only past
	// before+1 must not fail the test.
	require.Eventually(t, func() bool { return sentLists() >= before+1 }, waitFor, 10*time.Millisecond)
	require.Eventually(t, func() bool { return b.IsConnected(a.NodeID()) }, waitFor, 10*time.Millisecond)

	ref.StartClose()
	require.NoError(t, ref.AwaitClosed(ctx))
	require.Eventually(t, func() bool { return !a.IsConnected(refID) && !a.handler.isConnected(refID) }, waitFor, 10*time.Millisecond)
}

// A reference peer of another network never connects.
func TestReferencePeerWrongNetwork(t *testing.T) {
	t.Parallel()
	a := startNode(t, nodeOpts{})
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	_, err := refpeer.StartTestPeer(ctx, a.addr, 5, router.InboundHandlerFunc(func(context.Context, *message.InboundMessage) {}))
	require.Error(t, err)
	// Whichever side reads the other's Handshake first closes the connection.
	require.Eventually(t, func() bool {
		a.mu.Lock()
		defer a.mu.Unlock()
		return len(a.peers) == 0
	}, waitFor, 10*time.Millisecond)
	require.Empty(t, a.Peers())
	require.Empty(t, a.handler.events)
}
