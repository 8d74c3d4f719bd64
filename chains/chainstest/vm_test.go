package chainstest_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/chains/chainstest"
	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
)

// harness is a fake VM over a database in a temp directory, driven by hand as an engine and the
// accept path drive it.
type harness struct {
	t     *testing.T
	dir   string
	db    *storage.DB
	view  *storage.View
	clock *clock.Fake
	vm    *chainstest.VM
	rpc   http.Handler
}

var chainID = ids.FromName("test-chain")

// open opens the database in dir (a new temp dir if empty) and a VM over it.
func open(t *testing.T, dir, genesis string) *harness {
	t.Helper()
	if dir == "" {
		dir = t.TempDir()
	}
	log := slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelWarn}))
	db, err := storage.Open(dir, log)
	require.NoError(t, err)
	h := &harness{t: t, dir: dir, db: db, clock: clock.NewFake(time.Unix(1_700_000_000, 123).UTC())}
	t.Cleanup(h.close)
	h.view = db.Prefixed(storage.PrefixExchange).Prefixed(chainID[:])
	vm, err := chainstest.Factory{}.New(t.Context(), chains.Context{
		Chain:   chains.Chain{ID: chainID, Name: "test"},
		Genesis: []byte(genesis),
		DB:      h.view,
		Log:     log,
		Clock:   h.clock,
	})
	require.NoError(t, err)
	h.vm = vm.(*chainstest.VM)
	handlers, err := vm.Handlers(t.Context())
	require.NoError(t, err)
	require.Len(t, handlers, 1)
	h.rpc = handlers["/rpc"]
	return h
}

func (h *harness) close() {
	if h.db == nil {
		return
	}
	require.NoError(h.t, h.vm.Close())
	require.NoError(h.t, h.db.Close())
	h.db = nil
}

