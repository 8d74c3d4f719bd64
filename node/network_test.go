package node

import (
	"context"
	"fmt"
	"log/slog"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/crypto/bls"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/network/wire"
	"github.com/cornice-node/cornice/router"
	"github.com/cornice-node/cornice/storage"
	"github.com/cornice-node/cornice/uptime"
	"github.com/cornice-node/cornice/validators"
	"github.com/cornice-node/cornice/vms/platform"
	"github.com/cornice-node/cornice/warp"
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
	r, err := router.New(router.Config{NodeID: self}, router.Deps{Network: noNetwork{}})
	require.NoError(t, err)
	defer r.Close()
	e := &peerEvents{self: self, connected: map[ids.NodeID]bool{}, log: slog.New(slog.DiscardHandler), router: r}

	early, err := uptime.New(db.Prefixed(storage.PrefixUptime).Prefixed([]byte{1}), clk, nil)
	require.NoError(t, err)
	e.track(early)
	require.True(t, early.IsConnected(self))
	require.False(t, early.IsConnected(peer))

	e.Connected(peer, []ids.ID{ids.Empty})
	require.True(t, early.IsConnected(peer))
	late, err := uptime.New(db.Prefixed(storage.PrefixUptime).Prefixed([]byte{2}), clk, nil)
	require.NoError(t, err)
	e.track(late)
	require.True(t, late.IsConnected(peer))

	e.Disconnected(peer)
	require.False(t, early.IsConnected(peer))
	require.False(t, late.IsConnected(peer))
	require.True(t, late.IsConnected(self))
}

// noNetwork sends nothing.
type noNetwork struct{}

func (noNetwork) Send(ids.NodeID, *wire.Message) bool { return false }

// The Primary Network uptime sent in pings is the measured share of time since the validator
// started, 0 for a node that is not a validator.
func TestPrimaryUptimePercent(t *testing.T) {
	t.Parallel()
	db, err := storage.Open(t.TempDir(), slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	defer db.Close()
	clk := clock.NewFake(time.Unix(1_700_000_000, 0))
	tr, err := uptime.New(db.Prefixed(storage.PrefixUptime), clk, nil)
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
	require.InDelta(t, 0.3, u.Uptime(v), 1e-12)
	clk.Advance(time.Second)
	require.Equal(t, uint32(29), u.UptimePercent(v), "truncated, as the reference's Ping")
	require.InDelta(t, 30.0/101, u.Uptime(v), 1e-12, "exact, as the reference's getCurrentValidators")
	require.Zero(t, u.UptimePercent(ids.NodeID{8}))
	require.Zero(t, u.Uptime(ids.NodeID{8}))
	u.starts[v] = 1_700_000_101 // a validation that starts now has been up all along
	require.Equal(t, uint32(100), u.UptimePercent(v))
	require.Equal(t, 1.0, u.Uptime(v))
}

// Among other validators the Primary Network uptime follows every staker the P-Chain records (the
// genesis's included), alone only the P-Chain's view as this node runs it. Tracking starts at the
// first sync: the time before it counts as up (a validator that started long ago is 100 % up at
// once), after it only connected time does.
func TestPrimaryUptimeSync(t *testing.T) {
	t.Parallel()
	self, genesisStaker, added := ids.NodeID{1}, ids.NodeID{2}, ids.NodeID{3}
	start := uint64(1_700_000_000)
	p := fakeP{legacy: map[ids.ID][]platform.SubnetValidator{ids.Empty: {
		{NodeID: genesisStaker, StartTime: start}, {NodeID: added, StartTime: start},
	}}}
	for _, networked := range []bool{true, false} {
		db, err := storage.Open(t.TempDir(), slog.New(slog.DiscardHandler))
		require.NoError(t, err)
		defer db.Close()
		clk := clock.NewFake(time.Unix(int64(start), 0).Add(100 * time.Hour))
		tr, err := uptime.New(db.Prefixed(storage.PrefixUptime), clk, &uptime.Options{StoppedIsUp: true})
		require.NoError(t, err)
		u := &primaryUptime{tracker: tr, self: self, networked: networked, starts: map[ids.NodeID]uint64{}}
		read := p
		if !networked {
			// The P-Chain's own view leaves the genesis staker out.
			read = fakeP{legacy: map[ids.ID][]platform.SubnetValidator{ids.Empty: {{NodeID: added, StartTime: start}}}}
			read.stakers = p.legacy[ids.Empty]
		}
		require.NoError(t, u.sync(read))
		require.True(t, tr.IsConnected(self))
		tr.Connect(added)
		require.Equal(t, uint32(100), u.UptimePercent(added))
		if networked {
			require.Equal(t, uint32(100), u.UptimePercent(genesisStaker))
		} else {
			require.Zero(t, u.UptimePercent(genesisStaker))
		}
		// 100 more hours: the genesis staker never connected, the added one always was.
		clk.Advance(100 * time.Hour)
		require.Equal(t, uint32(100), u.UptimePercent(added))
		if networked {
			require.Equal(t, uint32(50), u.UptimePercent(genesisStaker))
		}
	}
}

// fakePChain is a warp.ValidatorState with one Primary Network set at height 5.
type fakePChain struct {
	set []warp.Validator
	err error
}

func (f fakePChain) PChainHeight(context.Context) (uint64, error) { return 5, f.err }

func (f fakePChain) ValidatorsAt(_ context.Context, subnetID ids.ID, height uint64) ([]warp.Validator, error) {
	if subnetID != ids.Empty || height != 5 {
		return nil, fmt.Errorf("no set of %s at %d", subnetID, height)
	}
	return f.set, nil
}

func (fakePChain) SubnetOf(context.Context, ids.ID) (ids.ID, error) { return ids.Empty, nil }

// The network checks a validator's IP claim against the BLS key the P-Chain registered for it;
// a node without a key, or a P-Chain that cannot answer, gives none.
func TestPeerValidatorsBLSKeys(t *testing.T) {
	t.Parallel()
	sk, err := bls.NewSecretKey()
	require.NoError(t, err)
	var compressed [bls.PublicKeyLen]byte
	copy(compressed[:], sk.PublicKey().Compress())
	withKey, keyless := ids.NodeID{1}, ids.NodeID{2}
	v := peerValidators{Set: validators.New(), pChain: fakePChain{set: []warp.Validator{
		{NodeID: withKey, Weight: 10, PublicKey: &compressed},
		{NodeID: keyless, Weight: 10},
	}}}
	require.Equal(t, sk.PublicKey().Compress(), v.BLSPublicKey(withKey).Compress())
	require.Nil(t, v.BLSPublicKey(keyless))
	require.Nil(t, v.BLSPublicKey(ids.NodeID{3}))
	v.pChain = fakePChain{err: errNoPChain}
	require.Nil(t, v.BLSPublicKey(withKey))
}
