package node_test

import (
	"encoding/json"
	"errors"
	"net"
	"testing"
	"time"

	refinfo "github.com/ava-labs/avalanchego/api/info"
	refids "github.com/ava-labs/avalanchego/ids"
	refupgrade "github.com/ava-labs/avalanchego/upgrade"
	refconstants "github.com/ava-labs/avalanchego/utils/constants"
	refjson "github.com/ava-labs/avalanchego/utils/json"
	"github.com/gorilla/rpc/v2/json2"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/config"
)

// The tests in this file talk to a real node with the reference node's own Info client
// (avalanchego v1.14.2, api/info): whatever that client decodes from cornice, it decodes the same
// way from the reference (node-api.md §3). Methods the client has no wrapper for (getTxFee, acps,
// uptime with a subnetID) go through its Requester with the reference's reply types.

const (
	staker1NodeID = "NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg"
	// staker1PublicKey is the compressed BLS public key of the local signer1 (testdata/info.txt).
	staker1PublicKey = "0x900c9b119b5c82d781d4b49be78c3fc7ae65f2b435b7ed9e3a8b9a03e475edff86d8a64827fec8db23a6f236afbf127d"
	// staker1PoP is its proof of possession (testdata/info.txt).
	staker1PoP = "0x8bfd6d4d2086b2b8115d8f72f94095fefe5a6c07876b2accf51a811adf520f389e74a3d2152a6d90b521e2be58ffe468043dc5ea68b4c44410eb67f8dc24f13ed4f194000764c0e922cd254a3588a4962b1cb4db7de4bb9cda9d9d4d6b03f3d2"
	// zeroID is the P-Chain's ID and the Primary Network's subnet ID (node-api.md §3.3).
	zeroID = "11111111111111111111111111111111LpoYY"
)

