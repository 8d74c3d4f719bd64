package network

import (
	"context"
	"crypto/tls"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/crypto/bls"
	"github.com/cornice-node/cornice/crypto/staking"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/network/wire"
)

const testNetworkID = 12345

// waitFor is how long a test waits for peers to reach a state on loopback.
const waitFor = 30 * time.Second

func newCert(tb testing.TB) *tls.Certificate {
	tb.Helper()
	keyPEM, certPEM, err := staking.NewCertificate(time.Now())
	require.NoError(tb, err)
	cert, err := tls.X509KeyPair(certPEM, keyPEM)
	require.NoError(tb, err)
	return &cert
}

// recorder is a Handler that records what it is told.
type recorder struct {
	mu        sync.Mutex
	connected map[ids.NodeID][]ids.ID
	events    []string
	inbound   []wire.Op
}

func (r *recorder) Connected(nodeID ids.NodeID, subnets []ids.ID) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.connected[nodeID] = subnets
	r.events = append(r.events, "connected "+nodeID.String())
}

func (r *recorder) Disconnected(nodeID ids.NodeID) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.connected, nodeID)
	r.events = append(r.events, "disconnected "+nodeID.String())
}

func (r *recorder) HandleInbound(_ ids.NodeID, m *wire.Message) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.inbound = append(r.inbound, m.Op)
}

func (r *recorder) isConnected(nodeID ids.NodeID) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, ok := r.connected[nodeID]
	return ok
}

// weights is a Validators of fixed Primary Network weights, with optional BLS keys.
type weights struct {
	w    map[ids.NodeID]uint64
	keys map[ids.NodeID]*bls.PublicKey
}

func (v weights) GetWeight(subnetID ids.ID, nodeID ids.NodeID) uint64 {
	if subnetID != ids.Empty {
		return 0
	}
	return v.w[nodeID]
}

func (v weights) TotalWeight(ids.ID) (uint64, error) {
	var t uint64
	for _, w := range v.w {
		t += w
	}
	return t, nil
}

type fixedUptime uint32

func (u fixedUptime) UptimePercent(ids.NodeID) uint32 { return uint32(u) }

// testNode is a running network for tests.
type testNode struct {
	*Network
	handler *recorder
	reg     *prometheus.Registry
	addr    netip.AddrPort
	cancel  context.CancelFunc
	done    chan error
}

type nodeOpts struct {
	cert       *tls.Certificate
	networkID  uint32
	boot       []*testNode
	clock      clock.Clock
	validators Validators
	listen     string
	cfg        func(*Config)
}

func startNode(t *testing.T, o nodeOpts) *testNode {
	t.Helper()
	if o.cert == nil {
		o.cert = newCert(t)
	}
	if o.networkID == 0 {
		o.networkID = testNetworkID
	}
	if o.listen == "" {
		o.listen = "127.0.0.1:0"
	}
	if o.validators == nil {
		o.validators = weights{}
	}
	sk, err := bls.NewSecretKey()
	require.NoError(t, err)
	// PingTimeout is long: the raw peers of the hostile tests never ping, and a loaded machine
	// can take seconds between their last message and a check that they are still connected.
	cfg := Config{
		NetworkID:         o.networkID,
		Cert:              o.cert,
		Signer:            sk,
		ListenAddr:        o.listen,
		PingFrequency:     100 * time.Millisecond,
		PingTimeout:       time.Minute,
		PeerListFrequency: 50 * time.Millisecond,
		MaxReconnectDelay: 300 * time.Millisecond,
		HandshakeTimeout:  2 * time.Second,
		UpgradeTime:       time.Unix(1_607_144_400, 0),
	}
	for _, b := range o.boot {
		cfg.Bootstrappers = append(cfg.Bootstrappers, Bootstrapper{NodeID: b.NodeID(), IP: b.addr})
	}
	if o.cfg != nil {
		o.cfg(&cfg)
	}
	h := &recorder{connected: map[ids.NodeID][]ids.ID{}}
	reg := prometheus.NewRegistry()
	n, err := New(cfg, Deps{Handler: h, Validators: o.validators, Uptimes: fixedUptime(77), Clock: o.clock, Metrics: reg, Log: testLog(t)})
	require.NoError(t, err)
	addr, err := n.Listen()
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	tn := &testNode{Network: n, handler: h, reg: reg, addr: addr.(*net.TCPAddr).AddrPort(), cancel: cancel, done: make(chan error, 1)}
	go func() { tn.done <- n.Run(ctx) }()
	t.Cleanup(tn.stop)
	return tn
}

// stop ends the node and waits for Run to return; stopping twice is harmless.
func (tn *testNode) stop() {
	tn.cancel()
	if tn.done != nil {
		<-tn.done
		tn.done = nil
	}
}