// call posts one kv call to the VM's handler and returns the reply body, without its newline.
func (h *harness) call(method, params string) string {
	h.t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"kv.` + method + `","params":` + params + `}`
	req := httptest.NewRequest(http.MethodPost, "/rpc", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.rpc.ServeHTTP(rec, req)
	require.Equal(h.t, http.StatusOK, rec.Code)
	return strings.TrimSuffix(rec.Body.String(), "\n")
}

// accept stages blk into a batch, commits it and tells the VM, as the accept path does.
func (h *harness) accept(blk chains.Block) {
	h.t.Helper()
	ctx := h.t.Context()
	batch := h.db.NewBatch()
	defer batch.Close()
	require.NoError(h.t, blk.Accept(ctx, batch))
	require.NoError(h.t, batch.Commit())
	require.NoError(h.t, h.vm.Accepted(ctx, blk))
}

// next builds, verifies, prefers and accepts one block, as the solo engine does.
func (h *harness) next() *chainstest.Block {
	h.t.Helper()
	ctx := h.t.Context()
	b, err := h.vm.BuildBlock(ctx)
	require.NoError(h.t, err)
	require.NoError(h.t, b.Verify(ctx))
	require.NoError(h.t, h.vm.SetPreference(ctx, b.ID()))
	h.accept(b)
	return b.(*chainstest.Block)
}

// keys returns every key of the VM's key space.
func (h *harness) keys() []string {
	h.t.Helper()
	it, err := h.view.NewIterator(nil, nil)
	require.NoError(h.t, err)
	var out []string
	for it.Next() {
		out = append(out, string(it.Key()))
	}
	require.NoError(h.t, it.Err())
	require.NoError(h.t, it.Close())
	return out
}

// txBytes is the encoding of a transaction, written out by hand.
func txBytes(key, value string) []byte {
	b := []byte{0, 0, 0, byte(len(key))}
	b = append(b, key...)
	b = append(b, 0, 0, 0, byte(len(value)))
	return append(b, value...)
}

func TestGenesis(t *testing.T) {
	t.Parallel()
	h := open(t, "", "hello")
	ctx := t.Context()

	// 32 zero bytes of parent, height 0, timestamp 0, one transaction.
	want := make([]byte, 32+8+8)
	want = append(want, 0, 0, 0, 1)
	tx := txBytes("genesis", "hello")
	want = append(want, 0, 0, 0, byte(len(tx)))
	want = append(want, tx...)
	wantID := ids.ID(sha256.Sum256(want))

	id, err := h.vm.LastAccepted(ctx)
	require.NoError(t, err)
	require.Equal(t, wantID, id)
	blk, err := h.vm.GetBlock(ctx, id)
	require.NoError(t, err)
	require.Equal(t, want, blk.Bytes())
	require.Equal(t, uint64(0), blk.Height())
	require.Equal(t, ids.Empty, blk.Parent())
	require.Equal(t, time.Unix(0, 0).UTC(), blk.Timestamp())
	got, err := h.vm.GetBlockIDAtHeight(ctx, 0)
	require.NoError(t, err)
	require.Equal(t, wantID, got)
	_, err = h.vm.GetBlockIDAtHeight(ctx, 1)
	require.ErrorIs(t, err, chains.ErrBlockNotFound)
	_, err = h.vm.GetBlock(ctx, ids.ID{1})
	require.ErrorIs(t, err, chains.ErrBlockNotFound)
	_, err = h.vm.BuildBlock(ctx)
	require.ErrorIs(t, err, chains.ErrNoWork)

	require.Equal(t, `{"jsonrpc":"2.0","result":{"value":"hello","found":true},"id":1}`, h.call("get", `{"key":"genesis"}`))
	require.Equal(t, `{"jsonrpc":"2.0","result":{"id":"`+wantID.String()+`","height":"0"},"id":1}`, h.call("lastAccepted", `{}`))
	require.Equal(t, `{"jsonrpc":"2.0","result":{"id":"`+wantID.String()+`","bytes":"0x`+hex.EncodeToString(want)+`"},"id":1}`, h.call("block", `{"height":0}`))
	require.Empty(t, h.keys(), "a VM at its genesis writes nothing")

	other := open(t, "", "other")
	otherID, err := other.vm.LastAccepted(ctx)
	require.NoError(t, err)
	require.NotEqual(t, wantID, otherID, "the genesis block comes from the genesis bytes")
}

func TestAccept(t *testing.T) {
	t.Parallel()
	h := open(t, "", "g")
	ctx := t.Context()
	genesis := h.vm.Genesis()

	for _, kv := range [][2]string{{"a", "1"}, {"b", "2"}, {"a", "3"}} {
		id := ids.ID(sha256.Sum256(txBytes(kv[0], kv[1])))
		reply := h.call("put", fmt.Sprintf(`{"key":%q,"value":%q}`, kv[0], kv[1]))
		require.Equal(t, `{"jsonrpc":"2.0","result":{"txID":"`+id.String()+`"},"id":1}`, reply)
	}
	require.Len(t, h.vm.WorkReady(), 1, "signals coalesce into one")
	require.Equal(t, `{"jsonrpc":"2.0","error":{"code":-32000,"message":"transaction already known","data":null},"id":1}`,
		h.call("put", `{"key":"a","value":"1"}`))
	require.Equal(t, `{"jsonrpc":"2.0","error":{"code":-32000,"message":"empty key","data":null},"id":1}`,
		h.call("put", `{"key":"","value":"1"}`))

	// One block per put, in order.
	b, err := h.vm.BuildBlock(ctx)
	require.NoError(t, err)
	blk := b.(*chainstest.Block)
	require.Equal(t, genesis.ID(), blk.Parent())
	require.Equal(t, uint64(1), blk.Height())
	require.Equal(t, h.clock.Now(), blk.Timestamp())
	require.Equal(t, ids.ID(sha256.Sum256(blk.Bytes())), blk.ID())
	require.Equal(t, []chains.Container{{ID: chainstest.NewTx("a", "1").ID(), Bytes: txBytes("a", "1")}}, blk.Txs())
	require.NoError(t, blk.Verify(ctx))

	// Accept only stages: until the commit nothing is on disk, and until Accepted the VM's
	// memory still describes genesis.
	batch := h.db.NewBatch()
	require.NoError(t, blk.Accept(ctx, batch))
	require.Empty(t, h.keys())
	require.NoError(t, batch.Commit())
	require.NotEmpty(t, h.keys())
	last, err := h.vm.LastAccepted(ctx)
	require.NoError(t, err)
	require.Equal(t, genesis.ID(), last)
	require.NoError(t, h.vm.Accepted(ctx, blk))
	require.Equal(t, []uint64{1}, h.vm.AcceptedHeights())

	h.next()
	h.next()
	require.Equal(t, `{"jsonrpc":"2.0","result":{"value":"3","found":true},"id":1}`, h.call("get", `{"key":"a"}`))
	require.Equal(t, `{"jsonrpc":"2.0","result":{"value":"2","found":true},"id":1}`, h.call("get", `{"key":"b"}`))
	require.Equal(t, `{"jsonrpc":"2.0","result":{"value":"","found":false},"id":1}`, h.call("get", `{"key":"c"}`))
	last, err = h.vm.LastAccepted(ctx)
	require.NoError(t, err)
	require.Equal(t, `{"jsonrpc":"2.0","result":{"id":"`+last.String()+`","height":"3"},"id":1}`, h.call("lastAccepted", `null`))
	lastBlk, err := h.vm.GetBlock(ctx, last)
	require.NoError(t, err)
	require.Equal(t, `{"jsonrpc":"2.0","result":{"id":"`+last.String()+`","bytes":"0x`+hex.EncodeToString(lastBlk.Bytes())+`"},"id":1}`,
		h.call("block", `{"height":"3"}`))
	require.Equal(t, `{"jsonrpc":"2.0","error":{"code":-32000,"message":"block not found","data":null},"id":1}`,
		h.call("block", `{"height":4}`))
	_, err = h.vm.BuildBlock(ctx)
	require.ErrorIs(t, err, chains.ErrNoWork)
	require.Contains(t, h.call("put", `{"key":"b","value":"2"}`), "transaction already known", "an accepted transaction is refused")
}

// Everything accepted survives a reopen.
func TestReopen(t *testing.T) {
	t.Parallel()
	h := open(t, "", "g")
	require.NoError(t, h.vm.Submit(chainstest.NewTx("a", "1")))
	b1 := h.next()
	require.NoError(t, h.vm.Submit(chainstest.NewTx("a", "2"), chainstest.NewTx("b", "3")))
	h.clock.Advance(time.Millisecond)
	b2 := h.next()
	require.NoError(t, h.vm.Submit(chainstest.NewTx("c", "pending"))) // the queue is memory only
	dir := h.dir
	h.close()

	h = open(t, dir, "g")
	ctx := t.Context()
	last, err := h.vm.LastAccepted(ctx)
	require.NoError(t, err)
	require.Equal(t, b2.ID(), last)
	for i, want := range []chains.Block{h.vm.Genesis(), b1, b2} {
		id, err := h.vm.GetBlockIDAtHeight(ctx, uint64(i))
		require.NoError(t, err)
		require.Equal(t, want.ID(), id)
		got, err := h.vm.GetBlock(ctx, id)
		require.NoError(t, err)
		require.Equal(t, want.Bytes(), got.Bytes())
	}
	v, err := h.vm.State("b")
	require.NoError(t, err)
	require.Equal(t, "3", v)
	_, err = h.vm.BuildBlock(ctx)
	require.ErrorIs(t, err, chains.ErrNoWork)
	require.ErrorIs(t, h.vm.Submit(chainstest.NewTx("a", "1")), chainstest.ErrKnownTx)
	require.NoError(t, h.vm.Submit(chainstest.NewTx("c", "4")))
	b3 := h.next()
	require.Equal(t, b2.ID(), b3.Parent())
	require.Equal(t, uint64(3), b3.Height())
}

func TestVerify(t *testing.T) {
	t.Parallel()
	h := open(t, "", "g")
	require.NoError(t, h.vm.Submit(chainstest.NewTx("old", "1")))
	h.clock.Advance(time.Second)
	last := h.next()
	ts := last.Timestamp().UnixNano()
	ok := chainstest.NewTx("new", "1")
	tests := []struct {
		name    string
		parent  ids.ID
		height  uint64
		time    int64
		txs     []*chainstest.Tx
		wantErr error
	}{
		{"valid", last.ID(), 2, ts, []*chainstest.Tx{ok}, nil},
		{"unknown parent", ids.ID{1}, 2, ts, []*chainstest.Tx{ok}, chainstest.ErrWrongParent},
		{"accepted but not last", h.vm.Genesis().ID(), 1, ts, []*chainstest.Tx{ok}, chainstest.ErrWrongParent},
		{"wrong height", last.ID(), 3, ts, []*chainstest.Tx{ok}, chainstest.ErrWrongParent},
		{"older than parent", last.ID(), 2, ts - 1, []*chainstest.Tx{ok}, chainstest.ErrTimeBackward},
		{"no transactions", last.ID(), 2, ts, nil, chainstest.ErrEmptyBlock},
		{"empty key", last.ID(), 2, ts, []*chainstest.Tx{chainstest.NewTx("", "x")}, chainstest.ErrEmptyKey},
		{"repeated transaction", last.ID(), 2, ts, []*chainstest.Tx{ok, ok}, chainstest.ErrDuplicateTx},
		{"accepted transaction", last.ID(), 2, ts, []*chainstest.Tx{chainstest.NewTx("old", "1")}, chainstest.ErrKnownTx},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			blk := h.vm.NewBlock(tt.parent, tt.height, tt.time, tt.txs)
			require.ErrorIs(t, blk.Verify(t.Context()), tt.wantErr)
			require.Equal(t, tt.wantErr == nil, h.vm.Processing(blk.ID()), "processing once verified")
		})
	}
}

// Blocks are verified on processing parents, and rejected: the contract a consensus engine
// relies on.
func TestProcessing(t *testing.T) {
	t.Parallel()
	h := open(t, "", "g")
	ctx := t.Context()
	genesis := h.vm.Genesis()
	a, b, c := chainstest.NewTx("a", "1"), chainstest.NewTx("b", "2"), chainstest.NewTx("c", "3")
	require.NoError(t, h.vm.SubmitBlocks([]*chainstest.Tx{a}, []*chainstest.Tx{b}))

	b1, err := h.vm.BuildBlock(ctx)
	require.NoError(t, err)
	require.NoError(t, b1.Verify(ctx))
	require.NoError(t, h.vm.SetPreference(ctx, b1.ID()))
	b2, err := h.vm.BuildBlock(ctx)
	require.NoError(t, err)
	require.Equal(t, b1.ID(), b2.Parent(), "built on the preferred block")
	require.NoError(t, b2.Verify(ctx))
	got, err := h.vm.GetBlock(ctx, b2.ID())
	require.NoError(t, err)
	require.Same(t, b2, got)
	parsed, err := h.vm.ParseBlock(ctx, b2.Bytes())
	require.NoError(t, err)
	require.Same(t, b2, parsed)

	// A transaction of a processing ancestor cannot come again.
	again := h.vm.NewBlock(b2.ID(), 3, b2.Timestamp().UnixNano(), []*chainstest.Tx{a})
	require.ErrorIs(t, again.Verify(ctx), chainstest.ErrKnownTx)

	// A sibling of b1 on genesis, rejected with nothing left of it.
	sibling := h.vm.NewBlock(genesis.ID(), 1, b1.Timestamp().UnixNano(), []*chainstest.Tx{c})
	require.NoError(t, sibling.Verify(ctx))
	h.accept(b1)
	require.NoError(t, sibling.Reject(ctx))
	require.False(t, h.vm.Processing(sibling.ID()))
	require.Equal(t, []ids.ID{sibling.ID()}, h.vm.Rejected())
	require.ErrorIs(t, sibling.Reject(ctx), chainstest.ErrNotVerified)
	h.accept(b2)
	require.Equal(t, []uint64{1, 2}, h.vm.AcceptedHeights())
	_, err = h.vm.State("c")
	require.ErrorIs(t, err, storage.ErrNotFound)

	// The rejected block's transactions come back for the next block.
	h.next()
	v, err := h.vm.State("c")
	require.NoError(t, err)
	require.Equal(t, "3", v)
	require.ErrorIs(t, h.vm.SetPreference(ctx, sibling.ID()), chainstest.ErrNotVerified)
}

func TestParseBlockErrors(t *testing.T) {
	t.Parallel()
	h := open(t, "", "g")
	good := h.vm.NewBlock(ids.ID{1}, 7, 9, []*chainstest.Tx{chainstest.NewTx("k", "v")}).Bytes()
	tests := []struct {
		name string
		b    []byte
	}{
		{"empty", nil},
		{"short header", good[:40]},
		{"truncated tx", good[:len(good)-1]},
		{"trailing byte", append(slices.Clone(good), 0)},
		{"count too large", slices.Concat(good[:48], []byte{0xff, 0xff, 0xff, 0xff}, good[52:])},
		{"tx length past the end", slices.Concat(good[:52], []byte{0, 0, 1, 0}, good[56:])},
		{"tx with trailing byte", slices.Concat(good[:52], []byte{0, 0, 0, 11}, good[56:], []byte{0})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := h.vm.ParseBlock(t.Context(), tt.b)
			require.ErrorIs(t, err, chainstest.ErrMalformed)
		})
	}
	blk, err := h.vm.ParseBlock(t.Context(), good)
	require.NoError(t, err)
	require.Equal(t, uint64(7), blk.Height())
	require.Equal(t, ids.ID{1}, blk.Parent())
}

// FuzzDecode: decoding never panics, and a block that decodes encodes back to its input.
func FuzzDecode(f *testing.F) {
	var vm *chainstest.VM
	f.Add(vm.NewBlock(ids.Empty, 0, 0, []*chainstest.Tx{chainstest.NewTx("genesis", "g")}).Bytes())
	f.Add(vm.NewBlock(ids.ID{1, 2}, 5, -1, []*chainstest.Tx{chainstest.NewTx("a", "1"), chainstest.NewTx("", "")}).Bytes())
	f.Add(vm.NewBlock(ids.ID{3}, 1, 1, nil).Bytes())
	f.Fuzz(func(t *testing.T, b []byte) {
		blk, err := vm.Decode(b)
		if err != nil {
			return
		}
		require.Equal(t, b, blk.Bytes())
		require.Equal(t, ids.ID(sha256.Sum256(b)), blk.ID())
		for _, tx := range blk.Transactions() {
			again, err := chainstest.ParseTx(tx.Bytes())
			require.NoError(t, err)
			require.Equal(t, tx.Bytes(), again.Bytes())
		}
	})
}
