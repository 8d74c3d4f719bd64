package uptime_test

import (
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
	"github.com/cornice-node/cornice/uptime"
)

var (
	// genesis is the start time of the validators below, in unix seconds.
	genesis   = time.Unix(1_700_000_000, 0)
	self      = ids.NodeID{1}
	peer      = ids.NodeID{2}
	selfVal   = ids.ID{0xa1}
	peerVal   = ids.ID{0xa2}
	otherView = []byte("other")
)

// openView opens a database in dir and returns the tracker's view in it.
func openView(t *testing.T, dir string) (*storage.DB, *storage.View) {
	t.Helper()
	db, err := storage.Open(dir, slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	return db, db.Prefixed(storage.PrefixUptime).Prefixed(make([]byte, 32))
}

// newTracker returns a tracker on a fresh database, with a fake clock at genesis.
func newTracker(t *testing.T) (*uptime.Tracker, *clock.Fake) {
	t.Helper()
	db, view := openView(t, t.TempDir())
	t.Cleanup(func() { require.NoError(t, db.Close()) })
	clk := clock.NewFake(genesis)
	tr, err := uptime.New(view, clk, nil)
	require.NoError(t, err)
	return tr, clk
}

func validator(validationID ids.ID, nodeID ids.NodeID, active bool) uptime.Validator {
	return uptime.Validator{ValidationID: validationID, NodeID: nodeID, StartTime: uint64(genesis.Unix()), Active: active}
}

func requireUptime(t *testing.T, tr *uptime.Tracker, clk *clock.Fake, validationID ids.ID, want time.Duration) {
	t.Helper()
	up, at, err := tr.Uptime(validationID)
	require.NoError(t, err)
	require.Equal(t, want, up)
	require.True(t, at.Equal(clk.Now()), "computed at %v, now %v", at, clk.Now())
}

// step is one action on a tracker, then the expected up times.
type step struct {
	advance    time.Duration
	sync       []uptime.Validator
	start      []ids.NodeID
	startNow   bool
	connect    []ids.NodeID
	disconnect []ids.NodeID
	want       map[ids.ID]time.Duration
}

func TestTracker(t *testing.T) {
	t.Parallel()
	both := []uptime.Validator{validator(selfVal, self, true), validator(peerVal, peer, true)}
	tests := []struct {
		name  string
		steps []step
	}{
		{
			name: "before tracking starts every validator counts as up since its start",
			steps: []step{
				{sync: both, want: map[ids.ID]time.Duration{selfVal: 0, peerVal: 0}},
				{advance: 90 * time.Second, want: map[ids.ID]time.Duration{selfVal: 90 * time.Second, peerVal: 90 * time.Second}},
			},
		},
		{
			name: "connected counts, disconnected does not",
			steps: []step{
				{sync: both},
				{advance: 10 * time.Second, startNow: true, start: []ids.NodeID{self}},
				{advance: 20 * time.Second, want: map[ids.ID]time.Duration{selfVal: 30 * time.Second, peerVal: 10 * time.Second}},
				{connect: []ids.NodeID{peer}},
				{advance: 5 * time.Second, want: map[ids.ID]time.Duration{selfVal: 35 * time.Second, peerVal: 15 * time.Second}},
				{disconnect: []ids.NodeID{peer, peer}},
				{advance: 5 * time.Second, want: map[ids.ID]time.Duration{selfVal: 40 * time.Second, peerVal: 15 * time.Second}},
				{connect: []ids.NodeID{peer}},
				{connect: []ids.NodeID{peer}}, // connecting twice keeps the first time
				{advance: 3 * time.Second, want: map[ids.ID]time.Duration{selfVal: 43 * time.Second, peerVal: 18 * time.Second}},
			},
		},
		{
			name: "inactive validator counts as offline, and up again once active",
			steps: []step{
				{sync: both, startNow: true, start: []ids.NodeID{self, peer}},
				{advance: 10 * time.Second, sync: []uptime.Validator{validator(selfVal, self, false), validator(peerVal, peer, true)}},
				{advance: 10 * time.Second, want: map[ids.ID]time.Duration{selfVal: 10 * time.Second, peerVal: 20 * time.Second}},
				{sync: both},
				{advance: 7 * time.Second, want: map[ids.ID]time.Duration{selfVal: 17 * time.Second, peerVal: 27 * time.Second}},
			},
		},
		{
			name: "new validator starts at its start time; a connection older than it counts from it",
			steps: []step{
				{startNow: true, start: []ids.NodeID{self}},
				{advance: time.Minute, sync: []uptime.Validator{{ValidationID: selfVal, NodeID: self, StartTime: uint64(genesis.Unix()) + 30, Active: true}}},
				{want: map[ids.ID]time.Duration{selfVal: 30 * time.Second}},
			},
		},
		{
			name: "validator starting in the future has no up time yet",
			steps: []step{
				{startNow: true, start: []ids.NodeID{self}, sync: []uptime.Validator{{ValidationID: selfVal, NodeID: self, StartTime: uint64(genesis.Unix()) + 100, Active: true}}},
				{advance: 50 * time.Second, want: map[ids.ID]time.Duration{selfVal: 0}},
				{advance: 60 * time.Second, want: map[ids.ID]time.Duration{selfVal: 10 * time.Second}},
			},
		},
		{
			name: "clock going back adds nothing",
			steps: []step{
				{sync: both, startNow: true, start: []ids.NodeID{self}},
				{advance: 10 * time.Second, want: map[ids.ID]time.Duration{selfVal: 10 * time.Second}},
				{sync: both}, // persists, so lastUpdated is now
				{advance: -5 * time.Second, want: map[ids.ID]time.Duration{selfVal: 10 * time.Second}},
				{advance: 8 * time.Second, want: map[ids.ID]time.Duration{selfVal: 13 * time.Second}},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tr, clk := newTracker(t)
			for i, s := range tt.steps {
				clk.Advance(s.advance)
				if s.sync != nil {
					require.NoError(t, tr.Sync(s.sync), "step %d", i)
				}
				if s.startNow {
					tr.StartTracking(s.start)
				}
				for _, n := range s.connect {
					tr.Connect(n)
				}
				for _, n := range s.disconnect {
					tr.Disconnect(n)
				}
				for id, want := range s.want {
					requireUptime(t, tr, clk, id, want)
				}
			}
		})
	}
}

func TestTrackerNotFound(t *testing.T) {
	t.Parallel()
	tr, _ := newTracker(t)
	_, _, err := tr.Uptime(selfVal)
	require.ErrorIs(t, err, uptime.ErrNotFound)
	require.EqualError(t, err, "validationID not found: "+selfVal.String())

	// A validator that leaves the set is forgotten.
	require.NoError(t, tr.Sync([]uptime.Validator{validator(selfVal, self, true)}))
	_, _, err = tr.Uptime(selfVal)
	require.NoError(t, err)
	require.NoError(t, tr.Sync(nil))
	_, _, err = tr.Uptime(selfVal)
	require.ErrorIs(t, err, uptime.ErrNotFound)
}

func TestTrackerIsConnected(t *testing.T) {
	t.Parallel()
	tr, _ := newTracker(t)
	require.False(t, tr.IsConnected(self))
	tr.StartTracking([]ids.NodeID{self})
	require.True(t, tr.IsConnected(self))
	tr.Connect(peer)
	require.True(t, tr.IsConnected(peer))
	tr.Disconnect(peer)
	require.False(t, tr.IsConnected(peer))
}

func TestTrackerRestart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	clk := clock.NewFake(genesis)

	db, view := openView(t, dir)
	// Another component's keys beside the tracker's view are never read as records.
	require.NoError(t, db.Prefixed(storage.PrefixUptime).Put(otherView, []byte("x")))
	tr, err := uptime.New(view, clk, nil)
	require.NoError(t, err)
	require.NoError(t, tr.Sync([]uptime.Validator{validator(selfVal, self, true), validator(peerVal, peer, true)}))
	tr.StartTracking([]ids.NodeID{self})
	clk.Advance(100 * time.Second)
	require.NoError(t, tr.Close())
	require.ErrorIs(t, tr.Close(), uptime.ErrClosed)
	require.ErrorIs(t, tr.Flush(), uptime.ErrClosed)
	require.ErrorIs(t, tr.Sync(nil), uptime.ErrClosed)
	require.NoError(t, db.Close())

	// The node is stopped for an hour: that hour is not up time.
	clk.Advance(time.Hour)
	db, view = openView(t, dir)
	t.Cleanup(func() { require.NoError(t, db.Close()) })
	tr, err = uptime.New(view, clk, nil)
	require.NoError(t, err)
	// Restored validators are known before the first Sync and count as offline until tracking
	// starts.
	requireUptime(t, tr, clk, selfVal, 100*time.Second)
	requireUptime(t, tr, clk, peerVal, 0)
	clk.Advance(10 * time.Second)
	requireUptime(t, tr, clk, selfVal, 100*time.Second)

	tr.StartTracking([]ids.NodeID{self})
	clk.Advance(20 * time.Second)
	requireUptime(t, tr, clk, selfVal, 120*time.Second)
	requireUptime(t, tr, clk, peerVal, 0)

	// A crash loses nothing written by the last Sync or Flush; later time counts as down.
	require.NoError(t, tr.Flush())
	clk.Advance(30 * time.Second)
	tr2, err := uptime.New(view, clk, nil)
	require.NoError(t, err)
	tr2.StartTracking([]ids.NodeID{self})
	requireUptime(t, tr2, clk, selfVal, 120*time.Second)
}

