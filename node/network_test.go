package node

import (
	"log/slog"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
	"github.com/cornice-node/cornice/uptime"
)

// Peers reach every uptime tracker: one tracking before a peer connects and one created while it
// is connected both see it, and neither after it leaves.
func TestPeerEventsFeedTrackers(t *testing.T) {
	t.Parallel()
	db, err := storage.Open(t.TempDir(), slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	defer db.Close()
	clk := clock.NewFake(time.Unix(1_700_000_000, 0))
	self, peer := ids.NodeID{1}, ids.NodeID{2}
	e := &peerEvents{self: self, connected: map[ids.NodeID]bool{}, log: slog.New(slog.DiscardHandler)}

	early, err := uptime.New(db.Prefixed(storage.PrefixUptime).Prefixed([]byte{1}), clk)
	require.NoError(t, err)
	e.track(early)
	require.True(t, early.IsConnected(self))
	require.False(t, early.IsConnected(peer))

	e.Connected(peer, []ids.ID{ids.Empty})
	require.True(t, early.IsConnected(peer))
	late, err := uptime.New(db.Prefixed(storage.PrefixUptime).Prefixed([]byte{2}), clk)
	require.NoError(t, err)
	e.track(late)
	require.True(t, late.IsConnected(peer))

	e.Disconnected(peer)
	require.False(t, early.IsConnected(peer))
	require.False(t, late.IsConnected(peer))
	require.True(t, late.IsConnected(self))
}

// The Primary Network uptime sent in pings is the measured share of time since the validator
// started, 0 for a node that is not a validator.
func TestPrimaryUptimePercent(t *testing.T) {
	t.Parallel()
	db, err := storage.Open(t.TempDir(), slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	defer db.Close()
	clk := clock.NewFake(time.Unix(1_700_000_000, 0))
	tr, err := uptime.New(db.Prefixed(storage.PrefixUptime), clk)
	require.NoError(t, err)
	u := &primaryUptime{tracker: tr, starts: map[ids.NodeID]uint64{}}
	v := ids.NodeID{7}
	require.NoError(t, tr.Sync([]uptime.Validator{{ValidationID: validationID(v), NodeID: v, StartTime: 1_700_000_000, Active: true}}))
	u.starts[v] = 1_700_000_000
	tr.StartTracking(nil)
	tr.Connect(v)
	clk.Advance(30 * time.Second)
	tr.Disconnect(v)
	clk.Advance(70 * time.Second)
	require.Equal(t, uint32(30), u.UptimePercent(v))
	require.Zero(t, u.UptimePercent(ids.NodeID{8}))
}
