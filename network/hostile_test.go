package network

import (
	"bufio"
	"crypto"
	"crypto/tls"
	"encoding/binary"
	"errors"
	"net"
	"net/netip"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/crypto/bls"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/network/bloom"
	"github.com/cornice-node/cornice/network/wire"
)

// rawPeer is a hand-driven TLS connection to a node, for sending what a correct peer never would.
type rawPeer struct {
	conn *tls.Conn
	cert *tls.Certificate
	sk   *bls.SecretKey
}

func dialRaw(t *testing.T, to *testNode) *rawPeer {
	t.Helper()
	cert := newCert(t)
	conn, err := tls.Dial("tcp", to.addr.String(), tlsConfig(cert))
	require.NoError(t, err)
	t.Cleanup(func() { _ = conn.Close() })
	sk, err := bls.NewSecretKey()
	require.NoError(t, err)
	return &rawPeer{conn: conn, cert: cert, sk: sk}
}

func (r *rawPeer) writeFrame(t *testing.T, b []byte) {
	t.Helper()
	w := bufio.NewWriter(r.conn)
	require.NoError(t, wire.WriteFrame(w, b))
	require.NoError(t, w.Flush())
}

// handshake returns a valid Handshake of this peer, changed by modify.
func (r *rawPeer) handshake(t testing.TB, modify func(*wire.Handshake)) []byte {
	t.Helper()
	addr := netip.MustParseAddrPort("127.0.0.1:7")
	ip, err := signIP(addr, time.Now(), r.cert.PrivateKey.(crypto.Signer), r.sk)
	require.NoError(t, err)
	f, err := bloom.New(1, 1)
	require.NoError(t, err)
	client := ProtocolVersion
	h := &wire.Handshake{
		NetworkID: testNetworkID, MyTime: uint64(time.Now().Unix()),
		IPAddr: addrToWire(addr), IPPort: 7, IPSigningTime: ip.timestamp, IPNodeIDSig: ip.tlsSig,
		Client: &client, KnownPeers: &wire.BloomFilter{Filter: f.Marshal()}, IPBLSSig: ip.blsSig,
	}
	if modify != nil {
		modify(h)
	}
	return (&wire.Message{Op: wire.OpHandshake, Handshake: h}).Marshal()
}

// closedWithin reports whether the node closes the connection, reading and discarding what it
// sends meanwhile.
func (r *rawPeer) closed(t *testing.T) bool {
	t.Helper()
	require.NoError(t, r.conn.SetReadDeadline(time.Now().Add(waitFor)))
	buf := make([]byte, 4096)
	for {
		if _, err := r.conn.Read(buf); err != nil {
			var ne net.Error
			return !(asNetErr(err, &ne) && ne.Timeout())
		}
	}
}

func asNetErr(err error, target *net.Error) bool { return errors.As(err, target) }