func (tn *testNode) peerIDs() []ids.NodeID {
	var out []ids.NodeID
	for _, p := range tn.Peers() {
		out = append(out, p.NodeID)
	}
	return out
}

func (tn *testNode) refusals(reason string) float64 {
	return testutil.ToFloat64(tn.metrics.refusals.WithLabelValues(reason))
}

func TestTwoNodesConnectPingAndDisconnect(t *testing.T) {
	t.Parallel()
	subnet := ids.ID{7}
	a := startNode(t, nodeOpts{cfg: func(c *Config) {
		c.TrackedSubnets = []ids.ID{subnet}
		c.SupportedACPs = []uint32{23, 99}
		c.ObjectedACPs = []uint32{24}
	}})
	b := startNode(t, nodeOpts{boot: []*testNode{a}, cfg: func(c *Config) { c.KnownACPs = []uint32{23, 24} }})

	require.Eventually(t, func() bool {
		return len(a.Peers()) == 1 && len(b.Peers()) == 1 && b.handler.isConnected(a.NodeID()) && a.handler.isConnected(b.NodeID())
	}, waitFor, 10*time.Millisecond)
	require.True(t, a.IsConnected(b.NodeID()))
	require.True(t, a.IsConnected(a.NodeID()), "a node counts as connected to itself")
	require.False(t, a.IsConnected(ids.NodeID{9}))

	p := b.Peers()[0]
	require.Equal(t, a.NodeID(), p.NodeID)
	require.Equal(t, a.addr, p.PublicIP)
	require.Equal(t, a.addr, p.IP, "b dialled a at its listening address")
	require.Equal(t, "cornice/1.14.2", p.Version)
	require.Equal(t, uint64(1_607_144_400), p.UpgradeTime)
	require.ElementsMatch(t, []ids.ID{ids.Empty, subnet}, p.TrackedSubnets)
	require.Equal(t, []uint32{23}, p.SupportedACPs, "filtered to the known ACPs")
	require.Equal(t, []uint32{24}, p.ObjectedACPs)
	require.ElementsMatch(t, []ids.ID{ids.Empty, subnet}, b.handler.connected[a.NodeID()])

	// Pings carry the sender's measured uptime (77) and are answered.
	require.Eventually(t, func() bool {
		ps := a.Peers()
		return len(ps) == 1 && ps[0].ObservedUptime == 77 && !ps[0].LastReceived.IsZero() && !ps[0].LastSent.IsZero()
	}, waitFor, 10*time.Millisecond)
	require.Eventually(t, func() bool {
		return testutil.CollectAndCount(a.metrics.rtt) == 1 && rttCount(t, a) > 0
	}, waitFor, 10*time.Millisecond)
	d, err := a.HealthCheck(context.Background())
	require.NoError(t, err)
	require.Equal(t, 1, d.(HealthDetails).ConnectedPeers)

	b.stop()
	require.Eventually(t, func() bool { return len(a.Peers()) == 0 && !a.handler.isConnected(b.NodeID()) }, waitFor, 10*time.Millisecond)
	a.handler.mu.Lock()
	require.Equal(t, []string{"connected " + b.NodeID().String(), "disconnected " + b.NodeID().String()}, a.handler.events)
	a.handler.mu.Unlock()
}

func rttCount(t *testing.T, n *testNode) uint64 {
	t.Helper()
	mfs, err := n.reg.Gather()
	require.NoError(t, err)
	for _, mf := range mfs {
		if mf.GetName() == "network_round_trip" {
			return mf.GetMetric()[0].GetSummary().GetSampleCount()
		}
	}
	return 0
}

// Each node knows one bootstrapper; gossip of IP claims connects everyone.
func TestGossipConnectsEveryone(t *testing.T) {
	t.Parallel()
	a := startNode(t, nodeOpts{})
	b := startNode(t, nodeOpts{boot: []*testNode{a}})
	c := startNode(t, nodeOpts{boot: []*testNode{b}})
	d := startNode(t, nodeOpts{boot: []*testNode{c}})
	all := []*testNode{a, b, c, d}
	require.Eventually(t, func() bool {
		for _, n := range all {
			if len(n.Peers()) != len(all)-1 {
				return false
			}
		}
		return true
	}, waitFor, 20*time.Millisecond, dump(all))
	for _, n := range all {
		for _, other := range all {
			if other != n {
				require.Contains(t, n.peerIDs(), other.NodeID())
			}
		}
	}
}

