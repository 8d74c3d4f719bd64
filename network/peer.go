package network

import (
	"bufio"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/network/bloom"
	"github.com/cornice-node/cornice/network/wire"
)

// peer is one TLS connection to another node, from the end of the TLS handshake until it closes.
// Its reader goroutine handles every inbound message; its writer goroutine sends the queue and
// the Pings. Both end when the connection closes.
type peer struct {
	n       *Network
	conn    net.Conn
	nodeID  ids.NodeID
	cert    *x509.Certificate
	remote  netip.AddrPort
	inbound bool

	sendQ  chan []byte
	closed chan struct{}
	once   sync.Once

	lastSent     atomic.Int64 // unix nanoseconds
	lastReceived atomic.Int64

	mu sync.Mutex // guards the fields below
	// hs is set by the accepted Handshake; connected once its PeerList came too.
	hs             *handshakeInfo
	connected      bool
	observedUptime uint32
	pingSentAt     time.Time // zero: no Ping outstanding
}

// run queues the peer's Handshake, then starts its goroutines; the network's WaitGroup counts
// them. The Handshake is queued before the reader starts: the reader answers the peer's Handshake
// with a PeerList, and a PeerList that overtook our Handshake would make the peer drop the
// connection (a redial a second later).
func (p *peer) run() {
	hs, err := p.n.handshake()
	if err != nil {
		p.close(err)
		return
	}
	p.send(hs)
	p.n.wg.Add(2)
	go p.readLoop()
	go p.writeLoop()
}

// close ends the connection once; the goroutines and the network's peer set follow.
func (p *peer) close(err error) {
	p.once.Do(func() {
		close(p.closed)
		_ = p.conn.Close()
		p.n.removePeer(p, err)
	})
}

// send queues a message; when the queue is full the message is dropped and counted.
func (p *peer) send(m *wire.Message) bool {
	// The queue holds the encoded message; write adds the length prefix, so the message is not
	// copied into a frame.
	b := m.Marshal()
	select {
	case p.sendQ <- b:
		p.n.metrics.sent(m.Op, len(b)+4)
		p.n.sentCount.Add(1)
		return true
	case <-p.closed:
		return false
	default:
		p.n.metrics.sendFailed.Inc()
		p.n.failedCount.Add(1)
		return false
	}
}

func (p *peer) writeLoop() {
	defer p.n.wg.Done()
	w := bufio.NewWriterSize(p.conn, 8<<10)
	ping := p.n.clock.NewTimer(p.n.cfg.PingFrequency)
	defer ping.Stop()
	for {
		select {
		case <-p.closed:
			return
		case b := <-p.sendQ:
			if err := p.write(w, b); err != nil {
				p.close(err)
				return
			}
		case <-ping.C:
			ping.Reset(p.n.cfg.PingFrequency)
			if err := p.pingTick(); err != nil {
				p.close(err)
				return
			}
		}
	}
}

// write writes one message as a frame, and flushes once nothing else is queued.
func (p *peer) write(w *bufio.Writer, b []byte) error {
	now := p.n.clock.Now()
	if err := p.conn.SetWriteDeadline(now.Add(p.n.cfg.PingTimeout)); err != nil {
		return err
	}
	if err := wire.WriteFrame(w, b); err != nil {
		return err
	}
	p.lastSent.Store(now.UnixNano())
	p.n.lastSent.Store(now.UnixNano())
	if len(p.sendQ) > 0 {
		return nil
	}
	return w.Flush()
}

// pingTick sends a Ping with this node's measured uptime of the peer, once connected; it also
// re-checks that the peer may stay (§1.5).
func (p *peer) pingTick() error {
	p.mu.Lock()
	connected := p.connected
	if connected {
		p.pingSentAt = p.n.clock.Now()
	}
	p.mu.Unlock()
	if !connected {
		return nil
	}
	if !p.n.allowed(p.nodeID) {
		return errNotAllowed
	}
	p.send(&wire.Message{Op: wire.OpPing, Ping: &wire.Ping{Uptime: min(p.n.deps.Uptimes.UptimePercent(p.nodeID), 100)}})
	return nil
}

func (p *peer) readLoop() {
	defer p.n.wg.Done()
	r := bufio.NewReaderSize(p.conn, 8<<10)
	for {
		if err := p.conn.SetReadDeadline(p.n.clock.Now().Add(p.n.cfg.PingTimeout)); err != nil {
			p.close(err)
			return
		}
		b, err := wire.ReadFrame(r, wire.MaxMessageSize)
		if err != nil {
			if errors.Is(err, wire.ErrTooLarge) {
				err = fmt.Errorf("%w: %w", errTooLarge, err)
				p.n.metrics.refused(err)
			}
			p.close(err)
			return
		}
		now := p.n.clock.Now().UnixNano()
		p.lastReceived.Store(now)
		p.n.lastReceived.Store(now)
		m, err := wire.Parse(b)
		if err != nil {
			// A frame that does not parse is counted and skipped (§1.2).
			p.n.metrics.parseFailed.Inc()
			p.n.log.Debug("dropping malformed message", "nodeID", p.nodeID, "err", err)
			continue
		}
		p.n.metrics.received(m.Op, len(b)+4)
		if err := p.handle(m); err != nil {
			p.n.metrics.refused(err)
			p.close(err)
			return
		}
	}
}

