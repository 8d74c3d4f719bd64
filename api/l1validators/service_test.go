package l1validators_test

import (
	"errors"
	"flag"
	"log/slog"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/api/l1validators"
	"github.com/cornice-node/cornice/api/l1validators/l1validatorstest"
	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/ids/idstest"
	"github.com/cornice-node/cornice/jsonrpc/jsonrpctest"
	"github.com/cornice-node/cornice/storage"
	"github.com/cornice-node/cornice/uptime"
)

// *uptime.Tracker is the Uptimes node/ passes.
var _ l1validators.Uptimes = (*uptime.Tracker)(nil)

var update = flag.Bool("update", false, "rewrite the <-- lines of testdata/*.txt with the responses received")

var (
	staker1 = idstest.Staker1
	staker2 = idstest.Staker2
	staker3 = idstest.Staker3

	// start is the validators' start time; the uptimes are computed 100 s later.
	start = time.Unix(1_700_000_000, 0)

	val1   = ids.FromName("validation 1")
	val2   = ids.FromName("validation 2")
	val3   = ids.FromName("validation 3")
	legacy = ids.FromName("legacy subnet validator")
)

// fixture returns the source and uptimes the transcripts run against (see testdata/*.txt).
func fixture() (*l1validatorstest.Source, *l1validatorstest.Uptimes) {
	s := uint64(start.Unix())
	src := &l1validatorstest.Source{Validators: []l1validators.Validator{
		{ValidationID: val3, NodeID: staker3, Weight: 5, StartTime: s + 100, IsActive: true, IsL1Validator: true},
		{ValidationID: val2, NodeID: staker2, Weight: 1 << 60, StartTime: s, IsActive: false, IsL1Validator: true},
		{ValidationID: val1, NodeID: staker1, Weight: 100, StartTime: s, IsActive: true, IsL1Validator: true},
		{ValidationID: legacy, NodeID: staker2, Weight: 20, StartTime: s + 97, IsActive: true},
	}}
	up := &l1validatorstest.Uptimes{
		At: start.Add(100 * time.Second),
		Up: map[ids.ID]time.Duration{
			val1:   100 * time.Second,
			val2:   33*time.Second + 900*time.Millisecond,
			val3:   0,
			legacy: 2 * time.Second,
		},
		Connected: map[ids.NodeID]bool{staker1: true},
	}
	return src, up
}

// fixtures names the fixture of each transcript.
var fixtures = map[string]func() (l1validators.Source, l1validators.Uptimes){
	"getCurrentValidators": func() (l1validators.Source, l1validators.Uptimes) {
		src, up := fixture()
		return src, up
	},
	"source-error": func() (l1validators.Source, l1validators.Uptimes) {
		_, up := fixture()
		return &l1validatorstest.Source{Err: errors.New("chain is not bootstrapped")}, up
	},
	"uptime-missing": func() (l1validators.Source, l1validators.Uptimes) {
		src, up := fixture()
		delete(up.Up, val2)
		return src, up
	},
	"empty": func() (l1validators.Source, l1validators.Uptimes) {
		_, up := fixture()
		return &l1validatorstest.Source{}, up
	},
}

// TestWire replays the request/response transcripts in testdata/ against the real JSON-RPC handler
// and compares response bodies byte for byte (STYLE.md rule 12). Run with -update to rewrite the
// expected responses, then review the diff.
func TestWire(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join("testdata", "*.txt"))
	require.NoError(t, err)
	require.Len(t, files, len(fixtures))
	jsonrpctest.ReplayDir(t, func(t *testing.T, name string) http.Handler {
		build, ok := fixtures[name]
		require.True(t, ok, "no fixture for testdata/%s.txt", name)
		src, up := build()
		h, err := l1validators.NewHandler(src, up, slog.New(slog.NewTextHandler(t.Output(), nil)))
		require.NoError(t, err)
		return h
	}, *update)
}

