package info

import (
	"encoding/json"
	"time"

	"github.com/cornice-node/cornice/crypto/bls"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/jsonrpc"
)

// Arguments and replies of the Info service. Field order is wire order (node-api.md §3); numbers
// wrapped in jsonrpc types go out as decimal strings, plain Go integers as bare numbers (§1.8).

// ACPsReply is the result of info.acps (node-api.md §3.1). Map keys print as decimal strings
// sorted as text.
type ACPsReply struct {
	ACPs map[uint32]*ACPPreference `json:"acps"`
}

// ACPPreference is the stake for and against one ACP. The NodeID lists are sorted by their text
// and never null.
type ACPPreference struct {
	SupportWeight jsonrpc.Uint64 `json:"supportWeight"`
	Supporters    []ids.NodeID   `json:"supporters"`
	ObjectWeight  jsonrpc.Uint64 `json:"objectWeight"`
	Objectors     []ids.NodeID   `json:"objectors"`
	AbstainWeight jsonrpc.Uint64 `json:"abstainWeight"`
}

// IsBootstrappedArgs are the params of info.isBootstrapped (node-api.md §3.2).
type IsBootstrappedArgs struct {
	// Chain is a chain alias or ID text. Required.
	Chain string `json:"chain"`
}

// IsBootstrappedReply is the result of info.isBootstrapped.
type IsBootstrappedReply struct {
	IsBootstrapped bool `json:"isBootstrapped"`
}

// GetBlockchainIDArgs are the params of info.getBlockchainID (node-api.md §3.3).
type GetBlockchainIDArgs struct {
	Alias string `json:"alias"`
}

// GetBlockchainIDReply is the result of info.getBlockchainID.
type GetBlockchainIDReply struct {
	BlockchainID ids.ID `json:"blockchainID"`
}

// GetNetworkIDReply is the result of info.getNetworkID (node-api.md §3.4).
type GetNetworkIDReply struct {
	NetworkID jsonrpc.Uint32 `json:"networkID"`
}

// GetNetworkNameReply is the result of info.getNetworkName (node-api.md §3.5).
type GetNetworkNameReply struct {
	NetworkName string `json:"networkName"`
}

// GetNodeIDReply is the result of info.getNodeID (node-api.md §3.6).
type GetNodeIDReply struct {
	NodeID  ids.NodeID            `json:"nodeID"`
	NodePOP bls.ProofOfPossession `json:"nodePOP"`

	// encoded caches the reply's JSON when the service shares one constant reply (hot path).
	encoded []byte
}

// EncodedJSON returns the cached encoding of a shared reply, or nil (jsonrpc.Encoded).
func (r *GetNodeIDReply) EncodedJSON() []byte { return r.encoded }

// MarshalJSON returns the cached encoding of a shared reply, or encodes r.
func (r *GetNodeIDReply) MarshalJSON() ([]byte, error) {
	if r.encoded != nil {
		return r.encoded, nil
	}
	type plain GetNodeIDReply
	return json.Marshal((*plain)(r))
}

// GetNodeIPReply is the result of info.getNodeIP (node-api.md §3.7).
type GetNodeIPReply struct {
	// IP is "<addr>:<port>", with an IPv6 address in brackets; "" while the address is unknown.
	IP string `json:"ip"`
}

// GetNodeVersionReply is the result of info.getNodeVersion (node-api.md §3.8).
type GetNodeVersionReply struct {
	Version            string         `json:"version"`
	DatabaseVersion    string         `json:"databaseVersion"`
	RPCProtocolVersion jsonrpc.Uint32 `json:"rpcProtocolVersion"`
	GitCommit          string         `json:"gitCommit"`
	// VMVersions maps each VM's primary alias to its version; never null.
	VMVersions map[string]string `json:"vmVersions"`

	// encoded caches the reply's JSON when the service shares one constant reply (hot path).
	encoded []byte
}