// A dropped peer is dialled again: b comes back once a restarts on the same address.
func TestReconnect(t *testing.T) {
	t.Parallel()
	cert := newCert(t)
	a := startNode(t, nodeOpts{cert: cert})
	b := startNode(t, nodeOpts{boot: []*testNode{a}})
	require.Eventually(t, func() bool { return len(b.Peers()) == 1 }, waitFor, 10*time.Millisecond)
	a.stop()
	require.Eventually(t, func() bool { return len(b.Peers()) == 0 }, waitFor, 10*time.Millisecond)
	a2 := startNode(t, nodeOpts{cert: cert, listen: a.addr.String()})
	require.Eventually(t, func() bool { return len(b.Peers()) == 1 && len(a2.Peers()) == 1 }, waitFor, 10*time.Millisecond, dump([]*testNode{b, a2}))
	require.Equal(t, a.NodeID(), b.Peers()[0].NodeID)
}

func TestRefusedPeers(t *testing.T) {
	t.Parallel()
	a := startNode(t, nodeOpts{})

	t.Run("wrong network ID", func(t *testing.T) {
		b := startNode(t, nodeOpts{networkID: 5, boot: []*testNode{a}})
		require.Eventually(t, func() bool { return a.refusals("wrong_network_ID") > 0 && b.refusals("wrong_network_ID") > 0 }, waitFor, 10*time.Millisecond)
		require.NotContains(t, a.peerIDs(), b.NodeID())
		require.Empty(t, b.Peers())
	})
	t.Run("clock two minutes ahead", func(t *testing.T) {
		b := startNode(t, nodeOpts{clock: clock.NewFake(time.Now().Add(2 * time.Minute)), boot: []*testNode{a}})
		require.Eventually(t, func() bool { return a.refusals("clock_difference_too_large") > 0 }, waitFor, 10*time.Millisecond)
		require.NotContains(t, a.peerIDs(), b.NodeID())
	})
	t.Run("duplicate NodeID", func(t *testing.T) {
		cert := newCert(t)
		b1 := startNode(t, nodeOpts{cert: cert, boot: []*testNode{a}})
		require.Eventually(t, func() bool { return len(b1.Peers()) == 1 }, waitFor, 10*time.Millisecond)
		b2 := startNode(t, nodeOpts{cert: cert, boot: []*testNode{a}})
		require.Eventually(t, func() bool { return a.refusals("already_connected_to_this_node") > 0 }, waitFor, 10*time.Millisecond)
		require.Empty(t, b2.Peers())
		require.Len(t, b1.Peers(), 1)
	})
	t.Run("another node at the dialled address", func(t *testing.T) {
		b := startNode(t, nodeOpts{cfg: func(c *Config) {
			c.Bootstrappers = []Bootstrapper{{NodeID: ids.NodeID{1}, IP: a.addr}}
		}})
		// b aborts the TLS handshake on a's certificate: a never sees b as a peer.
		require.Eventually(t, func() bool { return testutil.ToFloat64(a.metrics.tlsRejected) > 0 }, waitFor, 10*time.Millisecond)
		require.Empty(t, b.Peers())
		require.NotContains(t, a.peerIDs(), b.NodeID())
	})
	t.Run("non-validator when validators are required", func(t *testing.T) {
		strict := startNode(t, nodeOpts{cfg: func(c *Config) { c.RequireValidatorToConnect = true }})
		b := startNode(t, nodeOpts{boot: []*testNode{strict}})
		require.Eventually(t, func() bool { return strict.refusals("connection_not_allowed") > 0 }, waitFor, 10*time.Millisecond)
		require.Empty(t, b.Peers())
	})
}

// A validator's IP claim must carry a BLS signature by its registered key.
func TestBLSSignatureOfValidators(t *testing.T) {
	t.Parallel()
	bCert := newCert(t)
	bID := staking.NodeIDFromCert(bCert.Leaf.Raw)
	other, err := bls.NewSecretKey()
	require.NoError(t, err)
	// a expects b's claim signed by another key than the one b has.
	a := startNode(t, nodeOpts{validators: weights{
		w:    map[ids.NodeID]uint64{bID: 10},
		keys: map[ids.NodeID]*bls.PublicKey{bID: other.PublicKey()},
	}})
	startNode(t, nodeOpts{cert: bCert, boot: []*testNode{a}})
	require.Eventually(t, func() bool { return a.refusals("invalid_BLS_signature") > 0 }, waitFor, 10*time.Millisecond)
	require.Empty(t, a.Peers())
}

func (v weights) BLSPublicKey(nodeID ids.NodeID) *bls.PublicKey { return v.keys[nodeID] }

