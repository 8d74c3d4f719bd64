package config

import (
	"errors"
	"fmt"
	"net/netip"
	"slices"
	"time"

	"github.com/cornice-node/cornice/ids"
)

// P2P holds the peer-to-peer settings (network-consensus-warp.md §1). Default gives the values of
// DefaultP2P.
type P2P struct {
	// StakingHost is the address the peer-to-peer listener binds (--staking-host). Default
	// "127.0.0.1", like the HTTP server: a development node is not reachable from other machines
	// until it is given an address ("" binds every interface, the reference's default).
	StakingHost string
	// BootstrapIPs and BootstrapIDs are the nodes dialled at start and kept connected
	// (--bootstrap-ips, --bootstrap-ids): both or neither, of equal lengths, the IPs as ip:port.
	// Default none.
	BootstrapIPs []string
	BootstrapIDs []ids.NodeID
	// MaxClockDifference is the largest clock skew accepted from a peer
	// (--network-max-clock-difference). Default 1m; must be above 0.
	MaxClockDifference time.Duration
	// PingFrequency is how often each peer is pinged (--network-ping-frequency). Default 22.5s;
	// must be above 0 and below the 30s after which a silent peer is dropped.
	PingFrequency time.Duration
	// AllowPrivateIPs lets the node dial private addresses learnt from peers
	// (--network-allow-private-ips). Default true.
	AllowPrivateIPs bool
	// RequireValidatorToConnect refuses inbound peers that are neither bootstrappers nor
	// validators while this node is not a validator (--network-require-validator-to-connect).
	// Default false.
	RequireValidatorToConnect bool
}

// pingTimeout is the reference's ping timeout: a peer silent that long is dropped, so pings must
// come more often.
const pingTimeout = 30 * time.Second

// DefaultP2P returns the default peer-to-peer settings.
func DefaultP2P() P2P {
	return P2P{
		StakingHost:        "127.0.0.1",
		MaxClockDifference: time.Minute,
		PingFrequency:      pingTimeout * 3 / 4,
		AllowPrivateIPs:    true,
	}
}

// Bootstrappers returns the bootstrap nodes as pairs of ID and address. Validate must have
// passed.
func (p *P2P) Bootstrappers() ([]ids.NodeID, []netip.AddrPort) {
	addrs := make([]netip.AddrPort, 0, len(p.BootstrapIPs))
	for _, s := range p.BootstrapIPs {
		a, err := netip.ParseAddrPort(s)
		if err == nil {
			addrs = append(addrs, a)
		}
	}
	return slices.Clone(p.BootstrapIDs), addrs
}

// validate reports every problem of p, with the reference's texts for the bootstrap lists.
func (p *P2P) validate() []error {
	var errs []error
	switch {
	case len(p.BootstrapIPs) > 0 && len(p.BootstrapIDs) == 0:
		errs = append(errs, fmt.Errorf("set %q but didn't set %q", "bootstrap-ips", "bootstrap-ids"))
	case len(p.BootstrapIDs) > 0 && len(p.BootstrapIPs) == 0:
		errs = append(errs, fmt.Errorf("set %q but didn't set %q", "bootstrap-ids", "bootstrap-ips"))
	case len(p.BootstrapIPs) != len(p.BootstrapIDs):
		errs = append(errs, fmt.Errorf("expected the number of bootstrapIPs (%d) to match the number of bootstrapIDs (%d)", len(p.BootstrapIPs), len(p.BootstrapIDs)))
	}
	for _, s := range p.BootstrapIPs {
		if a, err := netip.ParseAddrPort(s); err != nil {
			errs = append(errs, fmt.Errorf("couldn't parse bootstrap ip %s: %w", s, err))
		} else if a.Port() == 0 {
			errs = append(errs, fmt.Errorf("couldn't parse bootstrap ip %s: %w", s, errors.New("port 0")))
		}
	}
	if p.MaxClockDifference <= 0 {
		errs = append(errs, fmt.Errorf("network-max-clock-difference must be above 0, not %s", p.MaxClockDifference))
	}
	if p.PingFrequency <= 0 || p.PingFrequency >= pingTimeout {
		errs = append(errs, fmt.Errorf("network-ping-frequency must be above 0 and below %s, not %s", pingTimeout, p.PingFrequency))
	}
	return errs
}

// p2pSettings are the peer-to-peer settings, after public-ip in the help order.
var p2pSettings = []Setting{
	setting("staking-host", `address the peer-to-peer listener binds; "" binds every interface`,
		func(c *Config) *string { return &c.P2P.StakingHost }, newStringValue),
	setting("bootstrap-ips", "ip:port of the nodes to connect to at start, separated by commas or spaces (with bootstrap-ids, in the same order)",
		func(c *Config) *[]string { return &c.P2P.BootstrapIPs }, newStringsValue),
	setting("bootstrap-ids", "NodeIDs of the bootstrap-ips nodes, separated by commas or spaces",
		func(c *Config) *[]ids.NodeID { return &c.P2P.BootstrapIDs }, newNodeIDsValue),
	setting("network-max-clock-difference", "largest clock difference accepted from a peer",
		func(c *Config) *time.Duration { return &c.P2P.MaxClockDifference }, newDurationValue),
	setting("network-ping-frequency", "how often each peer is pinged (below 30s)",
		func(c *Config) *time.Duration { return &c.P2P.PingFrequency }, newDurationValue),
	setting("network-allow-private-ips", "dial private addresses learnt from peers",
		func(c *Config) *bool { return &c.P2P.AllowPrivateIPs }, newBoolValue),
	setting("network-require-validator-to-connect", "accept only validators and bootstrap nodes as inbound peers unless this node validates",
		func(c *Config) *bool { return &c.P2P.RequireValidatorToConnect }, newBoolValue),
}

// newNodeIDsValue is a list of NodeIDs (NodeID-<cb58>).
func newNodeIDsValue(p *[]ids.NodeID) Value {
	return &listValue[ids.NodeID]{p: p, typ: "nodeIDs",
		parse: func(s string) (ids.NodeID, error) {
			id, err := ids.NodeIDFromString(s)
			if err != nil {
				return ids.NodeID{}, fmt.Errorf("couldn't parse bootstrap peer id %s: %w", s, err)
			}
			return id, nil
		},
		format: ids.NodeID.String}
}
