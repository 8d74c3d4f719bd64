package node

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"sync"
	"time"

	"github.com/cornice-node/cornice/api/info"
	"github.com/cornice-node/cornice/crypto/bls"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/network"
	"github.com/cornice-node/cornice/network/wire"
	"github.com/cornice-node/cornice/router"
	"github.com/cornice-node/cornice/storage"
	"github.com/cornice-node/cornice/uptime"
	"github.com/cornice-node/cornice/validators"
	"github.com/cornice-node/cornice/vms/platform"
	"github.com/cornice-node/cornice/warp"
	"github.com/cornice-node/cornice/warp/acp118"
)

var (
	_ network.Handler  = (*peerEvents)(nil)
	_ network.Uptimes  = (*primaryUptime)(nil)
	_ platform.Uptimes = (*primaryUptime)(nil)
	_ info.Peers       = infoPeers{}
)

// buildNetwork creates the peer-to-peer network and binds its listener, so the staking port is
// known (and taken) before the node serves.
func (n *Node) buildNetwork() error {
	bootIDs, addrs := n.cfg.P2P.Bootstrappers()
	boot := make([]network.Bootstrapper, len(bootIDs))
	for i := range bootIDs {
		boot[i] = network.Bootstrapper{NodeID: bootIDs[i], IP: addrs[i]}
	}
	var publicIP netip.Addr
	if n.cfg.PublicIP != "" {
		publicIP, _ = netip.ParseAddr(n.cfg.PublicIP) // Validate checked it
	}
	// The time this node was stopped counts as up for the others, as the reference's Primary
	// Network uptime manager counts it (network-consensus-warp.md §1.10).
	tracker, err := uptime.New(n.db.Prefixed(storage.PrefixUptime).Prefixed(ids.Empty[:]), n.clock, &uptime.Options{StoppedIsUp: true})
	if err != nil {
		return fmt.Errorf("open Primary Network uptimes: %w", err)
	}
	n.primaryUptime = &primaryUptime{tracker: tracker, self: n.nodeID, networked: n.networked, starts: map[ids.NodeID]uint64{}}
	n.peerEvents = &peerEvents{self: n.nodeID, connected: map[ids.NodeID]bool{}, log: n.log.With("component", "network")}
	// It hears of peers from now on but starts tracking at its first sync, once it knows the
	// validators: until then every validator counts as up, as in the reference.
	n.peerEvents.follow(tracker)

	net_, err := network.New(network.Config{
		NetworkID:      n.cfg.NetworkID,
		Cert:           n.tlsCert,
		Signer:         n.signer,
		ListenAddr:     net.JoinHostPort(n.cfg.P2P.StakingHost, fmt.Sprint(n.cfg.StakingPort)),
		PublicIP:       publicIP,
		Bootstrappers:  boot,
		TrackedSubnets: n.cfg.TrackSubnets,
		SupportedACPs:  n.cfg.ACPSupport,
		ObjectedACPs:   n.cfg.ACPObject,
		// Every ACP a peer states is kept: info.acps reports them (the spec wins over the
		// reference, whose empty CurrentACPs filters them all out).
		UpgradeTime:               n.cfg.Upgrades.GraniteTime,
		MaxClockDifference:        n.cfg.P2P.MaxClockDifference,
		PingFrequency:             n.cfg.P2P.PingFrequency,
		AllowPrivateIPs:           n.cfg.P2P.AllowPrivateIPs,
		RequireValidatorToConnect: n.cfg.P2P.RequireValidatorToConnect,
	}, network.Deps{
		Handler:    n.peerEvents,
		Validators: peerValidators{Set: n.validators, pChain: warpValidators{n}},
		Uptimes:    n.primaryUptime,
		Clock:      n.clock,
		Log:        n.log.With("component", "network"),
		Metrics:    n.metrics,
	})
	if err != nil {
		return err
	}
	n.router, err = router.New(router.Config{NodeID: n.nodeID}, router.Deps{
		Network: net_,
		Apps:    &warpApps{n: n, handlers: map[ids.ID]*acp118.Handler{}},
		Clock:   n.clock,
		Log:     n.log.With("component", "router"),
		Metrics: n.metrics,
		Weights: newChainWeights(n.validators, func(chainID ids.ID) (ids.ID, error) {
			return warpValidators{n}.SubnetOf(context.Background(), chainID)
		}).Weights,
	})
	if err != nil {
		return err
	}
	n.peerEvents.router = n.router
	addr, err := net_.Listen()
	if err != nil {
		return err
	}
	n.network = net_
	n.stakingAddr = addr
	return nil
}