// EncodedJSON returns the cached encoding of a shared reply, or nil (jsonrpc.Encoded).
func (r *GetNodeVersionReply) EncodedJSON() []byte { return r.encoded }

// MarshalJSON returns the cached encoding of a shared reply, or encodes r.
func (r *GetNodeVersionReply) MarshalJSON() ([]byte, error) {
	if r.encoded != nil {
		return r.encoded, nil
	}
	type plain GetNodeVersionReply
	return json.Marshal((*plain)(r))
}

// GetTxFeeReply is the result of the deprecated info.getTxFee (node-api.md §3.9).
type GetTxFeeReply struct {
	TxFee                         jsonrpc.Uint64 `json:"txFee"`
	CreateAssetTxFee              jsonrpc.Uint64 `json:"createAssetTxFee"`
	CreateSubnetTxFee             jsonrpc.Uint64 `json:"createSubnetTxFee"`
	TransformSubnetTxFee          jsonrpc.Uint64 `json:"transformSubnetTxFee"`
	CreateBlockchainTxFee         jsonrpc.Uint64 `json:"createBlockchainTxFee"`
	AddPrimaryNetworkValidatorFee jsonrpc.Uint64 `json:"addPrimaryNetworkValidatorFee"`
	AddPrimaryNetworkDelegatorFee jsonrpc.Uint64 `json:"addPrimaryNetworkDelegatorFee"`
	AddSubnetValidatorFee         jsonrpc.Uint64 `json:"addSubnetValidatorFee"`
	AddSubnetDelegatorFee         jsonrpc.Uint64 `json:"addSubnetDelegatorFee"`
}

// GetVMsReply is the result of info.getVMs (node-api.md §3.10). Map keys are CB58 IDs sorted as
// text; alias lists are never null.
type GetVMsReply struct {
	VMs map[ids.ID][]string `json:"vms"`
	Fxs map[ids.ID]string   `json:"fxs"`
}

// PeersArgs are the params of info.peers (node-api.md §3.11).
type PeersArgs struct {
	// NodeIDs selects peers, in this order, repeating duplicates. Empty: every connected peer.
	NodeIDs []ids.NodeID `json:"nodeIDs"`
}

// PeersReply is the result of info.peers.
type PeersReply struct {
	NumPeers jsonrpc.Uint64 `json:"numPeers"`
	// Peers is never null.
	Peers []PeerInfo `json:"peers"`
}

// PeerInfo describes one peer in info.peers, fields in the reference's order. No list is null.
type PeerInfo struct {
	IP             string         `json:"ip"`
	PublicIP       string         `json:"publicIP"`
	NodeID         ids.NodeID     `json:"nodeID"`
	Version        string         `json:"version"`
	UpgradeTime    uint64         `json:"upgradeTime"`
	LastSent       time.Time      `json:"lastSent"`
	LastReceived   time.Time      `json:"lastReceived"`
	ObservedUptime jsonrpc.Uint32 `json:"observedUptime"`
	// TrackedSubnets are sorted by their CB58 text.
	TrackedSubnets []ids.ID `json:"trackedSubnets"`
	// SupportedACPs and ObjectedACPs are sorted as decimal text: [103,23,24] (node-api.md §1.8).
	SupportedACPs []uint32 `json:"supportedACPs"`
	ObjectedACPs  []uint32 `json:"objectedACPs"`
	// Benched are the primary aliases of the chains the peer is benched on.
	Benched []string `json:"benched"`
}

// UptimeArgs are the params of info.uptime.
type UptimeArgs struct {
	// SubnetID selects the validator set. Zero (missing or null): the Primary Network.
	SubnetID ids.ID `json:"subnetID"`
}

// UptimeReply is the result of info.uptime (node-api.md §3.12), both as 4-decimal strings.
type UptimeReply struct {
	RewardingStakePercentage  jsonrpc.Float64 `json:"rewardingStakePercentage"`
	WeightedAveragePercentage jsonrpc.Float64 `json:"weightedAveragePercentage"`
}
