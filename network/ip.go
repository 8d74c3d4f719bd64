package network

import (
	"crypto"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"net/netip"
	"time"

	"github.com/cornice-node/cornice/crypto/bls"
	"github.com/cornice-node/cornice/crypto/staking"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/network/bloom"
	"github.com/cornice-node/cornice/network/wire"
)

// ipClaimLen is the length of the signed bytes of an IP claim: 16-byte IP, port, timestamp.
const ipClaimLen = 16 + 2 + 8

// ipClaimBytes returns the 26 bytes a node signs to claim addr at timestamp (§1.4): the IP in
// 16-byte form (IPv4 mapped into IPv6), the port and the timestamp, big-endian.
func ipClaimBytes(addr netip.AddrPort, timestamp uint64) []byte {
	b := make([]byte, 0, ipClaimLen)
	ip := addr.Addr().As16()
	b = append(b, ip[:]...)
	b = binary.BigEndian.AppendUint16(b, addr.Port())
	return binary.BigEndian.AppendUint64(b, timestamp)
}

// signedIP is this node's signed claim to its address.
type signedIP struct {
	addr      netip.AddrPort
	timestamp uint64
	tlsSig    []byte
	blsSig    []byte
}

// signIP signs addr at time now with the staking key and, with the proof-of-possession
// ciphersuite, the BLS key.
func signIP(addr netip.AddrPort, now time.Time, key crypto.Signer, signer *bls.SecretKey) (*signedIP, error) {
	ts := uint64(max(now.Unix(), 0))
	msg := ipClaimBytes(addr, ts)
	tlsSig, err := staking.Sign(key, msg)
	if err != nil {
		return nil, err
	}
	return &signedIP{addr: addr, timestamp: ts, tlsSig: tlsSig, blsSig: signer.SignProofOfPossession(msg).Compress()}, nil
}

// addrFromWire reads an IP of 4 or 16 bytes and a port that is not 0.
func addrFromWire(ip []byte, port uint32) (netip.AddrPort, error) {
	if port == 0 || port > 0xffff {
		return netip.AddrPort{}, fmt.Errorf("%w: port %d", errBadIP, port)
	}
	addr, ok := netip.AddrFromSlice(ip)
	if !ok {
		return netip.AddrPort{}, fmt.Errorf("%w: %d-byte address", errBadIP, len(ip))
	}
	return netip.AddrPortFrom(addr.Unmap(), uint16(port)), nil
}

// addrToWire returns the IP as the reference sends it: 4 bytes for IPv4, else 16.
func addrToWire(addr netip.AddrPort) []byte {
	return addr.Addr().Unmap().AsSlice()
}

// claim is a verified IP claim of another node, as gossiped in PeerLists.
type claim struct {
	nodeID    ids.NodeID
	cert      []byte
	addr      netip.AddrPort
	timestamp uint64
	tlsSig    []byte
}

// gossipID identifies a claim in bloom filters: SHA-256(NodeID ‖ timestamp ‖ 12 zero bytes)
// (§1.7; the reference packs the 20-byte NodeID and the timestamp into 40 bytes).
func (c *claim) gossipID() [sha256.Size]byte {
	var pre [40]byte
	copy(pre[:], c.nodeID[:])
	binary.BigEndian.PutUint64(pre[ids.NodeIDLen:], c.timestamp)
	return sha256.Sum256(pre[:])
}

// bloomHash is the claim's element hash in a filter salted with salt.
func (c *claim) bloomHash(salt []byte) uint64 {
	id := c.gossipID()
	return bloom.Hash(id[:], salt)
}

func (c *claim) toWire() wire.ClaimedIPPort {
	return wire.ClaimedIPPort{
		Certificate: c.cert,
		IPAddr:      addrToWire(c.addr),
		IPPort:      uint32(c.addr.Port()),
		Timestamp:   c.timestamp,
		Signature:   c.tlsSig,
		TxID:        make([]byte, ids.IDLen),
	}
}

// verifyClaim checks a gossiped claim: a certificate the node accepts, an IP and port, a
// timestamp at most maxSkew ahead of now, and the TLS signature (§1.7).
func verifyClaim(w *wire.ClaimedIPPort, now time.Time, maxSkew time.Duration) (*claim, error) {
	cert, err := staking.ParseCertificate(w.Certificate)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errBadClaim, err)
	}
	addr, err := addrFromWire(w.IPAddr, w.IPPort)
	if err != nil {
		return nil, err
	}
	if err := checkSigningTime(w.Timestamp, now, maxSkew); err != nil {
		return nil, err
	}
	if err := staking.CheckSignature(cert, ipClaimBytes(addr, w.Timestamp), w.Signature); err != nil {
		return nil, fmt.Errorf("%w: %w", errBadClaim, err)
	}
	return &claim{
		nodeID:    staking.NodeIDFromCert(cert.Raw),
		cert:      cert.Raw,
		addr:      addr,
		timestamp: w.Timestamp,
		tlsSig:    w.Signature,
	}, nil
}

// checkSigningTime refuses a claim signed more than maxSkew in the future.
func checkSigningTime(ts uint64, now time.Time, maxSkew time.Duration) error {
	limit := now.Add(maxSkew).Unix()
	if limit >= 0 && ts > uint64(limit) {
		return fmt.Errorf("%w: signed at %d, after %d", errBadClaim, ts, limit)
	}
	return nil
}
