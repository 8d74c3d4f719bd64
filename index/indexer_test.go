package index_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/ids/idstest"
	"github.com/cornice-node/cornice/index"
	"github.com/cornice-node/cornice/jsonrpc/jsonrpctest"
	"github.com/cornice-node/cornice/storage"
)

// Chain IDs of the local network (node-api.md §3.3); P is the zero ID.
var (
	pChainID = ids.Empty
	xChainID = idstest.XChainID
	cChainID = idstest.CChainID
)

// container returns a container whose ID is the SHA-256 of its bytes, as for P and X blocks and
// transactions.
func container(b []byte) chains.Container {
	return chains.Container{ID: sha256.Sum256(b), Bytes: b}
}

// openDB opens the database in dir; the test closes it at the end unless the caller did before.
func openDB(t testing.TB, dir string) *storage.DB {
	t.Helper()
	db, err := storage.Open(dir, slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, db.Close()) })
	return db
}

// newIndexer returns an Indexer over db's index space, reading time from clk.
func newIndexer(t testing.TB, db *storage.DB, cfg index.Config, clk clock.Clock) *index.Indexer {
	t.Helper()
	x, err := index.New(cfg, db.Prefixed(storage.PrefixIndex), clk, slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	return x
}

// accept stages one block (and its transactions) into a new batch and commits it, as the pipeline
// does.
func accept(t testing.TB, db *storage.DB, x *index.Indexer, chainID ids.ID, block chains.Container, txs ...chains.Container) {
	t.Helper()
	b := db.NewBatch()
	require.NoError(t, x.Accept(t.Context(), b, chainID, block, txs))
	require.NoError(t, b.Commit())
}

// call sends one JSON-RPC call to h and returns the result, or the error message.
func call(t testing.TB, h http.Handler, method, params string) (result json.RawMessage, errMsg string) {
	t.Helper()
	rec := jsonrpctest.Post(t, h, "index."+method, params)
	require.Equal(t, http.StatusOK, rec.Code)
	var resp struct {
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &resp), "body %s", rec.Body.Bytes())
	if resp.Error != nil {
		return nil, resp.Error.Message
	}
	return resp.Result, ""
}

// mustCall is call for a call that must succeed; it decodes the result into a new R.
func mustCall[R any](t testing.TB, h http.Handler, method, params string) R {
	t.Helper()
	res, msg := call(t, h, method, params)
	require.Empty(t, msg, "index.%s(%s)", method, params)
	var r R
	require.NoError(t, json.Unmarshal(res, &r))
	return r
}

// dump returns every key and value of the database, in order.
func dump(t testing.TB, db *storage.DB) string {
	t.Helper()
	it, err := db.NewIterator(nil, nil)
	require.NoError(t, err)
	var sb strings.Builder
	for it.Next() {
		fmt.Fprintf(&sb, "%x=%x\n", it.Key(), it.Value())
	}
	require.NoError(t, it.Err())
	require.NoError(t, it.Close())
	return sb.String()
}

// run is one start of the node in a data directory.
type run struct {
	cfg    index.Config
	chains []ids.ID // default: P, X and C
	// want is the refusal expected from the checks, or nil.
	want error
}

var (
	on       = index.Config{Enabled: true}
	onAllow  = index.Config{Enabled: true, AllowIncomplete: true}
	off      = index.Config{}
	offAllow = index.Config{AllowIncomplete: true}
)