func TestInfoClient(t *testing.T) {
	t.Parallel()
	n := start(t, stakerConfig(t))
	c := refinfo.NewClient(n.url)

	t.Run("GetNodeVersion", func(t *testing.T) {
		t.Parallel()
		got, err := c.GetNodeVersion(t.Context())
		require.NoError(t, err)
		require.Equal(t, config.Current(), got.Version)
		require.Equal(t, "v1", got.DatabaseVersion)
		require.Equal(t, refjson.Uint32(45), got.RPCProtocolVersion, "v1.14.2's protocol (node-api.md §3.8)")
		require.Empty(t, got.GitCommit, "tests carry no vcs stamp")
		require.Equal(t, map[string]string{
			"platform":  config.Current(),
			"avm":       config.Current(),
			"evm":       config.Current(),
			"subnetevm": config.Current(),
		}, got.VMVersions)
	})

	t.Run("GetNodeID", func(t *testing.T) {
		t.Parallel()
		nodeID, pop, err := c.GetNodeID(t.Context())
		require.NoError(t, err)
		require.Equal(t, staker1NodeID, nodeID.String())
		require.Equal(t, n.NodeID().String(), nodeID.String())
		require.NotNil(t, pop)
		// The reference's UnmarshalJSON already parsed the key as a curve point; Verify checks the
		// signature over it with the reference's BLS code.
		require.NoError(t, pop.Verify())
		raw, err := json.Marshal(pop)
		require.NoError(t, err)
		var hex struct{ PublicKey, ProofOfPossession string }
		require.NoError(t, json.Unmarshal(raw, &hex))
		require.Equal(t, staker1PublicKey, hex.PublicKey)
		require.Equal(t, staker1PoP, hex.ProofOfPossession)
	})

	t.Run("GetNodeIP", func(t *testing.T) {
		t.Parallel()
		ip, err := c.GetNodeIP(t.Context())
		require.NoError(t, err)
		// The bound staking port, on loopback (the default --staking-host).
		require.Equal(t, n.StakingAddr().(*net.TCPAddr).AddrPort(), ip)
		require.Equal(t, "127.0.0.1", ip.Addr().String())
	})

	t.Run("GetNetworkID", func(t *testing.T) {
		t.Parallel()
		id, err := c.GetNetworkID(t.Context())
		require.NoError(t, err)
		require.Equal(t, refconstants.LocalID, id)
		require.Equal(t, uint32(12345), id)
	})

	t.Run("GetNetworkName", func(t *testing.T) {
		t.Parallel()
		name, err := c.GetNetworkName(t.Context())
		require.NoError(t, err)
		require.Equal(t, refconstants.LocalName, name)
		require.Equal(t, "local", name)
	})

	t.Run("GetBlockchainID", func(t *testing.T) {
		t.Parallel()
		for _, alias := range []string{"P", "platform"} {
			id, err := c.GetBlockchainID(t.Context(), alias)
			require.NoError(t, err, alias)
			require.Equal(t, refconstants.PlatformChainID, id, alias)
			require.Equal(t, zeroID, id.String(), alias)
		}
	})

	t.Run("IsBootstrapped", func(t *testing.T) {
		t.Parallel()
		ok, err := c.IsBootstrapped(t.Context(), "P")
		require.NoError(t, err)
		require.True(t, ok, "the P-Chain runs")
		// No VM for the X-Chain is linked into this node: it resolves but does not run.
		ok, err = c.IsBootstrapped(t.Context(), "X")
		require.NoError(t, err)
		require.False(t, ok)
	})

	t.Run("GetTxFee", func(t *testing.T) {
		t.Parallel()
		var got refinfo.GetTxFeeResponse
		require.NoError(t, c.Requester.SendRequest(t.Context(), "info.getTxFee", struct{}{}, &got))
		// The local network's fees (node-api.md §3.9).
		require.Equal(t, refinfo.GetTxFeeResponse{
			TxFee:                         1_000_000,
			CreateAssetTxFee:              1_000_000,
			CreateSubnetTxFee:             100_000_000,
			TransformSubnetTxFee:          100_000_000,
			CreateBlockchainTxFee:         100_000_000,
			AddPrimaryNetworkValidatorFee: 0,
			AddPrimaryNetworkDelegatorFee: 0,
			AddSubnetValidatorFee:         1_000_000,
			AddSubnetDelegatorFee:         1_000_000,
		}, got)
	})

	t.Run("GetVMs", func(t *testing.T) {
		t.Parallel()
		vms, err := c.GetVMs(t.Context())
		require.NoError(t, err)
		require.Equal(t, map[refids.ID][]string{
			refconstants.PlatformVMID: {"platform"},
			refconstants.AVMID:        {"avm"},
			refconstants.EVMID:        {"evm"},
			// cornice registers subnetevm too; the reference's local node has only the three above.
			refconstants.SubnetEVMID: {"subnetevm"},
		}, vms)

		// The client drops fxs; read them with the reference's reply type.
		var reply refinfo.GetVMsReply
		require.NoError(t, c.Requester.SendRequest(t.Context(), "info.getVMs", struct{}{}, &reply))
		require.Equal(t, map[refids.ID]string{
			refids.ID{'s', 'e', 'c', 'p', '2', '5', '6', 'k', '1', 'f', 'x'}: "secp256k1fx",
			refids.ID{'n', 'f', 't', 'f', 'x'}:                               "nftfx",
			refids.ID{'p', 'r', 'o', 'p', 'e', 'r', 't', 'y', 'f', 'x'}:      "propertyfx",
		}, reply.Fxs)
	})

	t.Run("Peers", func(t *testing.T) {
		t.Parallel()
		other, err := refids.NodeIDFromString("NodeID-MFrZFVCXPv5iCn6M9K6XduxGTYp891xXZ")
		require.NoError(t, err)
		for _, nodeIDs := range [][]refids.NodeID{nil, {}, {other}} {
			peers, err := c.Peers(t.Context(), nodeIDs)
			require.NoError(t, err)
			require.NotNil(t, peers, "peers is [] on the wire, not null")
			require.Empty(t, peers)
		}
		var reply refinfo.PeersReply
		require.NoError(t, c.Requester.SendRequest(t.Context(), "info.peers", &refinfo.PeersArgs{}, &reply))
		require.Equal(t, refjson.Uint64(0), reply.NumPeers)
	})

	t.Run("Uptime", func(t *testing.T) {
		t.Parallel()
		want := &refinfo.UptimeResponse{RewardingStakePercentage: 100, WeightedAveragePercentage: 100}
		got, err := c.Uptime(t.Context())
		require.NoError(t, err)
		require.Equal(t, want, got)

		// The client has no subnetID argument; the reference ignores one (node-api.md §3.12).
		args := struct {
			SubnetID refids.ID `json:"subnetID"`
		}{refconstants.PrimaryNetworkID}
		got = &refinfo.UptimeResponse{}
		require.NoError(t, c.Requester.SendRequest(t.Context(), "info.uptime", &args, got))
		require.Equal(t, want, got)
	})

	t.Run("Upgrades", func(t *testing.T) {
		t.Parallel()
		got, err := c.Upgrades(t.Context())
		require.NoError(t, err)
		require.NoError(t, got.Validate())
		require.Equal(t, refupgrade.Default, *got, "the reference's local schedule")

		ours := config.UpgradesFor(config.LocalID)
		require.True(t, ours.ApricotPhase1Time.Equal(got.ApricotPhase1Time))
		require.True(t, ours.DurangoTime.Equal(got.DurangoTime))
		require.True(t, ours.GraniteTime.Equal(got.GraniteTime))
		require.True(t, ours.HeliconTime.Equal(got.HeliconTime))
		require.Equal(t, ours.ApricotPhase4MinPChainHeight, got.ApricotPhase4MinPChainHeight)
		require.Equal(t, ours.CortinaXChainStopVertexID.String(), got.CortinaXChainStopVertexID.String())
		require.Equal(t, 30*time.Second, got.GraniteEpochDuration)
		require.Equal(t, ours.GraniteEpochDuration, got.GraniteEpochDuration)
	})

	t.Run("Acps", func(t *testing.T) {
		t.Parallel()
		var got refinfo.ACPsReply
		require.NoError(t, c.Requester.SendRequest(t.Context(), "info.acps", struct{}{}, &got))
		require.NotNil(t, got.ACPs, "acps is {} on the wire, not null")
		require.Empty(t, got.ACPs, "CurrentACPs is empty in v1.14.2 (node-api.md §3.1)")
	})

	t.Run("errors", func(t *testing.T) {
		t.Parallel()
		// Texts of node-api.md §3.2 and §3.3; all are -32000 server errors.
		tests := []struct {
			name    string
			call    func() error
			wantMsg string
		}{
			{
				name:    "GetBlockchainID empty",
				call:    func() error { _, err := c.GetBlockchainID(t.Context(), ""); return err },
				wantMsg: "there is no ID with alias: ",
			},
			{
				name:    "GetBlockchainID unknown",
				call:    func() error { _, err := c.GetBlockchainID(t.Context(), "Q"); return err },
				wantMsg: "there is no ID with alias: Q",
			},
			{
				name:    "IsBootstrapped empty",
				call:    func() error { _, err := c.IsBootstrapped(t.Context(), ""); return err },
				wantMsg: "argument 'chain' not given",
			},
			{
				name:    "IsBootstrapped unknown",
				call:    func() error { _, err := c.IsBootstrapped(t.Context(), "nope"); return err },
				wantMsg: "there is no chain with alias/ID 'nope'",
			},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				err := tt.call()
				require.ErrorContains(t, err, tt.wantMsg)
				rpcErr, ok := errors.AsType[*json2.Error](err)
				require.True(t, ok, "%T", err)
				require.Equal(t, json2.E_SERVER, rpcErr.Code)
				require.Equal(t, tt.wantMsg, rpcErr.Message)
				require.Nil(t, rpcErr.Data)
			})
		}
	})
}

