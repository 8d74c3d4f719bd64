package network

import (
	"context"
	"crypto"
	"net"
	"net/netip"
	"testing"
	"time"

	"github.com/cornice-node/cornice/crypto/bls"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/network/wire"
)

// benchNode is a running network for benchmarks, with the reference's timings.
type benchNode struct {
	*Network
	addr   netip.AddrPort
	cancel context.CancelFunc
	done   chan error
}

func startBenchNode(b *testing.B, boot ...*benchNode) *benchNode {
	b.Helper()
	sk, err := bls.NewSecretKey()
	if err != nil {
		b.Fatal(err)
	}
	cfg := Config{NetworkID: testNetworkID, Cert: newCert(b), Signer: sk, ListenAddr: "127.0.0.1:0"}
	for _, o := range boot {
		cfg.Bootstrappers = append(cfg.Bootstrappers, Bootstrapper{NodeID: o.NodeID(), IP: o.addr})
	}
	n, err := New(cfg, Deps{Handler: &recorder{connected: map[ids.NodeID][]ids.ID{}}, Validators: weights{}, Uptimes: fixedUptime(100)})
	if err != nil {
		b.Fatal(err)
	}
	addr, err := n.Listen()
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	bn := &benchNode{Network: n, addr: addr.(*net.TCPAddr).AddrPort(), cancel: cancel, done: make(chan error, 1)}
	go func() { bn.done <- n.Run(ctx) }()
	b.Cleanup(bn.stop)
	return bn
}

func (bn *benchNode) stop() {
	bn.cancel()
	if bn.done != nil {
		<-bn.done
		bn.done = nil
	}
}

// BenchmarkHandshake measures one peer from the first dial to connected on both sides, on
// loopback: TLS 1.3 with ECDSA P-256 certificates, both Handshakes (IP claims signed with ECDSA
// and BLS, checked on receipt) and both PeerLists.
func BenchmarkHandshake(b *testing.B) {
	a := startBenchNode(b)
	for b.Loop() {
		c := startBenchNode(b, a)
		for !c.IsConnected(a.NodeID()) || !a.IsConnected(c.NodeID()) {
			time.Sleep(20 * time.Microsecond)
		}
		b.StopTimer()
		c.stop()
		for a.IsConnected(c.NodeID()) {
			time.Sleep(20 * time.Microsecond)
		}
		b.StartTimer()
	}
}

// BenchmarkPingPong measures a Ping's round trip between two connected peers on loopback:
// framing, TLS, parsing and the Pong, through the peers' reader and writer goroutines.
func BenchmarkPingPong(b *testing.B) {
	a := startBenchNode(b)
	c := startBenchNode(b, a)
	for !c.IsConnected(a.NodeID()) {
		time.Sleep(time.Millisecond)
	}
	c.mu.Lock()
	p := c.peers[a.NodeID()]
	c.mu.Unlock()
	for b.Loop() {
		p.mu.Lock()
		p.pingSentAt = time.Now()
		p.mu.Unlock()
		p.send(&wire.Message{Op: wire.OpPing, Ping: &wire.Ping{Uptime: 100}})
		for {
			p.mu.Lock()
			answered := p.pingSentAt.IsZero()
			p.mu.Unlock()
			if answered {
				break
			}
		}
	}
}

// BenchmarkVerify1000Claims measures checking a gossip of 1,000 IP claims: parsing each
// certificate and verifying its ECDSA signature, as a received PeerList is handled.
func BenchmarkVerify1000Claims(b *testing.B) {
	claims := make([]wire.ClaimedIPPort, 1000)
	now := time.Now()
	for i := range claims {
		cert := newCert(b)
		sk, err := bls.NewSecretKey()
		if err != nil {
			b.Fatal(err)
		}
		addr := netip.AddrPortFrom(netip.AddrFrom4([4]byte{10, 0, byte(i >> 8), byte(i)}), 9651)
		ip, err := signIP(addr, now, cert.PrivateKey.(crypto.Signer), sk)
		if err != nil {
			b.Fatal(err)
		}
		claims[i] = (&claim{cert: cert.Leaf.Raw, addr: addr, timestamp: ip.timestamp, tlsSig: ip.tlsSig}).toWire()
	}
	msg := (&wire.Message{Op: wire.OpPeerList, PeerList: &wire.PeerList{Claims: claims}}).Marshal()
	for b.Loop() {
		m, err := wire.Parse(msg)
		if err != nil {
			b.Fatal(err)
		}
		for i := range m.PeerList.Claims {
			if _, err := verifyClaim(&m.PeerList.Claims[i], now, time.Minute); err != nil {
				b.Fatal(err)
			}
		}
	}
}
