package network

import (
	"context"
	"crypto"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/netip"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/crypto/staking"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/network/bloom"
	"github.com/cornice-node/cornice/network/wire"
)

// Network is this node's set of peers. See the package documentation.
type Network struct {
	cfg     Config
	deps    Deps
	clock   clock.Clock
	log     *slog.Logger
	metrics *metrics
	nodeID  ids.NodeID
	tls     *tls.Config

	listener net.Listener
	// ctx is Run's context: dial loops and connection set-up end with it.
	ctx context.Context
	wg  sync.WaitGroup

	mu sync.Mutex // guards the fields below
	// myIP is this node's signed claim to its address; set by Listen.
	myIP *signedIP
	// peers holds every peer past the TLS handshake, connected or not yet.
	peers map[ids.NodeID]*peer
	// connected lists the connected peers in the order they connected; a leaving peer's slot
	// takes the last one, as the reference's peer set does.
	connected []*peer
	// known holds the latest verified IP claim of each node, and whether a dial loop runs for it.
	known map[ids.NodeID]*knownNode
	// recentInbound maps an IP to when its last inbound connection was accepted.
	recentInbound map[netip.Addr]time.Time
	// acceptWindow and acceptCount count the inbound connections of the current second.
	acceptWindow time.Time
	acceptCount  int
	closing      bool
	// startedAt is when Listen bound the listener: the health check's stand-in for the last
	// message before any. Listen, not Run (started on its own goroutine), sets it, so a health
	// check that runs first does not measure from the zero time.
	startedAt time.Time

	// lastSent and lastReceived are when any peer last sent or received a message, in unix
	// nanoseconds; sentCount and failedCount count messages queued and dropped (health).
	lastSent, lastReceived atomic.Int64
	sentCount, failedCount atomic.Uint64
}

// knownNode is a node this network knows an address of.
type knownNode struct {
	claim *claim
	// addr is where to dial: the claim's address, or a bootstrapper's configured one.
	addr    netip.AddrPort
	manual  bool
	dialing bool
}

// Peer is what info.peers shows of one connected peer (node-api.md §3.11).
type Peer struct {
	IP             netip.AddrPort
	PublicIP       netip.AddrPort
	NodeID         ids.NodeID
	Version        string
	UpgradeTime    uint64
	LastSent       time.Time
	LastReceived   time.Time
	ObservedUptime uint32
	TrackedSubnets []ids.ID
	SupportedACPs  []uint32
	ObjectedACPs   []uint32
}

// New returns a network that is neither listening nor dialling yet.
func New(cfg Config, deps Deps) (*Network, error) {
	cfg = cfg.withDefaults()
	if err := errors.Join(cfg.validate(), deps.validate()); err != nil {
		return nil, fmt.Errorf("network config: %w", err)
	}
	if deps.Clock == nil {
		deps.Clock = clock.Real{}
	}
	if deps.Log == nil {
		deps.Log = slog.New(slog.DiscardHandler)
	}
	m, err := newMetrics(deps.Metrics)
	if err != nil {
		return nil, err
	}
	n := &Network{
		cfg:           cfg,
		deps:          deps,
		clock:         deps.Clock,
		log:           deps.Log,
		metrics:       m,
		nodeID:        staking.NodeIDFromCert(cfg.Cert.Leaf.Raw),
		tls:           tlsConfig(cfg.Cert),
		ctx:           context.Background(),
		peers:         make(map[ids.NodeID]*peer),
		known:         make(map[ids.NodeID]*knownNode),
		recentInbound: make(map[netip.Addr]time.Time),
	}
	for _, b := range cfg.Bootstrappers {
		n.known[b.NodeID] = &knownNode{addr: b.IP, manual: true}
	}
	return n, nil
}

