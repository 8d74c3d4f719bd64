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