// With StoppedIsUp, the reference's Primary Network rule, the time the node was stopped counts as
// up for every restored validator, connected or not; once tracking starts only connection counts.
func TestTrackerRestartStoppedIsUp(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	clk := clock.NewFake(genesis)
	opts := &uptime.Options{StoppedIsUp: true}

	db, view := openView(t, dir)
	tr, err := uptime.New(view, clk, opts)
	require.NoError(t, err)
	require.NoError(t, tr.Sync([]uptime.Validator{validator(selfVal, self, true), validator(peerVal, peer, true)}))
	tr.StartTracking([]ids.NodeID{self})
	clk.Advance(100 * time.Second)
	require.NoError(t, tr.Close())
	require.NoError(t, db.Close())

	clk.Advance(time.Hour)
	db, view = openView(t, dir)
	t.Cleanup(func() { require.NoError(t, db.Close()) })
	tr, err = uptime.New(view, clk, opts)
	require.NoError(t, err)
	requireUptime(t, tr, clk, selfVal, 100*time.Second+time.Hour)
	requireUptime(t, tr, clk, peerVal, time.Hour)

	tr.StartTracking([]ids.NodeID{self})
	clk.Advance(20 * time.Second)
	requireUptime(t, tr, clk, selfVal, 120*time.Second+time.Hour)
	requireUptime(t, tr, clk, peerVal, time.Hour)
}