// start does what the node does at start-up: open the database, check every chain, and register
// them all unless a check refused. A refused start must leave the database as it was.
func start(t *testing.T, dir string, r run) {
	t.Helper()
	db, err := storage.Open(dir, slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	defer func() { require.NoError(t, db.Close()) }()
	before := dump(t, db)

	x := newIndexer(t, db, r.cfg, clock.NewFake(time.Unix(0, 0)))
	list := r.chains
	if list == nil {
		list = []ids.ID{pChainID, xChainID, cChainID}
	}
	var refusal error
	for _, c := range list {
		if err := x.Check(c); err != nil {
			refusal = err
			break
		}
	}
	if r.want != nil {
		require.ErrorIs(t, refusal, r.want)
		require.Equal(t, before, dump(t, db), "a refused start wrote to the database")
		return
	}
	require.NoError(t, refusal)
	for _, c := range list {
		kinds := []index.Kind{index.Block}
		if c == xChainID {
			kinds = append(kinds, index.Tx, index.Vtx)
		}
		handlers, err := x.Register(c, kinds...)
		require.NoError(t, err)
		if r.cfg.Enabled {
			require.Len(t, handlers, len(kinds))
		} else {
			require.Empty(t, handlers)
		}
	}
}

// TestStartupRules runs the rules of node-api.md §5.7 across restarts in one data directory: each
// case is a sequence of starts, and each start is refused or not as the reference is.
func TestStartupRules(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		runs []run
	}{
		// The eight combinations of (indexing before: never / on / off) × the two flags, as far
		// as they differ.
		{name: "new database, indexing on", runs: []run{{cfg: on}}},
		{name: "new database, indexing on, incomplete allowed", runs: []run{{cfg: onAllow}}},
		{name: "new database, indexing off", runs: []run{{cfg: off}}},
		{name: "new database, indexing off, incomplete allowed", runs: []run{{cfg: offAllow}}},
		{name: "on, then on", runs: []run{{cfg: on}, {cfg: on}, {cfg: on}}},
		{name: "on, then on with incomplete allowed", runs: []run{{cfg: on}, {cfg: onAllow}}},
		{name: "on, then off", runs: []run{{cfg: on}, {cfg: off, want: index.ErrWouldBecomeIncomplete}}},
		{name: "on, then off with incomplete allowed", runs: []run{{cfg: on}, {cfg: offAllow}}},
		{name: "off, then off", runs: []run{{cfg: off}, {cfg: off}}},
		{name: "off, then off with incomplete allowed", runs: []run{{cfg: off}, {cfg: offAllow}}},
		{name: "off, then on", runs: []run{{cfg: off}, {cfg: on, want: index.ErrIncomplete}}},
		{name: "off, then on with incomplete allowed", runs: []run{{cfg: off}, {cfg: onAllow}}},

		// Consequences.
		{name: "the incomplete mark is never cleared", runs: []run{
			{cfg: off}, {cfg: onAllow}, {cfg: onAllow}, {cfg: on, want: index.ErrIncomplete},
		}},
		{name: "on, off allowed, then on is incomplete", runs: []run{
			{cfg: on}, {cfg: offAllow}, {cfg: on, want: index.ErrIncomplete}, {cfg: onAllow},
		}},
		{name: "the previously indexed mark is never cleared", runs: []run{
			{cfg: on}, {cfg: offAllow}, {cfg: off, want: index.ErrWouldBecomeIncomplete},
		}},
		{name: "off, on allowed, then off", runs: []run{
			{cfg: off}, {cfg: onAllow}, {cfg: off, want: index.ErrWouldBecomeIncomplete},
		}},
		{name: "a refused start changes nothing", runs: []run{
			{cfg: on}, {cfg: off, want: index.ErrWouldBecomeIncomplete}, {cfg: on},
			{cfg: off, want: index.ErrWouldBecomeIncomplete}, {cfg: on},
		}},
		{name: "a refused enabled start changes nothing", runs: []run{
			{cfg: off}, {cfg: on, want: index.ErrIncomplete}, {cfg: off}, {cfg: on, want: index.ErrIncomplete},
		}},
		{name: "a chain new to an indexed database", runs: []run{
			{cfg: on, chains: []ids.ID{pChainID}}, {cfg: on},
		}},
		{name: "a chain new to a database that ran without indexing", runs: []run{
			{cfg: off, chains: []ids.ID{pChainID}},
			{cfg: on, chains: []ids.ID{xChainID, cChainID}},
			{cfg: on, want: index.ErrIncomplete},
		}},
		{name: "a chain new to a database that ran without indexing, off", runs: []run{
			{cfg: off, chains: []ids.ID{pChainID}}, {cfg: off},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join(t.TempDir(), "db")
			for _, r := range tt.runs {
				start(t, dir, r)
			}
		})
	}
}

