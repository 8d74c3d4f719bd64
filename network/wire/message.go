package wire

import (
	"fmt"

	"google.golang.org/protobuf/encoding/protowire"
)

// Op is the field number of a message in the p2p.Message oneof (network-consensus-warp.md §1.3).
type Op protowire.Number

// The ops of p2p.Message. cornice parses the network-level ones; the others are kept as their
// body bytes for the inbound handler.
const (
	OpCompressedZstd Op = 2
	OpPing           Op = 11
	OpPong           Op = 12
	OpHandshake      Op = 13
	OpPeerList       Op = 14
	OpGetPeerList    Op = 35
	// Chain messages, kept unparsed (state sync 15–18, bootstrapping 19–24, consensus 25–29, app
	// 30–34, simplex 36).
	OpGetStateSummaryFrontier Op = 15
	OpSimplex                 Op = 36
)

// opNames names every op of the reference's p2p.Message, for logs and metric labels.
var opNames = map[Op]string{
	OpCompressedZstd: "compressed_zstd",
	OpPing:           "ping", OpPong: "pong", OpHandshake: "handshake", OpPeerList: "peer_list",
	OpGetPeerList: "get_peer_list",
	15:            "get_state_summary_frontier", 16: "state_summary_frontier",
	17: "get_accepted_state_summary", 18: "accepted_state_summary",
	19: "get_accepted_frontier", 20: "accepted_frontier", 21: "get_accepted", 22: "accepted",
	23: "get_ancestors", 24: "ancestors", 25: "get", 26: "put", 27: "push_query", 28: "pull_query",
	29: "chits", 30: "app_request", 31: "app_response", 32: "app_gossip", 34: "app_error",
	OpSimplex: "simplex",
}

// String returns the op's proto field name, or "op_<n>" for a number the reference does not use.
func (o Op) String() string {
	if name, ok := opNames[o]; ok {
		return name
	}
	return fmt.Sprintf("op_%d", int(o))
}

// Known reports whether the reference's p2p.Message has this op.
func (o Op) Known() bool {
	_, ok := opNames[o]
	return ok
}

// Message is one p2p.Message. Exactly one of the pointer fields is set for the network-level ops;
// any other known op carries its body, unparsed, in Body.
type Message struct {
	Op          Op
	Ping        *Ping
	Pong        *Pong
	Handshake   *Handshake
	PeerList    *PeerList
	GetPeerList *GetPeerList
	// Body is the encoded body of a chain message (Op outside the network-level ops).
	Body []byte
}

// Ping carries the sender's measured uptime of the receiver, 0–100 (§1.5).
type Ping struct {
	Uptime uint32
}

// Pong answers a Ping; it has no fields.
type Pong struct{}

// Handshake is the first message on a connection (§1.4). Field numbers are in encodeHandshake.
type Handshake struct {
	NetworkID      uint32
	MyTime         uint64
	IPAddr         []byte
	IPPort         uint32
	UpgradeTime    uint64
	IPSigningTime  uint64
	IPNodeIDSig    []byte
	TrackedSubnets [][]byte
	Client         *Client
	SupportedACPs  []uint32
	ObjectedACPs   []uint32
	KnownPeers     *BloomFilter
	IPBLSSig       []byte
	AllSubnets     bool
}

// Client is the sender's software name and version.
type Client struct {
	Name                string
	Major, Minor, Patch uint32
}

// BloomFilter is a filter in its wire form (network/bloom) and the salt of its entries.
type BloomFilter struct {
	Filter []byte
	Salt   []byte
}

// ClaimedIPPort is a node's signed claim to an IP and port at a time (§1.7).
type ClaimedIPPort struct {
	Certificate []byte
	IPAddr      []byte
	IPPort      uint32
	Timestamp   uint64
	Signature   []byte
	TxID        []byte
}

// GetPeerList asks for IP claims the sender does not know.
type GetPeerList struct {
	KnownPeers *BloomFilter
	AllSubnets bool
}

// PeerList carries IP claims.
type PeerList struct {
	Claims []ClaimedIPPort
}