func TestNewRequiresDependencies(t *testing.T) {
	t.Parallel()
	src, up := fixture()
	log := slog.New(slog.DiscardHandler)
	tests := []struct {
		name    string
		src     l1validators.Source
		up      l1validators.Uptimes
		log     *slog.Logger
		wantMsg []string
	}{
		{name: "nothing", wantMsg: []string{"Source is required", "Uptimes is required", "logger is required"}},
		{name: "no uptimes", src: src, log: log, wantMsg: []string{"Uptimes is required"}},
		{name: "no source", up: up, log: log, wantMsg: []string{"Source is required"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := l1validators.NewHandler(tt.src, tt.up, tt.log)
			require.ErrorIs(t, err, l1validators.ErrInvalidConfig)
			for _, msg := range tt.wantMsg {
				require.ErrorContains(t, err, msg)
			}
		})
	}
}

// TestWithTracker serves a chain whose uptimes come from a real uptime.Tracker: one connected
// validator, one that never connected, and one the tracker has not synced yet.
func TestWithTracker(t *testing.T) {
	t.Parallel()
	db, err := storage.Open(t.TempDir(), slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, db.Close()) })
	clk := clock.NewFake(start)
	tr, err := uptime.New(db.Prefixed(storage.PrefixUptime).Prefixed(make([]byte, 32)), clk, nil)
	require.NoError(t, err)

	s := uint64(start.Unix())
	src := &l1validatorstest.Source{Validators: []l1validators.Validator{
		{ValidationID: val1, NodeID: staker1, Weight: 100, StartTime: s, IsActive: true, IsL1Validator: true},
		{ValidationID: val2, NodeID: staker2, Weight: 100, StartTime: s, IsActive: true, IsL1Validator: true},
	}}
	require.NoError(t, tr.Sync([]uptime.Validator{
		{ValidationID: val1, NodeID: staker1, StartTime: s, Active: true},
		{ValidationID: val2, NodeID: staker2, StartTime: s, Active: true},
	}))
	tr.StartTracking([]ids.NodeID{staker1})
	clk.Advance(3 * time.Second)

	svc, err := l1validators.New(src, tr, slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	reply, err := svc.GetCurrentValidators(t.Context(), &l1validators.GetCurrentValidatorsArgs{})
	require.NoError(t, err)
	require.Equal(t, []l1validators.CurrentValidator{
		{ValidationID: val1, NodeID: staker1, Weight: 100, StartTimestamp: s, IsActive: true, IsL1Validator: true, IsConnected: true, UptimePercentage: 100, UptimeSeconds: 3},
		{ValidationID: val2, NodeID: staker2, Weight: 100, StartTimestamp: s, IsActive: true, IsL1Validator: true, IsConnected: false, UptimePercentage: 0, UptimeSeconds: 0},
	}, reply.Validators)

	// A validator on the P-Chain before the tracker's next Sync fails the whole call (§2.5).
	src.Validators = append(src.Validators, l1validators.Validator{ValidationID: val3, NodeID: staker3, StartTime: s})
	_, err = svc.GetCurrentValidators(t.Context(), &l1validators.GetCurrentValidatorsArgs{})
	require.ErrorIs(t, err, uptime.ErrNotFound)
	require.EqualError(t, err, "failed to get uptime for validation ID "+val3.String()+": validationID not found: "+val3.String())
}

// FuzzParams sends arbitrary params and checks that no call panics and each is answered with one
// JSON-RPC response (or nothing, for a notification).
func FuzzParams(f *testing.F) {
	f.Add(`{"nodeIDs":["NodeID-MFrZFVCXPv5iCn6M9K6XduxGTYp891xXZ","NodeID-MFrZFVCXPv5iCn6M9K6XduxGTYp891xXZ"]}`)
	f.Add(`[{"nodeIDs":null}]`)
	f.Add(`{"nodeIDs":["NodeID-"]}`)
	f.Add(`{"NODEIDS":[]}`)
	f.Add(`[]`)
	f.Add(`5`)
	f.Add(`null`)
	src, up := fixture()
	h, err := l1validators.NewHandler(src, up, slog.New(slog.DiscardHandler))
	require.NoError(f, err)
	f.Fuzz(func(t *testing.T, params string) {
		jsonrpctest.RequireEnvelope(t, h, "validators.getCurrentValidators", params)
	})
}
