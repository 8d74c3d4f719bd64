package info_test

import (
	"net/netip"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/api/info"
	"github.com/cornice-node/cornice/api/info/infotest"
	"github.com/cornice-node/cornice/ids"
)

func TestPeersSelection(t *testing.T) {
	t.Parallel()
	connected := infotest.Peers{{NodeID: staker2}, {NodeID: staker3}, {NodeID: staker4}}
	tests := []struct {
		name    string
		peers   infotest.Peers
		nodeIDs []ids.NodeID
		want    []ids.NodeID
	}{
		{name: "no peers", peers: nil, want: []ids.NodeID{}},
		{name: "all in peer-set order", peers: connected, want: []ids.NodeID{staker2, staker3, staker4}},
		{name: "empty list means all", peers: connected, nodeIDs: []ids.NodeID{}, want: []ids.NodeID{staker2, staker3, staker4}},
		{
			name:    "request order, unknown skipped, duplicates repeated",
			peers:   connected,
			nodeIDs: []ids.NodeID{staker4, staker5, staker2, staker4, staker4},
			want:    []ids.NodeID{staker4, staker2, staker4, staker4},
		},
		{name: "none connected", peers: connected, nodeIDs: []ids.NodeID{staker5}, want: []ids.NodeID{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			f.deps.Peers = tt.peers
			reply, err := f.service(t).Peers(t.Context(), &info.PeersArgs{NodeIDs: tt.nodeIDs})
			require.NoError(t, err)
			require.NotNil(t, reply.Peers)
			require.Equal(t, uint64(len(tt.want)), uint64(reply.NumPeers))
			got := make([]ids.NodeID, 0, len(reply.Peers))
			for _, p := range reply.Peers {
				got = append(got, p.NodeID)
			}
			require.Equal(t, tt.want, got)
		})
	}
}

func TestPeersEmptyJSON(t *testing.T) {
	t.Parallel()
	reply, err := newFixture(t).service(t).Peers(t.Context(), &info.PeersArgs{})
	require.NoError(t, err)
	require.Equal(t, `{"numPeers":"0","peers":[]}`, marshal(t, reply))
}

func TestPeerInfoFormat(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.deps.Peers = infotest.Peers{{
		IP:             netip.MustParseAddrPort("5.6.7.8:9651"),
		NodeID:         staker2,
		Version:        "cornice/0.1.0",
		UpgradeTime:    123,
		LastSent:       time.Unix(1700000000, 999_999_999).In(time.FixedZone("X", -7*3600)),
		LastReceived:   time.Unix(1700000000, 0),
		ObservedUptime: 99,
		// Text order differs from byte order: ids.ID{10, 255} prints before ids.ID{1}.
		TrackedSubnets: []ids.ID{{1}, ids.Empty, {10, 255}, ids.Empty},
		SupportedACPs:  []uint32{24, 23, 103, 23},
		ObjectedACPs:   nil,
		Benched:        []ids.ID{cChainID, xChainID},
	}}
	reply, err := f.service(t).Peers(t.Context(), &info.PeersArgs{})
	require.NoError(t, err)
	tracked := []ids.ID{ids.Empty, {1}, {10, 255}}
	// Sort the expectation by text, independently of the code under test.
	if tracked[1].String() > tracked[2].String() {
		tracked[1], tracked[2] = tracked[2], tracked[1]
	}
	require.Equal(t, `{"numPeers":"1","peers":[{"ip":"5.6.7.8:9651","publicIP":"","nodeID":"NodeID-MFrZFVCXPv5iCn6M9K6XduxGTYp891xXZ","version":"cornice/0.1.0","upgradeTime":123,`+
		`"lastSent":"2023-11-14T22:13:20Z","lastReceived":"2023-11-14T22:13:20Z","observedUptime":"99",`+
		`"trackedSubnets":["`+tracked[0].String()+`","`+tracked[1].String()+`","`+tracked[2].String()+`"],`+
		`"supportedACPs":[103,23,24],"objectedACPs":[],"benched":["C","X"]}]}`,
		marshal(t, reply))
}

func TestPeersBenchedWithoutAlias(t *testing.T) {
	t.Parallel()
	unknown := ids.FromName("unknown-chain")
	f := newFixture(t)
	f.deps.Peers = infotest.Peers{{NodeID: staker2, Benched: []ids.ID{unknown}}}
	_, err := f.service(t).Peers(t.Context(), &info.PeersArgs{})
	require.EqualError(t, err,
		"failed to get primary alias for chain ID "+unknown.String()+": there is no alias for ID: "+unknown.String())
}