// StakingAddr returns the address the peer-to-peer listener is bound to.
func (n *Node) StakingAddr() net.Addr { return n.stakingAddr }

// peerEvents is what the network tells the node: peers coming and going reach every uptime
// tracker (so isConnected and uptimes see them) and the router, chain messages the router.
type peerEvents struct {
	self   ids.NodeID
	log    *slog.Logger
	router *router.Router

	mu        sync.Mutex // guards the fields below
	connected map[ids.NodeID]bool
	trackers  []*uptime.Tracker
}

// track makes tr follow the connected peers, from now on, with this node connected, and starts
// its tracking.
func (e *peerEvents) track(tr *uptime.Tracker) {
	e.follow(tr)
	tr.StartTracking(nil)
}

// follow makes tr hear of the connected peers, from now on, with this node connected; the caller
// starts its tracking.
func (e *peerEvents) follow(tr *uptime.Tracker) {
	e.mu.Lock()
	defer e.mu.Unlock()
	tr.Connect(e.self)
	for id := range e.connected {
		tr.Connect(id)
	}
	e.trackers = append(e.trackers, tr)
}

func (e *peerEvents) Connected(nodeID ids.NodeID, _ []ids.ID) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.connected[nodeID] = true
	for _, tr := range e.trackers {
		tr.Connect(nodeID)
	}
	e.router.Connected(nodeID)
}

func (e *peerEvents) Disconnected(nodeID ids.NodeID) {
	e.mu.Lock()
	defer e.mu.Unlock()
	delete(e.connected, nodeID)
	for _, tr := range e.trackers {
		tr.Disconnect(nodeID)
	}
	// Requests in flight to the peer fail now rather than at their deadline.
	e.router.Disconnected(nodeID)
}

// HandleInbound hands a chain message to the router, which delivers it to its chain's engine
// or drops it.
func (e *peerEvents) HandleInbound(nodeID ids.NodeID, msg *wire.Message) {
	e.router.HandleInbound(nodeID, msg)
}

// primaryUptime is this node's measurement of the Primary Network validators' uptime, persisted
// like the L1 validators' and sent to each peer in Pings. It measures the validators the network
// runs with: alone, this node and the stakers added since genesis (the P-Chain's view as this
// node runs it); among other validators, every current staker the P-Chain records, the genesis's
// five included (docs/decisions.md, "One node or many").
type primaryUptime struct {
	tracker   *uptime.Tracker
	self      ids.NodeID
	networked bool

	mu sync.Mutex
	// starts holds each current validator's start time, unix seconds.
	starts map[ids.NodeID]uint64
}

// validationID keys a Primary Network validator in the tracker: its NodeID, zero-padded.
func validationID(nodeID ids.NodeID) ids.ID {
	var id ids.ID
	copy(id[:], nodeID[:])
	return id
}

// sync brings the tracker in line with the Primary Network's current validators, and starts its
// tracking the first time: from then on a validator counts as up only while connected.
func (u *primaryUptime) sync(p pChain) error {
	var vals []platform.SubnetValidator
	var err error
	if u.networked {
		vals, err = p.PrimaryStakers()
	} else {
		vals, err = p.SubnetValidators(ids.Empty)
	}
	if err != nil {
		return fmt.Errorf("read Primary Network validators: %w", err)
	}
	tracked := make([]uptime.Validator, len(vals))
	starts := make(map[ids.NodeID]uint64, len(vals))
	for i, v := range vals {
		tracked[i] = uptime.Validator{ValidationID: validationID(v.NodeID), NodeID: v.NodeID, StartTime: v.StartTime, Active: true}
		starts[v.NodeID] = v.StartTime
	}
	if err := u.tracker.Sync(tracked); err != nil {
		return fmt.Errorf("sync Primary Network uptimes: %w", err)
	}
	u.tracker.StartTracking([]ids.NodeID{u.self})
	u.mu.Lock()
	u.starts = starts
	u.mu.Unlock()
	return nil
}