// A lone node (no bootstrappers, no other validator) is healthy; a node with a bootstrapper it
// cannot reach is not.
func TestHealth(t *testing.T) {
	t.Parallel()
	lone := startNode(t, nodeOpts{})
	_, err := lone.HealthCheck(context.Background())
	require.NoError(t, err)

	gone := startNode(t, nodeOpts{})
	gone.stop()
	clk := clock.NewFake(time.Now())
	waiting := startNode(t, nodeOpts{clock: clk, boot: []*testNode{gone}})
	_, err = waiting.HealthCheck(context.Background())
	require.ErrorContains(t, err, "connected to 0 peers; the minimum is 1")

	// Without a message either way for over a minute since Run, both message checks fail too.
	clk.Advance(2 * time.Minute)
	d, err := waiting.HealthCheck(context.Background())
	require.ErrorContains(t, err, "no messages received from the network in 2m0s")
	require.ErrorContains(t, err, "no messages sent to the network in 2m0s")
	require.Equal(t, "2m0s", d.(HealthDetails).TimeSinceLastMsgReceived)

	// A connected node whose sends mostly fail (full peer queues) is unhealthy.
	peer := startNode(t, nodeOpts{boot: []*testNode{lone}})
	require.Eventually(t, func() bool { return len(peer.Peers()) == 1 }, waitFor, 10*time.Millisecond)
	_, err = peer.HealthCheck(context.Background())
	require.NoError(t, err)
	peer.failedCount.Add(100 * (peer.sentCount.Load() + 1))
	d, err = peer.HealthCheck(context.Background())
	require.ErrorContains(t, err, "send fail rate")
	require.Greater(t, d.(HealthDetails).SendFailRate, 0.9)
}

func TestConfigErrors(t *testing.T) {
	t.Parallel()
	_, err := New(Config{TrackedSubnets: make([]ids.ID, 17), SupportedACPs: []uint32{1}, ObjectedACPs: []uint32{1}}, Deps{})
	require.ErrorContains(t, err, "a NetworkID is required")
	require.ErrorContains(t, err, "a Cert with its Leaf is required")
	require.ErrorContains(t, err, "at most 16 tracked subnets, not 17")
	require.ErrorContains(t, err, "ACP 1 is both supported and objected to")
	require.ErrorContains(t, err, "Deps.Handler is required")
}

func testLog(t *testing.T) *slog.Logger {
	if os.Getenv("NETWORK_TEST_LOG") == "" {
		return nil
	}
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

func dump(nodes []*testNode) string {
	out := ""
	for _, n := range nodes {
		n.mu.Lock()
		out += fmt.Sprintf("%s: peers %d connected %d\n", n.nodeID, len(n.peers), len(n.connected))
		for id, k := range n.known {
			_, isPeer := n.peers[id]
			out += fmt.Sprintf("  %s claim=%v dialing=%v peer=%v\n", id, k.claim != nil, k.dialing, isPeer)
		}
		n.mu.Unlock()
	}
	return out
}

// Peers keeps connection order, and a leaving peer's slot takes the last one (docs/api.md
// info.peers, as the reference's peer set).
func TestPeersOrder(t *testing.T) {
	t.Parallel()
	a := startNode(t, nodeOpts{})
	var others []*testNode
	for i := range 3 {
		o := startNode(t, nodeOpts{boot: []*testNode{a}})
		require.Eventually(t, func() bool { return len(a.Peers()) == i+1 }, waitFor, 10*time.Millisecond)
		others = append(others, o)
	}
	others[0].stop()
	require.Eventually(t, func() bool { return len(a.Peers()) == 2 }, waitFor, 10*time.Millisecond)
	ps := a.Peers()
	require.Equal(t, []ids.NodeID{others[2].NodeID(), others[1].NodeID()}, []ids.NodeID{ps[0].NodeID, ps[1].NodeID})
}

// Send delivers a chain message to a connected peer's handler; to itself, to an unknown node
// and before the handshake it sends nothing.
func TestSend(t *testing.T) {
	t.Parallel()
	a := startNode(t, nodeOpts{})
	b := startNode(t, nodeOpts{boot: []*testNode{a}})
	require.False(t, a.Send(a.NodeID(), wire.NewChain(wire.OpGet, &wire.Chain{})), "the router delivers to itself")
	require.False(t, a.Send(ids.NodeID{9}, wire.NewChain(wire.OpGet, &wire.Chain{})))
	require.Eventually(t, func() bool { return b.handler.isConnected(a.NodeID()) && a.handler.isConnected(b.NodeID()) }, waitFor, 10*time.Millisecond)
	require.True(t, a.Send(b.NodeID(), wire.NewChain(wire.OpPullQuery, &wire.Chain{RequestID: 4})))
	require.Eventually(t, func() bool {
		b.handler.mu.Lock()
		defer b.handler.mu.Unlock()
		return slices.Contains(b.handler.inbound, wire.OpPullQuery)
	}, waitFor, 10*time.Millisecond)
}