// Listen binds the staking listener and signs this node's IP claim with the bound port. It
// returns the bound address.
func (n *Network) Listen() (net.Addr, error) {
	l, err := net.Listen("tcp", n.cfg.ListenAddr)
	if err != nil {
		return nil, fmt.Errorf("listen for peers: %w", err)
	}
	addr := l.Addr().(*net.TCPAddr).AddrPort()
	ip := n.cfg.PublicIP
	if !ip.IsValid() {
		ip = addr.Addr().Unmap()
		if ip.IsUnspecified() {
			ip = netip.AddrFrom4([4]byte{127, 0, 0, 1})
		}
	}
	now := n.clock.Now()
	signed, err := signIP(netip.AddrPortFrom(ip.Unmap(), addr.Port()), now, n.cfg.Cert.PrivateKey.(crypto.Signer), n.cfg.Signer)
	if err != nil {
		_ = l.Close()
		return nil, err
	}
	n.mu.Lock()
	n.myIP = signed
	n.startedAt = now
	n.mu.Unlock()
	n.listener = l
	return l.Addr(), nil
}

// IP returns the address this node claims to peers, zero before Listen.
func (n *Network) IP() netip.AddrPort {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.myIP == nil {
		return netip.AddrPort{}
	}
	return n.myIP.addr
}

// NodeID returns this node's ID.
func (n *Network) NodeID() ids.NodeID { return n.nodeID }

// Run accepts and dials peers until ctx ends, then closes every connection and waits for all the
// network's goroutines. Listen must have been called.
func (n *Network) Run(ctx context.Context) error {
	if n.listener == nil {
		return errors.New("network: Run before Listen")
	}
	n.mu.Lock()
	n.ctx = ctx
	for id := range n.known {
		n.startDialLocked(id, 0)
	}
	n.mu.Unlock()

	n.wg.Add(2)
	go n.acceptLoop()
	go n.gossipLoop(ctx)

	<-ctx.Done()
	n.mu.Lock()
	n.closing = true
	peers := make([]*peer, 0, len(n.peers))
	for _, p := range n.peers {
		peers = append(peers, p)
	}
	n.mu.Unlock()
	err := n.listener.Close()
	for _, p := range peers {
		p.close(errors.New("network closing"))
	}
	n.wg.Wait()
	if errors.Is(err, net.ErrClosed) {
		err = nil
	}
	return err
}

func (n *Network) acceptLoop() {
	defer n.wg.Done()
	for {
		conn, err := n.listener.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			n.log.Debug("accept failed", "err", err)
			continue
		}
		remote := conn.RemoteAddr().(*net.TCPAddr).AddrPort()
		if !n.acceptInbound(remote.Addr().Unmap()) {
			n.metrics.inboundRejected.Inc()
			_ = conn.Close()
			continue
		}
		n.wg.Add(1)
		go func() {
			defer n.wg.Done()
			n.upgrade(conn, true, ids.EmptyNodeID)
		}()
	}
}

// acceptInbound applies the inbound limits: one connection per IP every 10 s (loopback exempt,
// as in the reference) and at most 256 per second.
func (n *Network) acceptInbound(ip netip.Addr) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	now := n.clock.Now()
	if now.Sub(n.acceptWindow) >= time.Second {
		n.acceptWindow, n.acceptCount = now, 0
	}
	if n.acceptCount >= maxAcceptsPerSecond {
		return false
	}
	if !ip.IsLoopback() {
		if last, ok := n.recentInbound[ip]; ok && now.Sub(last) < inboundCooldown {
			return false
		}
		for a, t := range n.recentInbound {
			if now.Sub(t) >= inboundCooldown {
				delete(n.recentInbound, a)
			}
		}
		n.recentInbound[ip] = now
	}
	n.acceptCount++
	return true
}

