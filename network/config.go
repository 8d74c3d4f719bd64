package network

import (
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net/netip"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/crypto/bls"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/network/wire"
)

// Defaults of the reference (network-consensus-warp.md §1.2–1.7, utils/constants/networking.go).
const (
	DefaultMaxClockDifference = time.Minute
	DefaultPingFrequency      = 22500 * time.Millisecond
	DefaultPingTimeout        = 30 * time.Second
	DefaultPeerListFrequency  = 2 * time.Second
	DefaultMaxReconnectDelay  = time.Minute
	DefaultHandshakeTimeout   = 15 * time.Second
	// MaxTrackedSubnets is the most subnets a peer may list in its Handshake.
	MaxTrackedSubnets = 16
	// peerListSize is how many IP claims one PeerList carries at most.
	peerListSize = 15
	// maxTrackedNodes bounds the IP claims kept from gossip.
	maxTrackedNodes = 1000
	// inboundCooldown is the least time between two accepted connections from one IP, and
	// maxAcceptsPerSecond the most inbound connections taken per second.
	inboundCooldown     = 10 * time.Second
	maxAcceptsPerSecond = 256
	// sendQueueLen is how many messages wait for one peer's writer before more are dropped.
	sendQueueLen = 1024
)

// ClientName is the name cornice gives in its Handshake. The name is never compared by peers.
const ClientName = "cornice"

// ProtocolVersion is the version cornice advertises in its Handshake: the reference release whose
// protocol it speaks, so reference peers find it compatible (§1.4 "Version compatibility").
var ProtocolVersion = wire.Client{Name: ClientName, Major: 1, Minor: 14, Patch: 2}

// Compatibility thresholds of the reference v1.14.2: a peer must not be of a higher major version,
// and at least 1.14.0 once the latest upgrade is active (1.13.0 before).
var (
	minCompatible     = wire.Client{Major: 1, Minor: 14}
	prevMinCompatible = wire.Client{Major: 1, Minor: 13}
)

// Bootstrapper is a node the network always wants to be connected to (--bootstrap-ids and
// --bootstrap-ips).
type Bootstrapper struct {
	NodeID ids.NodeID
	IP     netip.AddrPort
}

// Config holds the network's settings. Zero durations take the reference's defaults.
type Config struct {
	// NetworkID must match every peer's. Required.
	NetworkID uint32
	// Cert is the staking TLS certificate, with its Leaf. Required.
	Cert *tls.Certificate
	// Signer signs the IP claim with BLS (ip_bls_sig). Required.
	Signer *bls.SecretKey
	// ListenAddr is host:port of the staking listener (--staking-host, --staking-port); port 0
	// lets the OS choose.
	ListenAddr string
	// PublicIP is the IP claimed to peers (--public-ip). Zero: the listener's IP, or loopback when
	// it listens on every interface.
	PublicIP netip.Addr
	// Bootstrappers are dialled and kept connected.
	Bootstrappers []Bootstrapper
	// TrackedSubnets are the subnets besides the Primary Network this node tracks (--track-subnets).
	TrackedSubnets []ids.ID
	// SupportedACPs and ObjectedACPs are stated in the Handshake (--acp-support, --acp-object).
	SupportedACPs []uint32
	ObjectedACPs  []uint32
	// KnownACPs, when not empty, is the set a peer's ACP preferences are filtered to, as the
	// reference filters to its CurrentACPs (empty in v1.14.2, which drops them all). Empty: every
	// stated ACP is kept.
	KnownACPs []uint32
	// UpgradeTime is the unix time of the latest scheduled network upgrade: sent in the Handshake,
	// and from then on peers below 1.14.0 are refused.
	UpgradeTime time.Time
	// MaxClockDifference is the largest accepted skew of a peer's clock (--network-max-clock-difference).
	MaxClockDifference time.Duration
	// PingFrequency is how often a Ping goes to each peer (--network-ping-frequency).
	PingFrequency time.Duration
	// PingTimeout is the read and write deadline of every message: a peer silent that long is
	// dropped.
	PingTimeout time.Duration
	// PeerListFrequency is how often a GetPeerList goes to one random peer.
	PeerListFrequency time.Duration
	// MaxReconnectDelay caps the backoff between dials of one node.
	MaxReconnectDelay time.Duration
	// HandshakeTimeout bounds the TLS handshake.
	HandshakeTimeout time.Duration
	// AllowPrivateIPs lets the node dial private addresses learnt from gossip
	// (--network-allow-private-ips). Bootstrappers are dialled whatever their address.
	AllowPrivateIPs bool
	// RequireValidatorToConnect refuses inbound peers that are neither bootstrappers nor Primary
	// Network validators, unless this node is itself a validator
	// (--network-require-validator-to-connect).
	RequireValidatorToConnect bool
}