// UptimePercent returns nodeID's measured uptime as a whole percentage of the time since it
// started validating, truncated; 0 for a node that is not a Primary Network validator, as the
// reference sends (network-consensus-warp.md §1.5). It divides the durations themselves, not
// Uptime's float: 29 s of 100 s is 29, where 100·0.29 in floating point is 28.999….
func (u *primaryUptime) UptimePercent(nodeID ids.NodeID) uint32 {
	up, total := u.share(nodeID)
	return uint32(100 * up / total)
}

// Uptime returns nodeID's measured uptime as a fraction, 0–1, of the time since it started
// validating; 0 for a node that is not a Primary Network validator.
func (u *primaryUptime) Uptime(nodeID ids.NodeID) float64 {
	up, total := u.share(nodeID)
	return float64(up) / float64(total)
}

// share returns nodeID's up time and the time since it started validating, with
// 0 ≤ up ≤ total and total > 0: 0 of 1 for a node that is not a current validator, 1 of 1 for
// one that has only just started.
func (u *primaryUptime) share(nodeID ids.NodeID) (up, total time.Duration) {
	u.mu.Lock()
	start, ok := u.starts[nodeID]
	u.mu.Unlock()
	if !ok {
		return 0, 1
	}
	up, at, err := u.tracker.Uptime(validationID(nodeID))
	if err != nil {
		return 0, 1
	}
	total = at.Sub(time.Unix(int64(min(start, 1<<62)), 0))
	if total <= 0 {
		return 1, 1
	}
	return min(up, total), total
}

// IsConnected reports whether nodeID is connected to this node (this node always is).
func (u *primaryUptime) IsConnected(nodeID ids.NodeID) bool { return u.tracker.IsConnected(nodeID) }

// infoPeers shows the network's peers to the Info API, with the chains each is benched on.
type infoPeers struct {
	n      *network.Network
	router *router.Router
}

func (p infoPeers) Connected() []info.Peer {
	peers := p.n.Peers()
	out := make([]info.Peer, len(peers))
	for i, q := range peers {
		out[i] = info.Peer{
			IP:             q.IP,
			PublicIP:       q.PublicIP,
			NodeID:         q.NodeID,
			Version:        q.Version,
			UpgradeTime:    q.UpgradeTime,
			LastSent:       q.LastSent,
			LastReceived:   q.LastReceived,
			ObservedUptime: q.ObservedUptime,
			TrackedSubnets: q.TrackedSubnets,
			SupportedACPs:  q.SupportedACPs,
			ObjectedACPs:   q.ObjectedACPs,
			Benched:        p.router.Benched(q.NodeID),
		}
	}
	return out
}

// runNetwork runs the network until stopNetwork.
func (n *Node) runNetwork() {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- n.network.Run(ctx) }()
	n.stopNetwork = func() error {
		cancel()
		return <-done
	}
}

// peerValidators is the validator set the network reads: the node's weights, and the BLS keys the
// P-Chain registered for its current Primary Network validators, so that a validator's IP claim
// must carry a signature by its registered key (network.BLSKeys). Before the P-Chain runs no key
// is known and the claim's BLS signature is only parsed, as for a non-validator.
type peerValidators struct {
	*validators.Set
	pChain warp.ValidatorState
}

var _ network.BLSKeys = peerValidators{}

// BLSPublicKey implements network.BLSKeys from the P-Chain's current Primary Network set.
func (v peerValidators) BLSPublicKey(nodeID ids.NodeID) *bls.PublicKey {
	ctx := context.Background()
	height, err := v.pChain.PChainHeight(ctx)
	if err != nil {
		return nil
	}
	set, err := v.pChain.ValidatorsAt(ctx, ids.Empty, height)
	if err != nil {
		return nil
	}
	for _, val := range set {
		if val.NodeID != nodeID || val.PublicKey == nil {
			continue
		}
		pk, err := bls.PublicKeyFromCompressedBytes(val.PublicKey[:])
		if err != nil {
			return nil
		}
		return pk
	}
	return nil
}