// TestInfoClientRoundTrip decodes each reply into the reference's reply type and encodes it again
// with the reference's marshallers: equal bytes mean the reference type has a field for every key
// cornice sends, cornice sends every field the type has, and every value survives the trip.
func TestInfoClientRoundTrip(t *testing.T) {
	t.Parallel()
	n := start(t, stakerConfig(t))
	c := refinfo.NewClient(n.url)

	tests := []struct {
		name   string
		method string
		params any
		reply  any // a pointer to the reference's reply type
	}{
		{name: "getNodeVersion", method: "info.getNodeVersion", params: struct{}{}, reply: &refinfo.GetNodeVersionReply{}},
		{name: "getNodeID", method: "info.getNodeID", params: struct{}{}, reply: &refinfo.GetNodeIDReply{}},
		{name: "getNodeIP", method: "info.getNodeIP", params: struct{}{}, reply: &refinfo.GetNodeIPReply{}},
		{name: "getNetworkID", method: "info.getNetworkID", params: struct{}{}, reply: &refinfo.GetNetworkIDReply{}},
		{name: "getNetworkName", method: "info.getNetworkName", params: struct{}{}, reply: &refinfo.GetNetworkNameReply{}},
		{
			name: "getBlockchainID", method: "info.getBlockchainID",
			params: &refinfo.GetBlockchainIDArgs{Alias: "P"}, reply: &refinfo.GetBlockchainIDReply{},
		},
		{
			name: "isBootstrapped", method: "info.isBootstrapped",
			params: &refinfo.IsBootstrappedArgs{Chain: "P"}, reply: &refinfo.IsBootstrappedResponse{},
		},
		{name: "getTxFee", method: "info.getTxFee", params: struct{}{}, reply: &refinfo.GetTxFeeResponse{}},
		{name: "peers", method: "info.peers", params: &refinfo.PeersArgs{}, reply: &refinfo.PeersReply{}},
		{name: "uptime", method: "info.uptime", params: struct{}{}, reply: &refinfo.UptimeResponse{}},
		{name: "upgrades", method: "info.upgrades", params: struct{}{}, reply: &refupgrade.Config{}},
		{name: "getVMs", method: "info.getVMs", params: struct{}{}, reply: &refinfo.GetVMsReply{}},
		{name: "acps", method: "info.acps", params: struct{}{}, reply: &refinfo.ACPsReply{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var raw json.RawMessage
			require.NoError(t, c.Requester.SendRequest(t.Context(), tt.method, tt.params, &raw))
			require.NoError(t, json.Unmarshal(raw, tt.reply))
			again, err := json.Marshal(tt.reply)
			require.NoError(t, err)
			require.Equal(t, string(raw), string(again))
		})
	}
}