func TestNewInvalid(t *testing.T) {
	t.Parallel()
	_, err := index.New(on, nil, nil, nil)
	require.ErrorIs(t, err, index.ErrInvalidConfig)
	require.ErrorContains(t, err, "nil database")
	require.ErrorContains(t, err, "nil clock")
	require.ErrorContains(t, err, "nil logger")
}

func TestRegisterErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		cfg   index.Config
		kinds []index.Kind
		want  error
	}{
		{name: "unknown kind", cfg: on, kinds: []index.Kind{index.Block, 9}, want: index.ErrInvalidKind},
		{name: "zero kind", cfg: on, kinds: []index.Kind{0}, want: index.ErrInvalidKind},
		{name: "repeated kind", cfg: on, kinds: []index.Kind{index.Block, index.Block}, want: index.ErrInvalidKind},
		{name: "no kinds", cfg: on},
		{name: "kinds ignored when disabled", cfg: off, kinds: []index.Kind{9}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			db := openDB(t, filepath.Join(t.TempDir(), "db"))
			before := dump(t, db)
			x := newIndexer(t, db, tt.cfg, clock.Real{})
			_, err := x.Register(pChainID, tt.kinds...)
			require.ErrorIs(t, err, tt.want)
			if tt.want != nil {
				require.Equal(t, before, dump(t, db), "a refused Register wrote to the database")
			}
		})
	}

	t.Run("twice", func(t *testing.T) {
		t.Parallel()
		db := openDB(t, filepath.Join(t.TempDir(), "db"))
		x := newIndexer(t, db, on, clock.Real{})
		_, err := x.Register(pChainID, index.Block)
		require.NoError(t, err)
		_, err = x.Register(pChainID, index.Block)
		require.ErrorIs(t, err, index.ErrRegistered)
	})
}

func TestKindString(t *testing.T) {
	t.Parallel()
	tests := []struct {
		kind index.Kind
		want string
	}{
		{index.Block, "block"},
		{index.Tx, "tx"},
		{index.Vtx, "vtx"},
		{0, "invalid"},
		{4, "invalid"},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, tt.kind.String())
	}
}

// xIndexes registers the X-Chain with its three indexes and returns the handlers.
func xIndexes(t testing.TB, x *index.Indexer) map[index.Kind]http.Handler {
	t.Helper()
	h, err := x.Register(xChainID, index.Block, index.Tx, index.Vtx)
	require.NoError(t, err)
	return h
}

type rangeReply struct {
	Containers []struct {
		ID        ids.ID `json:"id"`
		Bytes     string `json:"bytes"`
		Timestamp string `json:"timestamp"`
		Index     string `json:"index"`
	} `json:"containers"`
}

// ids returns the IDs of a range, in order.
func (r rangeReply) ids() []ids.ID {
	out := make([]ids.ID, len(r.Containers))
	for i, c := range r.Containers {
		out[i] = c.ID
	}
	return out
}

func TestAcceptOnlyStages(t *testing.T) {
	t.Parallel()
	db := openDB(t, filepath.Join(t.TempDir(), "db"))
	x := newIndexer(t, db, on, clock.Real{})
	h := xIndexes(t, x)
	before := dump(t, db)

	blk := container([]byte("block 1"))
	b := db.NewBatch()
	require.NoError(t, x.Accept(t.Context(), b, xChainID, blk, []chains.Container{container([]byte("tx"))}))
	// Container and ID entries for the block and the tx, and the two counters.
	require.Equal(t, 6, b.Count())
	require.Equal(t, before, dump(t, db), "Accept wrote outside the batch")
	b.Close()
	_, msg := call(t, h[index.Block], "getLastAccepted", `{}`)
	require.Equal(t, "no containers have been accepted", msg)

	accept(t, db, x, xChainID, blk)
	got := mustCall[rangeReply](t, h[index.Block], "getContainerRange", `{"startIndex":0,"numToFetch":10}`)
	require.Equal(t, []ids.ID{blk.ID}, got.ids())
}