// upgrade runs the TLS handshake on conn and, if the peer may connect, starts it. want is the
// NodeID a dial expected, or empty for an inbound connection.
func (n *Network) upgrade(conn net.Conn, inbound bool, want ids.NodeID) bool {
	var tconn *tls.Conn
	if inbound {
		tconn = tls.Server(conn, n.tls)
	} else {
		tconn = tls.Client(conn, dialTLSConfig(n.cfg.Cert, want))
	}
	ctx, cancel := context.WithTimeout(n.ctx, n.cfg.HandshakeTimeout)
	err := tconn.HandshakeContext(ctx)
	cancel()
	if err != nil {
		n.metrics.tlsRejected.Inc()
		n.log.Debug("TLS handshake failed", "remote", conn.RemoteAddr().String(), "err", err)
		_ = conn.Close()
		return false
	}
	certs := tconn.ConnectionState().PeerCertificates
	cert, err := staking.ParseCertificate(certs[0].Raw)
	if err != nil {
		n.metrics.tlsRejected.Inc()
		_ = conn.Close()
		return false
	}
	nodeID := staking.NodeIDFromCert(cert.Raw)
	p := &peer{
		n:       n,
		conn:    tconn,
		nodeID:  nodeID,
		cert:    cert,
		remote:  conn.RemoteAddr().(*net.TCPAddr).AddrPort(),
		inbound: inbound,
		sendQ:   make(chan []byte, sendQueueLen),
		closed:  make(chan struct{}),
	}
	if err := n.addPeer(p, want); err != nil {
		n.metrics.refused(err)
		n.log.Debug("refusing connection", "nodeID", nodeID, "remote", p.remote.String(), "err", err)
		_ = tconn.Close()
		return false
	}
	p.run()
	return true
}