// Each hostile input closes the connection (or is skipped) and is counted; the node keeps
// serving a good peer afterwards.
func TestHostilePeers(t *testing.T) {
	t.Parallel()
	a := startNode(t, nodeOpts{})
	tests := []struct {
		name   string
		send   func(t *testing.T, r *rawPeer)
		reason string
	}{
		{name: "oversize length", reason: "message_too_large", send: func(t *testing.T, r *rawPeer) {
			_, err := r.conn.Write(binary.BigEndian.AppendUint32(nil, wire.MaxMessageSize+1))
			require.NoError(t, err)
		}},
		{name: "second handshake", reason: "second_handshake", send: func(t *testing.T, r *rawPeer) {
			r.writeFrame(t, r.handshake(t, nil))
			r.writeFrame(t, r.handshake(t, nil))
		}},
		{name: "bad IP signature", reason: "invalid_IP_claim", send: func(t *testing.T, r *rawPeer) {
			r.writeFrame(t, r.handshake(t, func(h *wire.Handshake) { h.IPNodeIDSig = []byte{1, 2, 3} }))
		}},
		{name: "claim signed in the future", reason: "invalid_IP_claim", send: func(t *testing.T, r *rawPeer) {
			r.writeFrame(t, r.handshake(t, func(h *wire.Handshake) { h.IPSigningTime += 3600 }))
		}},
		{name: "port 0", reason: "invalid_IP", send: func(t *testing.T, r *rawPeer) {
			r.writeFrame(t, r.handshake(t, func(h *wire.Handshake) { h.IPPort = 0 }))
		}},
		{name: "17 subnets", reason: "too_many_tracked_subnets", send: func(t *testing.T, r *rawPeer) {
			r.writeFrame(t, r.handshake(t, func(h *wire.Handshake) { h.TrackedSubnets = make([][]byte, 17) }))
		}},
		{name: "short subnet ID", reason: "invalid_tracked_subnet", send: func(t *testing.T, r *rawPeer) {
			r.writeFrame(t, r.handshake(t, func(h *wire.Handshake) { h.TrackedSubnets = [][]byte{{1}} }))
		}},
		{name: "ACP supported and objected", reason: "ACP_both_supported_and_objected_to", send: func(t *testing.T, r *rawPeer) {
			r.writeFrame(t, r.handshake(t, func(h *wire.Handshake) { h.SupportedACPs, h.ObjectedACPs = []uint32{5}, []uint32{5} }))
		}},
		{name: "bad filter", reason: "invalid_known_peers_filter", send: func(t *testing.T, r *rawPeer) {
			r.writeFrame(t, r.handshake(t, func(h *wire.Handshake) { h.KnownPeers.Filter = []byte{0} }))
		}},
		{name: "long salt", reason: "invalid_known_peers_filter", send: func(t *testing.T, r *rawPeer) {
			r.writeFrame(t, r.handshake(t, func(h *wire.Handshake) { h.KnownPeers.Salt = make([]byte, 33) }))
		}},
		{name: "old version", reason: "incompatible_version", send: func(t *testing.T, r *rawPeer) {
			r.writeFrame(t, r.handshake(t, func(h *wire.Handshake) { h.Client = &wire.Client{Name: "x", Major: 1, Minor: 13} }))
		}},
		{name: "newer major", reason: "incompatible_version", send: func(t *testing.T, r *rawPeer) {
			r.writeFrame(t, r.handshake(t, func(h *wire.Handshake) { h.Client = &wire.Client{Name: "x", Major: 2} }))
		}},
		{name: "bad BLS bytes", reason: "invalid_BLS_signature", send: func(t *testing.T, r *rawPeer) {
			r.writeFrame(t, r.handshake(t, func(h *wire.Handshake) { h.IPBLSSig = []byte{1} }))
		}},
		{name: "peer list before handshake", reason: "peer_list_before_handshake", send: func(t *testing.T, r *rawPeer) {
			r.writeFrame(t, (&wire.Message{Op: wire.OpPeerList, PeerList: &wire.PeerList{}}).Marshal())
		}},
		{name: "unexpected pong", reason: "unexpected_pong", send: func(t *testing.T, r *rawPeer) {
			r.writeFrame(t, r.handshake(t, nil))
			r.writeFrame(t, (&wire.Message{Op: wire.OpPeerList, PeerList: &wire.PeerList{}}).Marshal())
			r.writeFrame(t, (&wire.Message{Op: wire.OpPong, Pong: &wire.Pong{}}).Marshal())
		}},
		{name: "uptime above 100", reason: "uptime_above_100", send: func(t *testing.T, r *rawPeer) {
			r.writeFrame(t, r.handshake(t, nil))
			r.writeFrame(t, (&wire.Message{Op: wire.OpPeerList, PeerList: &wire.PeerList{}}).Marshal())
			r.writeFrame(t, (&wire.Message{Op: wire.OpPing, Ping: &wire.Ping{Uptime: 101}}).Marshal())
		}},
		{name: "bad claim in peer list", reason: "invalid_IP_claim", send: func(t *testing.T, r *rawPeer) {
			r.writeFrame(t, r.handshake(t, nil))
			// A claim of a node the target does not know, so one it verifies.
			r.writeFrame(t, (&wire.Message{Op: wire.OpPeerList, PeerList: &wire.PeerList{Claims: []wire.ClaimedIPPort{{
				Certificate: newCert(t).Leaf.Raw, IPAddr: []byte{1, 2, 3, 4}, IPPort: 9, Timestamp: uint64(time.Now().Unix()), Signature: []byte{9},
			}}}}).Marshal())
		}},
		{name: "bad claim among good ones", reason: "invalid_IP_claim", send: func(t *testing.T, r *rawPeer) {
			r.writeFrame(t, r.handshake(t, nil))
			claims := signedClaims(t, 40, time.Now())
			claims[23].Signature = claims[22].Signature
			r.writeFrame(t, (&wire.Message{Op: wire.OpPeerList, PeerList: &wire.PeerList{Claims: claims}}).Marshal())
		}},
		{name: "claim signed in the future in peer list", reason: "invalid_IP_claim", send: func(t *testing.T, r *rawPeer) {
			r.writeFrame(t, r.handshake(t, nil))
			claims := signedClaims(t, 1, time.Now().Add(time.Hour))
			r.writeFrame(t, (&wire.Message{Op: wire.OpPeerList, PeerList: &wire.PeerList{Claims: claims}}).Marshal())
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := dialRaw(t, a)
			before := a.refusals(tt.reason)
			tt.send(t, r)
			require.True(t, r.closed(t), "the node closes the connection")
			require.Eventually(t, func() bool { return a.refusals(tt.reason) > before }, waitFor, 10*time.Millisecond)
		})
	}

	// Malformed frames and messages before the handshake are skipped: the connection stays and
	// a handshake after them completes.
	t.Run("garbage then handshake", func(t *testing.T) {
		r := dialRaw(t, a)
		r.writeFrame(t, []byte{0xff, 0xff, 0xff})
		r.writeFrame(t, (&wire.Message{Op: wire.OpPing, Ping: &wire.Ping{Uptime: 5}}).Marshal())
		r.writeFrame(t, (&wire.Message{Op: 26, Body: []byte{1}}).Marshal())
		r.writeFrame(t, r.handshake(t, nil))
		r.writeFrame(t, (&wire.Message{Op: wire.OpPeerList, PeerList: &wire.PeerList{}}).Marshal())
		require.Eventually(t, func() bool { return len(a.Peers()) == 1 }, waitFor, 10*time.Millisecond)
		require.Zero(t, a.Peers()[0].ObservedUptime, "the early ping was dropped")
		a.handler.mu.Lock()
		require.Empty(t, a.handler.inbound, "the early chain message was dropped")
		a.handler.mu.Unlock()
		require.Positive(t, testutilCount(a, "network_msgs_failed_to_parse"))
		_ = r.conn.Close()
		require.Eventually(t, func() bool { return len(a.Peers()) == 0 }, waitFor, 10*time.Millisecond)
	})

	// A claim that would change nothing (the sender's own, older than its Handshake's) is
	// dropped without verifying its signature, as the reference does: the connection stays.
	t.Run("stale claim unverified", func(t *testing.T) {
		r := dialRaw(t, a)
		before := a.refusals("invalid_IP_claim")
		r.writeFrame(t, r.handshake(t, nil))
		r.writeFrame(t, (&wire.Message{Op: wire.OpPeerList, PeerList: &wire.PeerList{Claims: []wire.ClaimedIPPort{{
			Certificate: r.cert.Leaf.Raw, IPAddr: []byte{1, 2, 3, 4}, IPPort: 9, Timestamp: 1, Signature: []byte{9},
		}}}}).Marshal())
		require.Eventually(t, func() bool { return len(a.Peers()) == 1 }, waitFor, 10*time.Millisecond)
		// Half a second without the node closing: what it sends meanwhile is drained.
		require.NoError(t, r.conn.SetReadDeadline(time.Now().Add(500*time.Millisecond)))
		var ne net.Error
		for {
			_, err := r.conn.Read(make([]byte, 4096))
			if err != nil {
				require.True(t, asNetErr(err, &ne) && ne.Timeout(), "the node keeps the connection: %v", err)
				break
			}
		}
		require.Len(t, a.Peers(), 1)
		require.Equal(t, before, a.refusals("invalid_IP_claim"))
		_ = r.conn.Close()
		require.Eventually(t, func() bool { return len(a.Peers()) == 0 }, waitFor, 10*time.Millisecond)
	})

	// The node's Handshake is the first message it sends, even when the peer's Handshake (whose
	// answer is a PeerList) arrives at once: a PeerList first would make the peer drop the
	// connection.
	t.Run("handshake first", func(t *testing.T) {
		for range 20 {
			r := dialRaw(t, a)
			r.writeFrame(t, r.handshake(t, nil))
			require.NoError(t, r.conn.SetReadDeadline(time.Now().Add(waitFor)))
			b, err := wire.ReadFrame(r.conn, wire.MaxMessageSize)
			require.NoError(t, err)
			m, err := wire.Parse(b)
			require.NoError(t, err)
			require.Equal(t, wire.OpHandshake, m.Op)
			_ = r.conn.Close()
		}
	})

	// A connection whose TLS handshake never finishes is closed at the handshake timeout, and
	// many connections at once neither block the node nor leak: a good peer still connects.
	t.Run("silent and many connections", func(t *testing.T) {
		var wg sync.WaitGroup
		for range 300 {
			wg.Go(func() {
				c, err := net.Dial("tcp", a.addr.String())
				if err == nil {
					_, _ = c.Write([]byte("not TLS"))
					_ = c.SetReadDeadline(time.Now().Add(waitFor))
					_, _ = c.Read(make([]byte, 1))
					_ = c.Close()
				}
			})
		}
		silent, err := net.Dial("tcp", a.addr.String())
		require.NoError(t, err)
		defer silent.Close()
		require.NoError(t, silent.SetReadDeadline(time.Now().Add(waitFor)))
		_, err = silent.Read(make([]byte, 1))
		require.Error(t, err)
		var ne net.Error
		require.False(t, asNetErr(err, &ne) && ne.Timeout(), "closed by the node, not timed out here")
		wg.Wait()
		b := startNode(t, nodeOpts{boot: []*testNode{a}})
		require.Eventually(t, func() bool { return len(b.Peers()) == 1 }, waitFor, 10*time.Millisecond)
	})
}