func TestAcceptNoop(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		cfg     index.Config
		chainID ids.ID
	}{
		{name: "disabled", cfg: off, chainID: xChainID},
		{name: "disabled, incomplete allowed", cfg: offAllow, chainID: xChainID},
		{name: "chain not registered", cfg: on, chainID: cChainID},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			db := openDB(t, filepath.Join(t.TempDir(), "db"))
			x := newIndexer(t, db, tt.cfg, clock.Real{})
			_, err := x.Register(xChainID, index.Block, index.Tx, index.Vtx)
			require.NoError(t, err)
			b := db.NewBatch()
			defer b.Close()
			require.NoError(t, x.Accept(t.Context(), b, tt.chainID, container([]byte("b")), []chains.Container{container([]byte("t"))}))
			require.Zero(t, b.Count())
		})
	}
}

// TestAcceptIdempotent: a container already in its index is skipped, whether it comes again in a
// later block (a block accepted again after a crash, node-api.md §5.4) or twice in one.
func TestAcceptIdempotent(t *testing.T) {
	t.Parallel()
	db := openDB(t, filepath.Join(t.TempDir(), "db"))
	x := newIndexer(t, db, on, clock.Real{})
	h := xIndexes(t, x)

	b1, b2 := container([]byte("block 1")), container([]byte("block 2"))
	tx1, tx2, tx3 := container([]byte("tx 1")), container([]byte("tx 2")), container([]byte("tx 3"))
	accept(t, db, x, xChainID, b1, tx1, tx2, tx1)
	snapshot := dump(t, db)

	// The same block again: nothing to stage.
	b := db.NewBatch()
	require.NoError(t, x.Accept(t.Context(), b, xChainID, b1, []chains.Container{tx1, tx2}))
	require.Zero(t, b.Count())
	require.NoError(t, b.Commit())
	require.Equal(t, snapshot, dump(t, db))

	// A new block repeating an old transaction, and one repeated 20 times (the map path).
	many := []chains.Container{tx2}
	for range 20 {
		many = append(many, tx3)
	}
	accept(t, db, x, xChainID, b2, many...)

	blocks := mustCall[rangeReply](t, h[index.Block], "getContainerRange", `{"numToFetch":10}`)
	require.Equal(t, []ids.ID{b1.ID, b2.ID}, blocks.ids())
	txs := mustCall[rangeReply](t, h[index.Tx], "getContainerRange", `{"numToFetch":10}`)
	require.Equal(t, []ids.ID{tx1.ID, tx2.ID, tx3.ID}, txs.ids())
	for i, c := range txs.Containers {
		require.Equal(t, fmt.Sprint(i), c.Index)
	}
}

// TestAcceptDense: indices are dense from 0 in acceptance order, in every index, across restarts.
func TestAcceptDense(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "db")
	var blocks, txs []chains.Container
	const perRun = 40
	for run := range 3 {
		db, err := storage.Open(dir, slog.New(slog.DiscardHandler))
		require.NoError(t, err)
		x := newIndexer(t, db, on, clock.Real{})
		h := xIndexes(t, x)
		for i := range perRun {
			n := run*perRun + i
			blk := container(fmt.Appendf(nil, "block %d", n))
			var blkTxs []chains.Container
			for j := range n % 3 {
				blkTxs = append(blkTxs, container(fmt.Appendf(nil, "tx %d.%d", n, j)))
			}
			accept(t, db, x, xChainID, blk, blkTxs...)
			blocks = append(blocks, blk)
			txs = append(txs, blkTxs...)
		}
		for kind, want := range map[index.Kind][]chains.Container{index.Block: blocks, index.Tx: txs} {
			for i, c := range want {
				got := mustCall[struct{ Index string }](t, h[kind], "getIndex", fmt.Sprintf(`{"id":%q}`, c.ID))
				require.Equal(t, fmt.Sprint(i), got.Index)
				byIndex := mustCall[struct{ ID ids.ID }](t, h[kind], "getContainerByIndex", fmt.Sprintf(`{"index":%d}`, i))
				require.Equal(t, c.ID, byIndex.ID)
			}
			_, msg := call(t, h[kind], "getContainerByIndex", fmt.Sprintf(`{"index":%d}`, len(want)))
			require.Equal(t, fmt.Sprintf("no container at index %d", len(want)), msg)
		}
		_, msg := call(t, h[index.Vtx], "getLastAccepted", `{}`)
		require.Equal(t, "no containers have been accepted", msg)
		require.NoError(t, db.Close())
	}
}