// Deps are what the network calls. Handler, Validators and Uptimes are required.
type Deps struct {
	Handler    Handler
	Validators Validators
	Uptimes    Uptimes
	// Clock defaults to clock.Real{}, Log to a discarding logger.
	Clock   clock.Clock
	Log     *slog.Logger
	Metrics prometheus.Registerer
}

// Handler receives what the network does not handle itself. Its methods are called from peer
// goroutines and must not block for long.
type Handler interface {
	// Connected is called when a peer has finished the handshake, with the subnets it tracks
	// (the Primary Network included).
	Connected(nodeID ids.NodeID, trackedSubnets []ids.ID)
	// Disconnected is called once for each Connected, when the peer goes.
	Disconnected(nodeID ids.NodeID)
	// HandleInbound is given every chain message (bootstrapping, consensus, app, state sync) of a
	// connected peer. msg.Body aliases a buffer the handler may keep.
	HandleInbound(nodeID ids.NodeID, msg *wire.Message)
}

// Validators reads the Primary Network's validator set.
type Validators interface {
	// GetWeight returns nodeID's weight in subnetID's set, 0 for a non-validator.
	GetWeight(subnetID ids.ID, nodeID ids.NodeID) uint64
	// TotalWeight returns the sum of subnetID's weights.
	TotalWeight(subnetID ids.ID) (uint64, error)
}

// BLSKeys is an optional extension of Validators: when the Validators given to New implements it,
// the BLS signature of a validator's IP claim is checked against its registered key (§1.4).
type BLSKeys interface {
	// BLSPublicKey returns nodeID's registered BLS key as a current Primary Network validator, or
	// nil.
	BLSPublicKey(nodeID ids.NodeID) *bls.PublicKey
}

// Uptimes gives this node's measurement of a peer's Primary Network uptime, sent in each Ping.
type Uptimes interface {
	// UptimePercent returns nodeID's uptime as an integer percentage, 0–100; 0 for a node that is
	// not a validator.
	UptimePercent(nodeID ids.NodeID) uint32
}

func (c Config) withDefaults() Config {
	def := func(d *time.Duration, v time.Duration) {
		if *d == 0 {
			*d = v
		}
	}
	def(&c.MaxClockDifference, DefaultMaxClockDifference)
	def(&c.PingFrequency, DefaultPingFrequency)
	def(&c.PingTimeout, DefaultPingTimeout)
	def(&c.PeerListFrequency, DefaultPeerListFrequency)
	def(&c.MaxReconnectDelay, DefaultMaxReconnectDelay)
	def(&c.HandshakeTimeout, DefaultHandshakeTimeout)
	return c
}

func (c Config) validate() error {
	var errs []error
	if c.NetworkID == 0 {
		errs = append(errs, errors.New("a NetworkID is required"))
	}
	if c.Cert == nil || c.Cert.Leaf == nil {
		errs = append(errs, errors.New("a Cert with its Leaf is required"))
	}
	if c.Signer == nil {
		errs = append(errs, errors.New("a BLS Signer is required"))
	}
	if len(c.TrackedSubnets) > MaxTrackedSubnets {
		errs = append(errs, fmt.Errorf("at most %d tracked subnets, not %d", MaxTrackedSubnets, len(c.TrackedSubnets)))
	}
	for _, acp := range c.SupportedACPs {
		for _, o := range c.ObjectedACPs {
			if acp == o {
				errs = append(errs, fmt.Errorf("ACP %d is both supported and objected to", acp))
			}
		}
	}
	if c.PingFrequency >= c.PingTimeout && c.PingTimeout > 0 {
		errs = append(errs, fmt.Errorf("ping frequency %v must be below the ping timeout %v", c.PingFrequency, c.PingTimeout))
	}
	return errors.Join(errs...)
}

func (d Deps) validate() error {
	var errs []error
	if d.Handler == nil {
		errs = append(errs, errors.New("Deps.Handler is required"))
	}
	if d.Validators == nil {
		errs = append(errs, errors.New("Deps.Validators is required"))
	}
	if d.Uptimes == nil {
		errs = append(errs, errors.New("Deps.Uptimes is required"))
	}
	return errors.Join(errs...)
}