func testutilCount(n *testNode, name string) float64 {
	mfs, err := n.reg.Gather()
	if err != nil {
		return 0
	}
	for _, mf := range mfs {
		if mf.GetName() == name {
			return mf.GetMetric()[0].GetCounter().GetValue()
		}
	}
	return 0
}

// FuzzCheckHandshake checks that any message body, parsed as a Handshake and checked against a
// certificate, is accepted or refused without a panic, and that an accepted one claims a valid
// address.
func FuzzCheckHandshake(f *testing.F) {
	cert := newCert(f)
	sk, err := bls.NewSecretKey()
	require.NoError(f, err)
	r := &rawPeer{cert: cert, sk: sk}
	f.Add(r.handshake(f, nil))
	f.Add(r.handshake(f, func(h *wire.Handshake) { h.TrackedSubnets = [][]byte{make([]byte, 32)} }))
	f.Add([]byte{0x6a, 0x00})
	now := time.Now()
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := wire.Parse(b)
		if err != nil || m.Handshake == nil {
			return
		}
		info, err := checkHandshake(m.Handshake, cert.Leaf, handshakeChecks{
			networkID: testNetworkID, now: now, maxClockDifference: time.Minute, blsKey: sk.PublicKey(),
		})
		if err != nil {
			return
		}
		require.True(t, info.publicIP.IsValid())
		require.NotZero(t, info.publicIP.Port())
		require.Contains(t, info.trackedSubnets, ids.Empty)
	})
}