// TestAcceptKinds: transactions go to the tx index only where the chain has one; the block and
// its transactions share one acceptance time, the clock's.
func TestAcceptKinds(t *testing.T) {
	t.Parallel()
	db := openDB(t, filepath.Join(t.TempDir(), "db"))
	clk := clock.NewFake(time.Date(2026, time.January, 2, 3, 4, 5, 60_000, time.FixedZone("CET", 3600)))
	x := newIndexer(t, db, on, clk)
	hx := xIndexes(t, x)
	hp, err := x.Register(pChainID, index.Block)
	require.NoError(t, err)
	require.Len(t, hp, 1)

	accept(t, db, x, pChainID, container([]byte("p block")), container([]byte("p tx")))
	b := db.NewBatch()
	require.NoError(t, x.Accept(t.Context(), b, pChainID, container([]byte("p block 2")), []chains.Container{container([]byte("p tx"))}))
	require.Equal(t, 3, b.Count(), "a chain without a tx index stages only its block")
	b.Close()

	accept(t, db, x, xChainID, container([]byte("x block")), container([]byte("x tx")))
	for _, h := range []http.Handler{hp[index.Block], hx[index.Block], hx[index.Tx]} {
		got := mustCall[struct{ Timestamp string }](t, h, "getLastAccepted", `{}`)
		require.Equal(t, "2026-01-02T02:04:05.00006Z", got.Timestamp)
	}
	_, msg := call(t, hx[index.Vtx], "getContainerRange", `{"numToFetch":1}`)
	require.Equal(t, "no containers have been accepted", msg)
}

// TestAcceptLarge: containers of any size round-trip, byte for byte.
func TestAcceptLarge(t *testing.T) {
	t.Parallel()
	db := openDB(t, filepath.Join(t.TempDir(), "db"))
	x := newIndexer(t, db, on, clock.Real{})
	h, err := x.Register(cChainID, index.Block)
	require.NoError(t, err)
	blk := container(bytes.Repeat([]byte{0x5a}, 1<<20))
	accept(t, db, x, cChainID, blk)
	got := mustCall[struct{ Bytes string }](t, h[index.Block], "getContainerByID", fmt.Sprintf(`{"id":%q,"encoding":"hexnc"}`, blk.ID))
	want, err := ids.HexNC.Encode(blk.Bytes)
	require.NoError(t, err)
	require.Equal(t, want, got.Bytes)
}