// addPeer admits a peer past TLS (§1.1): not ourselves, allowed, not while closing, and not a node
// already connecting or connected.
func (n *Network) addPeer(p *peer, want ids.NodeID) error {
	switch {
	case p.nodeID == n.nodeID:
		return errSelf
	case want != ids.EmptyNodeID && p.nodeID != want:
		return fmt.Errorf("%w: %s, want %s", errWrongNode, p.nodeID, want)
	case p.inbound && !n.allowed(p.nodeID):
		return errNotAllowed
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.closing {
		return errors.New("network closing")
	}
	if _, ok := n.peers[p.nodeID]; ok {
		return errDuplicate
	}
	n.peers[p.nodeID] = p
	return nil
}

// allowed reports whether nodeID may stay connected: always, unless RequireValidatorToConnect,
// which keeps only bootstrappers and Primary Network validators while this node is not a
// validator itself (§1.6).
func (n *Network) allowed(nodeID ids.NodeID) bool {
	if !n.cfg.RequireValidatorToConnect {
		return true
	}
	v := n.deps.Validators
	if v.GetWeight(ids.Empty, n.nodeID) > 0 || v.GetWeight(ids.Empty, nodeID) > 0 {
		return true
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	k := n.known[nodeID]
	return k != nil && k.manual
}

// markConnected makes p connected and tells the handler.
func (n *Network) markConnected(p *peer) error {
	n.mu.Lock()
	if n.peers[p.nodeID] != p || n.closing {
		n.mu.Unlock()
		return errors.New("peer no longer current")
	}
	n.connected = append(n.connected, p)
	n.mu.Unlock()
	p.mu.Lock()
	subnets := append([]ids.ID(nil), p.hs.trackedSubnets...)
	p.mu.Unlock()
	n.metrics.peers.Inc()
	n.metrics.connects.Inc()
	n.log.Info("peer connected", "nodeID", p.nodeID, "remote", p.remote.String(), "inbound", p.inbound)
	n.deps.Handler.Connected(p.nodeID, subnets)
	return nil
}

// removePeer forgets a closed peer; a connected one is reported to the handler and, if still
// known, dialled again.
func (n *Network) removePeer(p *peer, cause error) {
	n.mu.Lock()
	if n.peers[p.nodeID] == p {
		delete(n.peers, p.nodeID)
	}
	i := slices.Index(n.connected, p)
	if i >= 0 {
		last := len(n.connected) - 1
		n.connected[i] = n.connected[last]
		n.connected = n.connected[:last]
	}
	if i >= 0 && !n.closing {
		n.startDialLocked(p.nodeID, time.Second)
	}
	n.mu.Unlock()
	if i < 0 {
		return
	}
	n.metrics.peers.Dec()
	n.metrics.disconnects.Inc()
	n.log.Info("peer disconnected", "nodeID", p.nodeID, "reason", cause)
	n.deps.Handler.Disconnected(p.nodeID)
}

// handshake builds this node's Handshake (§1.4).
func (n *Network) handshake() (*wire.Message, error) {
	n.mu.Lock()
	ip := n.myIP
	n.mu.Unlock()
	f, salt, err := n.knownFilter()
	if err != nil {
		return nil, err
	}
	subnets := make([][]byte, len(n.cfg.TrackedSubnets))
	for i, s := range n.cfg.TrackedSubnets {
		subnets[i] = s[:]
	}
	client := ProtocolVersion
	return &wire.Message{Op: wire.OpHandshake, Handshake: &wire.Handshake{
		NetworkID:      n.cfg.NetworkID,
		MyTime:         uint64(max(n.clock.Now().Unix(), 0)),
		IPAddr:         addrToWire(ip.addr),
		IPPort:         uint32(ip.addr.Port()),
		UpgradeTime:    uint64(max(n.cfg.UpgradeTime.Unix(), 0)),
		IPSigningTime:  ip.timestamp,
		IPNodeIDSig:    ip.tlsSig,
		TrackedSubnets: subnets,
		Client:         &client,
		SupportedACPs:  n.cfg.SupportedACPs,
		ObjectedACPs:   n.cfg.ObjectedACPs,
		KnownPeers:     &wire.BloomFilter{Filter: f.Marshal(), Salt: salt},
		IPBLSSig:       ip.blsSig,
		AllSubnets:     n.deps.Validators.GetWeight(ids.Empty, n.nodeID) > 0,
	}}, nil
}

// handshakeChecks returns what a Handshake from nodeID is checked against.
func (n *Network) handshakeChecks(nodeID ids.NodeID) handshakeChecks {
	c := handshakeChecks{
		networkID:          n.cfg.NetworkID,
		now:                n.clock.Now(),
		maxClockDifference: n.cfg.MaxClockDifference,
		upgradeTime:        n.cfg.UpgradeTime,
		knownACPs:          n.cfg.KnownACPs,
	}
	if keys, ok := n.deps.Validators.(BLSKeys); ok {
		c.blsKey = keys.BLSPublicKey(nodeID)
	}
	return c
}

// knownFilter returns a bloom filter of the claims this node knows, with its salt: a fresh one
// each time, sized as the reference sizes its own (max(2 × known, 128) entries at 0.1 %).
func (n *Network) knownFilter() (*bloom.Filter, []byte, error) {
	n.mu.Lock()
	claims := make([]*claim, 0, len(n.known))
	for _, k := range n.known {
		if k.claim != nil {
			claims = append(claims, k.claim)
		}
	}
	n.mu.Unlock()
	f, err := bloom.New(bloom.OptimalParameters(max(2*len(claims), 128), 0.001))
	if err != nil {
		return nil, nil, err
	}
	salt := make([]byte, 32)
	for i := range salt {
		salt[i] = byte(rand.Uint32())
	}
	for _, c := range claims {
		f.Add(c.bloomHash(salt))
	}
	return f, salt, nil
}

// trackClaim records a verified claim if it is newer than the one known, and dials its node when
// not connected.
func (n *Network) trackClaim(c *claim) {
	if c.nodeID == n.nodeID {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	k := n.known[c.nodeID]
	if k == nil {
		if len(n.known) >= maxTrackedNodes {
			return
		}
		k = &knownNode{}
		n.known[c.nodeID] = k
	}
	if k.claim != nil && k.claim.timestamp >= c.timestamp {
		return
	}
	k.claim = c
	k.addr = c.addr
	if !k.manual && !n.cfg.AllowPrivateIPs && c.addr.Addr().IsPrivate() {
		return
	}
	// Of two nodes learning of each other at once, the one with the lower ID dials first, so their
	// dials rarely cross.
	var wait time.Duration
	if n.nodeID.Compare(c.nodeID) > 0 {
		wait = time.Second
	}
	n.startDialLocked(c.nodeID, wait)
}

// learn records the claims of a PeerList that tell this node something new; a bad claim closes
// the sender (§1.7). Every claim's address and signing time are checked, which costs nothing;
// the certificate and signature only of claims that would change what this node knows (a node
// not yet known, or a newer claim of a known one), as the reference verifies only claims it
// would track. Those are verified on all cores: 1,000 new claims are 1,000 ECDSA verifications.
func (n *Network) learn(claims []wire.ClaimedIPPort) error {
	now := n.clock.Now()
	fresh := make([]*wire.ClaimedIPPort, 0, len(claims))
	for i := range claims {
		w := &claims[i]
		if _, err := addrFromWire(w.IPAddr, w.IPPort); err != nil {
			return err
		}
		if err := checkSigningTime(w.Timestamp, now, n.cfg.MaxClockDifference); err != nil {
			return err
		}
		if n.wouldTrack(staking.NodeIDFromCert(w.Certificate), w.Timestamp) {
			fresh = append(fresh, w)
		}
	}
	verified, err := verifyClaims(fresh, now, n.cfg.MaxClockDifference)
	if err != nil {
		return err
	}
	for _, c := range verified {
		n.trackClaim(c)
	}
	return nil
}

// wouldTrack reports whether trackClaim would record a claim of nodeID signed at timestamp: not
// this node, and newer than the claim known, or of a new node while there is room.
func (n *Network) wouldTrack(nodeID ids.NodeID, timestamp uint64) bool {
	if nodeID == n.nodeID {
		return false
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	k := n.known[nodeID]
	if k == nil {
		return len(n.known) < maxTrackedNodes
	}
	return k.claim == nil || k.claim.timestamp < timestamp
}

// verifyClaims verifies claims on up to GOMAXPROCS goroutines and returns them in order, or the
// error of the first bad one.
func verifyClaims(claims []*wire.ClaimedIPPort, now time.Time, maxSkew time.Duration) ([]*claim, error) {
	out := make([]*claim, len(claims))
	errs := make([]error, len(claims))
	var next atomic.Int64
	work := func() {
		for {
			i := int(next.Add(1)) - 1
			if i >= len(claims) {
				return
			}
			out[i], errs[i] = verifyClaim(claims[i], now, maxSkew)
		}
	}
	var wg sync.WaitGroup
	// The calling goroutine is one of the workers; a few claims are not worth another goroutine.
	for range min(runtime.GOMAXPROCS(0), len(claims)/parallelClaims) - 1 {
		wg.Go(work)
	}
	work()
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// parallelClaims is how many claims each verifying goroutine should have at least.
const parallelClaims = 8

// gossipable returns up to 15 claims of connected peers other than requester that are not in
// the requester's filter.
func (n *Network) gossipable(requester ids.NodeID, f *bloom.Filter, salt []byte) []wire.ClaimedIPPort {
	n.mu.Lock()
	defer n.mu.Unlock()
	out := []wire.ClaimedIPPort{}
	for _, p := range n.connected {
		if len(out) == peerListSize {
			break
		}
		k := n.known[p.nodeID]
		if p.nodeID == requester || k == nil || k.claim == nil || f.Contains(k.claim.bloomHash(salt)) {
			continue
		}
		out = append(out, k.claim.toWire())
	}
	return out
}

// gossipLoop sends a GetPeerList to one random connected peer every PeerListFrequency.
func (n *Network) gossipLoop(ctx context.Context) {
	defer n.wg.Done()
	t := n.clock.NewTimer(n.cfg.PeerListFrequency)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			t.Reset(n.cfg.PeerListFrequency)
		}
		n.mu.Lock()
		var p *peer
		if len(n.connected) > 0 {
			p = n.connected[rand.IntN(len(n.connected))]
		}
		n.mu.Unlock()
		if p == nil {
			continue
		}
		f, salt, err := n.knownFilter()
		if err != nil {
			n.log.Warn("cannot build the known peers filter", "err", err)
			continue
		}
		p.send(&wire.Message{Op: wire.OpGetPeerList, GetPeerList: &wire.GetPeerList{
			KnownPeers: &wire.BloomFilter{Filter: f.Marshal(), Salt: salt},
			AllSubnets: n.deps.Validators.GetWeight(ids.Empty, n.nodeID) > 0,
		}})
	}
}

// startDialLocked starts a dial loop for nodeID after wait, unless one runs, the node is
// connected or connecting, or the network is closing. Assumes n.mu is held.
func (n *Network) startDialLocked(nodeID ids.NodeID, wait time.Duration) {
	k := n.known[nodeID]
	if k == nil || k.dialing || n.closing || n.ctx.Err() != nil || !k.addr.IsValid() {
		return
	}
	if _, ok := n.peers[nodeID]; ok {
		return
	}
	k.dialing = true
	n.wg.Add(1)
	go n.dialLoop(nodeID, wait)
}

// dialLoop dials nodeID until it is connected or connecting, with a delay starting at 1 s,
// multiplied by a random factor in [1, 2) after each failure and capped at MaxReconnectDelay,
// jittered to [0.75, 1) of it (§1.6).
func (n *Network) dialLoop(nodeID ids.NodeID, wait time.Duration) {
	defer n.wg.Done()
	delay := time.Second
	for {
		if wait > 0 {
			t := n.clock.NewTimer(wait)
			select {
			case <-n.ctx.Done():
				t.Stop()
				n.stopDialing(nodeID)
				return
			case <-t.C:
			}
		}
		n.mu.Lock()
		k := n.known[nodeID]
		_, busy := n.peers[nodeID]
		if k == nil || busy || n.closing {
			if k != nil {
				k.dialing = false
			}
			n.mu.Unlock()
			return
		}
		addr := k.addr
		n.mu.Unlock()

		d := net.Dialer{Timeout: n.cfg.HandshakeTimeout}
		conn, err := d.DialContext(n.ctx, "tcp", addr.String())
		if err == nil {
			if n.upgrade(conn, false, nodeID) {
				// The loop ends at its next check, while the peer is there. A peer that is gone
				// by then was dropped before removePeer could start another loop (this one still
				// counted as dialling): this loop redials it.
				wait, delay = time.Second, time.Second
				continue
			}
		} else {
			n.log.Debug("dial failed", "nodeID", nodeID, "addr", addr.String(), "err", err)
		}
		wait = delay
		delay = time.Duration(float64(delay) * (1 + rand.Float64()))
		if delay > n.cfg.MaxReconnectDelay {
			delay = time.Duration(float64(n.cfg.MaxReconnectDelay) * (0.75 + rand.Float64()/4))
		}
	}
}

func (n *Network) stopDialing(nodeID ids.NodeID) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if k := n.known[nodeID]; k != nil {
		k.dialing = false
	}
}

// Peers returns the connected peers in the order of the peer set.
func (n *Network) Peers() []Peer {
	n.mu.Lock()
	connected := slices.Clone(n.connected)
	n.mu.Unlock()
	out := make([]Peer, len(connected))
	for i, p := range connected {
		out[i] = p.info()
	}
	return out
}

// IsConnected reports whether nodeID is a connected peer; this node counts as connected to
// itself, as the reference's router does (§1.8).
func (n *Network) IsConnected(nodeID ids.NodeID) bool {
	if nodeID == n.nodeID {
		return true
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	p := n.peers[nodeID]
	return p != nil && slices.Contains(n.connected, p)
}

// Send queues a chain message for the connected peer nodeID. It reports false, sending nothing,
// when nodeID is not a connected peer (this node included: the router delivers to itself) or
// the peer's queue is full.
func (n *Network) Send(nodeID ids.NodeID, m *wire.Message) bool {
	n.mu.Lock()
	p := n.peers[nodeID]
	n.mu.Unlock()
	if p == nil {
		return false
	}
	p.mu.Lock()
	connected := p.connected
	p.mu.Unlock()
	return connected && p.send(m)
}

// Close releases the listener of a network that was never run; Run closes it otherwise.
func (n *Network) Close() error {
	if n.listener == nil {
		return nil
	}
	if err := n.listener.Close(); err != nil && !errors.Is(err, net.ErrClosed) {
		return err
	}
	return nil
}