func TestTrackerCorruptRecord(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		key   []byte
		value []byte
	}{
		{name: "short key", key: []byte{1}, value: make([]byte, 50)},
		{name: "short value", key: make([]byte, 32), value: []byte{0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			db, view := openView(t, t.TempDir())
			t.Cleanup(func() { require.NoError(t, db.Close()) })
			require.NoError(t, view.Put(tt.key, tt.value))
			_, err := uptime.New(view, clock.NewFake(genesis), nil)
			require.ErrorIs(t, err, uptime.ErrCorrupt)
		})
	}
}

// TestTrackerConcurrent runs every method at once; the race detector checks the locking.
func TestTrackerConcurrent(t *testing.T) {
	t.Parallel()
	tr, clk := newTracker(t)
	vals := []uptime.Validator{validator(selfVal, self, true), validator(peerVal, peer, true)}
	require.NoError(t, tr.Sync(vals))
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 50 {
				clk.Advance(time.Second)
				tr.Connect(peer)
				_, _, _ = tr.Uptime(peerVal)
				tr.Disconnect(peer)
				_ = tr.IsConnected(self)
				require.NoError(t, tr.Sync(vals))
			}
		})
	}
	wg.Go(func() { tr.StartTracking([]ids.NodeID{self}) })
	wg.Wait()
	require.NoError(t, tr.Flush())
}

// A start time no real chain sends, beyond what time.Unix can hold, is a start in the future:
// nothing counts as up, before tracking starts or after.
func TestStartTimeBeyondInt64(t *testing.T) {
	t.Parallel()
	tr, clk := newTracker(t)
	far := uptime.Validator{ValidationID: selfVal, NodeID: self, StartTime: ^uint64(0), Active: true}
	require.NoError(t, tr.Sync([]uptime.Validator{far}))
	clk.Advance(time.Hour)
	requireUptime(t, tr, clk, selfVal, 0)
	tr.StartTracking([]ids.NodeID{self})
	clk.Advance(time.Hour)
	requireUptime(t, tr, clk, selfVal, 0)
}