// TestTruncate: a chain rolled back by a developer's evm_revert loses its block index entries
// from the first dropped block on, in the caller's batch and in as many writes however many it
// drops; the ID entries it leaves are invisible to every method, a dropped block accepted again
// is indexed anew, and Forget removes the stale entries only.
func TestTruncate(t *testing.T) {
	t.Parallel()
	db := openDB(t, filepath.Join(t.TempDir(), "db"))
	x := newIndexer(t, db, on, clock.Real{})
	h := xIndexes(t, x)
	var blocks []chains.Container
	for i := range 100 {
		blk := container(fmt.Appendf(nil, "block %d", i))
		accept(t, db, x, xChainID, blk)
		blocks = append(blocks, blk)
	}
	type entry struct {
		ID    ids.ID
		Index string
	}

	// Dropping 98 blocks, 1 of them with its ID entry: a range deletion, the ID entry and the
	// next index.
	b := db.NewBatch()
	n, err := x.Truncate(t.Context(), b, xChainID, blocks[2].ID, []ids.ID{blocks[3].ID})
	require.NoError(t, err)
	require.Equal(t, 98, n)
	require.Equal(t, 3, b.Count())
	got := mustCall[struct{ Index string }](t, h[index.Block], "getIndex", fmt.Sprintf(`{"id":%q}`, blocks[4].ID))
	require.Equal(t, "4", got.Index, "nothing changes before the batch is committed")
	require.NoError(t, b.Commit())

	last := mustCall[entry](t, h[index.Block], "getLastAccepted", `{}`)
	require.Equal(t, entry{blocks[1].ID, "1"}, last)
	for _, c := range blocks[2:] {
		id := fmt.Sprintf(`{"id":%q}`, c.ID)
		_, msg := call(t, h[index.Block], "getIndex", id)
		require.Equal(t, "not found", msg, "a dropped block has no index")
		_, msg = call(t, h[index.Block], "getContainerByID", id)
		require.Equal(t, "not found", msg)
		acc := mustCall[struct{ IsAccepted bool }](t, h[index.Block], "isAccepted", id)
		require.False(t, acc.IsAccepted)
	}
	_, msg := call(t, h[index.Block], "getContainerByIndex", `{"index":2}`)
	require.Equal(t, "no container at index 2", msg)
	_, msg = call(t, h[index.Block], "getContainerRange", `{"startIndex":2,"numToFetch":5}`)
	require.Equal(t, "start index (2) > last accepted index (1)", msg)

	// The next block takes index 2; a dropped block accepted again takes the next one, although
	// its stale ID entry named index 4.
	next := container([]byte("block 2 again"))
	accept(t, db, x, xChainID, next)
	accept(t, db, x, xChainID, blocks[4])
	for i, c := range []chains.Container{next, blocks[4]} {
		got = mustCall[struct{ Index string }](t, h[index.Block], "getIndex", fmt.Sprintf(`{"id":%q}`, c.ID))
		require.Equal(t, fmt.Sprint(2+i), got.Index)
	}
	last = mustCall[entry](t, h[index.Block], "getLastAccepted", `{}`)
	require.Equal(t, entry{blocks[4].ID, "3"}, last)
	_, msg = call(t, h[index.Block], "getIndex", fmt.Sprintf(`{"id":%q}`, blocks[2].ID))
	require.Equal(t, "not found", msg, "a stale entry whose index holds another block")

	// Forget removes the stale entries and keeps the block accepted again.
	b = db.NewBatch()
	require.NoError(t, x.Forget(t.Context(), b, xChainID, []ids.ID{blocks[2].ID, blocks[3].ID, blocks[4].ID, blocks[5].ID}))
	require.Equal(t, 2, b.Count(), "blocks 2 and 5: 3 has no entry left, 4 is accepted again")
	require.NoError(t, b.Commit())
	got = mustCall[struct{ Index string }](t, h[index.Block], "getIndex", fmt.Sprintf(`{"id":%q}`, blocks[4].ID))
	require.Equal(t, "3", got.Index)

	// truncateLast truncates the index at block 4, the last, given the IDs the VM dropped; it
	// expects writes keys in the batch and block 4 gone from the index, then accepts it again.
	truncateLast := func(dropped []ids.ID, writes int) {
		t.Helper()
		b := db.NewBatch()
		n, err := x.Truncate(t.Context(), b, xChainID, blocks[4].ID, dropped)
		require.NoError(t, err)
		require.Equal(t, 1, n)
		require.Equal(t, writes, b.Count())
		require.NoError(t, b.Commit())
		last := mustCall[entry](t, h[index.Block], "getLastAccepted", `{}`)
		require.Equal(t, entry{next.ID, "2"}, last)
		_, msg := call(t, h[index.Block], "getIndex", fmt.Sprintf(`{"id":%q}`, blocks[4].ID))
		require.Equal(t, "not found", msg)
		accept(t, db, x, xChainID, blocks[4])
	}
	// A few blocks go key by key: their containers, and the next index.
	truncateLast(nil, 2)
	// The last block alone, with its ID entry (a 1-block revert): its container, its ID entry
	// and the next index; it is found from the next index, not from its ID entry.
	truncateLast([]ids.ID{blocks[4].ID}, 3)

	// A block not in the index truncates nothing; dropped IDs must be among the truncated.
	b = db.NewBatch()
	defer b.Close()
	n, err = x.Truncate(t.Context(), b, xChainID, blocks[90].ID, nil)
	require.NoError(t, err)
	require.Zero(t, n)
	_, err = x.Truncate(t.Context(), b, xChainID, next.ID, []ids.ID{blocks[0].ID})
	require.ErrorContains(t, err, "not among the containers from index 2 on")
	n, err = x.Truncate(t.Context(), b, ids.ID{9}, blocks[0].ID, nil)
	require.NoError(t, err)
	require.Zero(t, n, "an unregistered chain has no index")
	require.NoError(t, x.Forget(t.Context(), b, ids.ID{9}, []ids.ID{blocks[0].ID}))
}