// handle processes one message; an error closes the connection.
func (p *peer) handle(m *wire.Message) error {
	switch m.Op {
	case wire.OpHandshake:
		return p.handleHandshake(m.Handshake)
	case wire.OpPeerList:
		return p.handlePeerList(m.PeerList)
	}
	p.mu.Lock()
	connected := p.connected
	p.mu.Unlock()
	if !connected {
		// Nothing but the handshake is processed before it completes (§1.4).
		p.n.log.Debug("dropping message before the handshake", "nodeID", p.nodeID, "op", m.Op)
		return nil
	}
	switch m.Op {
	case wire.OpPing:
		return p.handlePing(m.Ping)
	case wire.OpPong:
		return p.handlePong()
	case wire.OpGetPeerList:
		p.handleGetPeerList(m.GetPeerList)
		return nil
	default:
		p.n.deps.Handler.HandleInbound(p.nodeID, m)
		return nil
	}
}

func (p *peer) handleHandshake(h *wire.Handshake) error {
	p.mu.Lock()
	seen := p.hs != nil
	p.mu.Unlock()
	if seen {
		return errSecondHandshake
	}
	checks := p.n.handshakeChecks(p.nodeID)
	info, err := checkHandshake(h, p.cert, checks)
	if err != nil {
		return err
	}
	p.n.metrics.clockSkew.Observe(info.clockSkew.Seconds())
	p.mu.Lock()
	p.hs = info
	p.mu.Unlock()
	p.n.trackClaim(info.claim)
	// The answer to a valid Handshake is a PeerList, even an empty one: it completes the
	// handshake on the other side.
	f, err := bloomFromWire(h.KnownPeers)
	if err != nil {
		return err
	}
	p.send(&wire.Message{Op: wire.OpPeerList, PeerList: &wire.PeerList{Claims: p.n.gossipable(p.nodeID, f, h.KnownPeers.Salt)}})
	return nil
}

func (p *peer) handlePeerList(pl *wire.PeerList) error {
	p.mu.Lock()
	if p.hs == nil {
		p.mu.Unlock()
		return errPeerListBeforeHS
	}
	first := !p.connected
	p.connected = true
	p.mu.Unlock()
	if first {
		if err := p.n.markConnected(p); err != nil {
			return err
		}
	}
	return p.n.learn(pl.Claims)
}

func (p *peer) handlePing(ping *wire.Ping) error {
	if ping.Uptime > 100 {
		return fmt.Errorf("%w: %d", errBadUptime, ping.Uptime)
	}
	p.mu.Lock()
	p.observedUptime = ping.Uptime
	p.mu.Unlock()
	p.send(&wire.Message{Op: wire.OpPong, Pong: &wire.Pong{}})
	return nil
}

func (p *peer) handlePong() error {
	p.mu.Lock()
	sentAt := p.pingSentAt
	p.pingSentAt = time.Time{}
	p.mu.Unlock()
	if sentAt.IsZero() {
		return errUnexpectedPong
	}
	p.n.metrics.rtt.Observe(p.n.clock.Now().Sub(sentAt).Seconds())
	return nil
}

func (p *peer) handleGetPeerList(g *wire.GetPeerList) {
	if checkFilter(g.KnownPeers) != nil {
		p.n.log.Debug("dropping GetPeerList with a bad filter", "nodeID", p.nodeID)
		return
	}
	f, err := bloomFromWire(g.KnownPeers)
	if err != nil {
		return
	}
	claims := p.n.gossipable(p.nodeID, f, g.KnownPeers.Salt)
	if len(claims) == 0 {
		return
	}
	p.send(&wire.Message{Op: wire.OpPeerList, PeerList: &wire.PeerList{Claims: claims}})
}

func bloomFromWire(f *wire.BloomFilter) (*bloom.Filter, error) {
	if err := checkFilter(f); err != nil {
		return nil, err
	}
	return bloom.Parse(f.Filter)
}

// Info returns what info.peers shows of the peer.
func (p *peer) info() Peer {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := Peer{
		IP:             p.remote,
		NodeID:         p.nodeID,
		ObservedUptime: p.observedUptime,
		LastSent:       time.Unix(0, p.lastSent.Load()),
		LastReceived:   time.Unix(0, p.lastReceived.Load()),
	}
	if hs := p.hs; hs != nil {
		out.PublicIP = hs.publicIP
		out.Version = versionString(hs.client)
		out.UpgradeTime = hs.upgradeTime
		out.TrackedSubnets = append([]ids.ID(nil), hs.trackedSubnets...)
		out.SupportedACPs = append([]uint32(nil), hs.supportedACPs...)
		out.ObjectedACPs = append([]uint32(nil), hs.objectedACPs...)
	}
	return out
}
