package network

import (
	"crypto/x509"
	"fmt"
	"net/netip"
	"slices"
	"time"

	"github.com/cornice-node/cornice/crypto/bls"
	"github.com/cornice-node/cornice/crypto/staking"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/network/bloom"
	"github.com/cornice-node/cornice/network/wire"
)

// handshakeInfo is what a peer's accepted Handshake says.
type handshakeInfo struct {
	client         wire.Client
	upgradeTime    uint64
	publicIP       netip.AddrPort
	claim          *claim
	trackedSubnets []ids.ID
	supportedACPs  []uint32
	objectedACPs   []uint32
	allSubnets     bool
	clockSkew      time.Duration
}

// handshakeChecks are the local facts a Handshake is checked against.
type handshakeChecks struct {
	networkID          uint32
	now                time.Time
	maxClockDifference time.Duration
	upgradeTime        time.Time
	knownACPs          []uint32
	// blsKey is the peer's registered BLS key as a Primary Network validator, or nil.
	blsKey *bls.PublicKey
}

// checkHandshake applies the reference's checks to a peer's Handshake, in its order (§1.4):
// network ID, clock, tracked subnets, ACP lists, known peers filter, IP, TLS signature of the IP
// claim, BLS signature, version. cert is the peer's TLS certificate.
func checkHandshake(h *wire.Handshake, cert *x509.Certificate, c handshakeChecks) (*handshakeInfo, error) {
	if h.NetworkID != c.networkID {
		return nil, fmt.Errorf("%w: %d, want %d", errNetworkID, h.NetworkID, c.networkID)
	}
	skew := c.now.Sub(time.Unix(int64(min(h.MyTime, 1<<62)), 0))
	if skew > c.maxClockDifference || -skew > c.maxClockDifference {
		return nil, fmt.Errorf("%w: %v", errClockSkew, skew)
	}
	if h.Client == nil {
		return nil, errMissingClient
	}
	if len(h.TrackedSubnets) > MaxTrackedSubnets {
		return nil, fmt.Errorf("%w: %d", errTooManySubnets, len(h.TrackedSubnets))
	}
	info := &handshakeInfo{
		client:         *h.Client,
		upgradeTime:    h.UpgradeTime,
		trackedSubnets: []ids.ID{ids.Empty},
		allSubnets:     h.AllSubnets,
		clockSkew:      skew,
	}
	for _, b := range h.TrackedSubnets {
		id, err := ids.ToID(b)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", errBadSubnet, err)
		}
		if id != ids.Empty && !slices.Contains(info.trackedSubnets, id) {
			info.trackedSubnets = append(info.trackedSubnets, id)
		}
	}
	info.supportedACPs = filterACPs(h.SupportedACPs, c.knownACPs)
	info.objectedACPs = filterACPs(h.ObjectedACPs, c.knownACPs)
	for _, acp := range info.supportedACPs {
		if slices.Contains(info.objectedACPs, acp) {
			return nil, fmt.Errorf("%w: %d", errACPConflict, acp)
		}
	}
	if err := checkFilter(h.KnownPeers); err != nil {
		return nil, err
	}
	addr, err := addrFromWire(h.IPAddr, h.IPPort)
	if err != nil {
		return nil, err
	}
	if err := checkSigningTime(h.IPSigningTime, c.now, c.maxClockDifference); err != nil {
		return nil, err
	}
	msg := ipClaimBytes(addr, h.IPSigningTime)
	if err := staking.CheckSignature(cert, msg, h.IPNodeIDSig); err != nil {
		return nil, fmt.Errorf("%w: %w", errBadClaim, err)
	}
	var blsSig *bls.Signature
	if len(h.IPBLSSig) > 0 {
		if blsSig, err = bls.SignatureFromBytes(h.IPBLSSig); err != nil {
			return nil, fmt.Errorf("%w: %w", errBadBLSSig, err)
		}
	}
	if !compatible(info.client, c.now, c.upgradeTime) {
		return nil, fmt.Errorf("%w: %s", errVersion, versionString(info.client))
	}
	if c.blsKey != nil && (blsSig == nil || !bls.VerifyProofOfPossession(c.blsKey, blsSig, msg)) {
		return nil, errBadBLSSig
	}
	info.publicIP = addr
	info.claim = &claim{
		nodeID:    staking.NodeIDFromCert(cert.Raw),
		cert:      cert.Raw,
		addr:      addr,
		timestamp: h.IPSigningTime,
		tlsSig:    h.IPNodeIDSig,
	}
	return info, nil
}

// checkFilter checks a known-peers filter: it must be present and parse, with a salt of at most
// 32 bytes.
func checkFilter(f *wire.BloomFilter) error {
	if f == nil {
		return errNoKnownPeersInMsg
	}
	if len(f.Salt) > 32 {
		return fmt.Errorf("%w: %d-byte salt", errBadKnownPeers, len(f.Salt))
	}
	if _, err := bloom.Parse(f.Filter); err != nil {
		return fmt.Errorf("%w: %w", errBadKnownPeers, err)
	}
	return nil
}

// filterACPs keeps the ACPs of in that are in known (all of them when known is empty), without
// duplicates, in order.
func filterACPs(in, known []uint32) []uint32 {
	out := []uint32{}
	for _, acp := range in {
		if (len(known) == 0 || slices.Contains(known, acp)) && !slices.Contains(out, acp) {
			out = append(out, acp)
		}
	}
	return out
}

// compatible reports whether a peer's version may connect (§1.4): its major version is not above
// ours and it is at least 1.14.0, or 1.13.0 before the latest upgrade.
func compatible(v wire.Client, now, upgradeTime time.Time) bool {
	if v.Major > ProtocolVersion.Major {
		return false
	}
	least := minCompatible
	if now.Before(upgradeTime) {
		least = prevMinCompatible
	}
	return compareVersion(v, least) >= 0
}

func compareVersion(a, b wire.Client) int {
	for _, d := range [][2]uint32{{a.Major, b.Major}, {a.Minor, b.Minor}, {a.Patch, b.Patch}} {
		if d[0] != d[1] {
			if d[0] < d[1] {
				return -1
			}
			return 1
		}
	}
	return 0
}

// versionString is the peer's version as info.peers shows it: "<name>/<major>.<minor>.<patch>".
func versionString(v wire.Client) string {
	return fmt.Sprintf("%s/%d.%d.%d", v.Name, v.Major, v.Minor, v.Patch)
}