// TestTruncateTail: the writer keeps the index's next number and last block in memory (so that
// a 1-block revert's truncation reads neither), set only when the batch that wrote them is
// committed: it agrees with the stored one after a commit, a discarded batch, a truncation
// staged with CommitDeferred (applied by the next Accept's read of it) and a restart.
func TestTruncateTail(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "db")
	db := openDB(t, dir)
	x := newIndexer(t, db, on, clock.Real{})
	h := xIndexes(t, x)
	var blocks []chains.Container
	for i := range 5 {
		blk := container(fmt.Appendf(nil, "block %d", i))
		accept(t, db, x, xChainID, blk)
		blocks = append(blocks, blk)
	}
	agrees := func(want uint64) {
		t.Helper()
		next, known, stored, err := index.Tail(x, xChainID)
		require.NoError(t, err)
		require.Equal(t, want, stored)
		if known {
			require.Equal(t, stored, next, "in memory and on disk")
		}
	}
	indexOf := func(c chains.Container) string {
		t.Helper()
		return mustCall[struct{ Index string }](t, h[index.Block], "getIndex", fmt.Sprintf(`{"id":%q}`, c.ID)).Index
	}
	agrees(5)

	// A truncation discarded: nothing changes.
	b := db.NewBatch()
	n, err := x.Truncate(t.Context(), b, xChainID, blocks[4].ID, []ids.ID{blocks[4].ID})
	require.NoError(t, err)
	require.Equal(t, 1, n)
	b.Close()
	agrees(5)
	require.Equal(t, "4", indexOf(blocks[4]))

	// A truncation staged deferred, then a block accepted before its owner applies it: the
	// Accept applies it first and numbers the block from it.
	b = db.NewBatch()
	_, err = x.Truncate(t.Context(), b, xChainID, blocks[4].ID, []ids.ID{blocks[4].ID})
	require.NoError(t, err)
	d, err := b.CommitDeferred()
	require.NoError(t, err)
	again := container([]byte("block 4 again"))
	accept(t, db, x, xChainID, again)
	require.NoError(t, d.Apply())
	agrees(5)
	require.Equal(t, "4", indexOf(again))

	// Two truncations in a row: the second finds its block without the last ID in memory.
	for _, c := range []chains.Container{again, blocks[3]} {
		b = db.NewBatch()
		n, err = x.Truncate(t.Context(), b, xChainID, c.ID, []ids.ID{c.ID})
		require.NoError(t, err)
		require.Equal(t, 1, n)
		require.NoError(t, b.Commit())
	}
	agrees(3)

	// A restart: the new indexer reads it from disk, and goes on from there.
	require.NoError(t, db.Close())
	db = openDB(t, dir)
	x = newIndexer(t, db, on, clock.Real{})
	h = xIndexes(t, x)
	next, known, _, err := index.Tail(x, xChainID)
	require.NoError(t, err)
	require.False(t, known, "unknown after a start: %d", next)
	b = db.NewBatch()
	n, err = x.Truncate(t.Context(), b, xChainID, blocks[2].ID, []ids.ID{blocks[2].ID})
	require.NoError(t, err)
	require.Equal(t, 1, n)
	require.NoError(t, b.Commit())
	agrees(2)
	accept(t, db, x, xChainID, blocks[4])
	agrees(3)
	require.Equal(t, "2", indexOf(blocks[4]))
}
