package node_test

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
	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
)

// kvHarness runs a kvVM the way the acceptance pipeline does (BuildBlock, Verify, Accept into a
// batch, Commit, Accepted), without a node: the tests below check the VM against the contract of
// chains/vm.go on its own.
type kvHarness struct {
	t     *testing.T
	dir   string
	db    *storage.DB
	view  *storage.View
	clock *clock.Fake
	vm    *kvVM
	rpc   http.Handler
}

// kvChainPrefix is where the harness puts the VM's key space, as the manager does for X.
var kvChainPrefix = ids.FromName("test-chain")

// openKV opens the database in dir (a new temp dir if empty) and a kvVM over it.
func openKV(t *testing.T, dir string, genesis string) *kvHarness {
	t.Helper()
	if dir == "" {
		dir = t.TempDir()
	}
	log := slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelWarn}))
	db, err := storage.Open(dir, log)
	require.NoError(t, err)
	h := &kvHarness{t: t, dir: dir, db: db, clock: clock.NewFake(time.Unix(1_700_000_000, 123).UTC())}
	t.Cleanup(func() { h.close() })
	h.view = db.Prefixed(storage.PrefixExchange).Prefixed(kvChainPrefix[:])
	vm, err := kvFactory.New(t.Context(), chains.Context{
		Chain:   chains.Chain{ID: kvChainPrefix, VMID: ids.FromName("avm"), Name: "test"},
		Genesis: []byte(genesis),
		DB:      h.view,
		Log:     log,
		Clock:   h.clock,
	})
	require.NoError(t, err)
	h.vm = vm.(*kvVM)
	handlers, err := vm.Handlers(t.Context())
	require.NoError(t, err)
	require.Len(t, handlers, 1)
	h.rpc = handlers["/rpc"]
	require.NotNil(t, h.rpc)
	return h
}

func (h *kvHarness) close() {
	if h.db == nil {
		return
	}
	require.NoError(h.t, h.vm.Close())
	require.NoError(h.t, h.db.Close())
	h.db = nil
}

// call posts one kv call to the VM's handler and returns the reply body, without its newline.
func (h *kvHarness) call(method, params string) string {
	h.t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"kv.` + method + `","params":` + params + `}`
	req := httptest.NewRequest(http.MethodPost, "/rpc", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.rpc.ServeHTTP(rec, req)
	require.Equal(h.t, http.StatusOK, rec.Code)
	return strings.TrimSuffix(rec.Body.String(), "\n")
}

// acceptNext builds, verifies and accepts one block, as the pipeline does.
func (h *kvHarness) acceptNext() *kvBlock {
	h.t.Helper()
	ctx := h.t.Context()
	b, err := h.vm.BuildBlock(ctx)
	require.NoError(h.t, err)
	require.NoError(h.t, b.Verify(ctx))
	batch := h.db.NewBatch()
	defer batch.Close()
	require.NoError(h.t, b.Accept(ctx, batch))
	require.NoError(h.t, batch.Commit())
	require.NoError(h.t, h.vm.Accepted(ctx, b))
	return b.(*kvBlock)
}

// keys returns every key of the VM's key space.
func (h *kvHarness) keys() []string {
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

// kvTxBytes is the reference encoding of a transaction, written out by hand.
func kvTxBytes(key, value string) []byte {
	b := []byte{0, 0, 0, byte(len(key))}
	b = append(b, key...)
	b = append(b, 0, 0, 0, byte(len(value)))
	return append(b, value...)
}

func TestKVVMGenesis(t *testing.T) {
	t.Parallel()
	h := openKV(t, "", "hello")
	ctx := t.Context()

	// 32 zero bytes of parent, height 0, timestamp 0, one transaction.
	want := make([]byte, 32+8+8)
	want = append(want, 0, 0, 0, 1)
	tx := kvTxBytes("genesis", "hello")
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

	other := openKV(t, "", "other")
	otherID, err := other.vm.LastAccepted(ctx)
	require.NoError(t, err)
	require.NotEqual(t, wantID, otherID, "the genesis block comes from the genesis bytes")
}

func TestKVVMAccept(t *testing.T) {
	t.Parallel()
	h := openKV(t, "", "g")
	ctx := t.Context()
	genesis := h.vm.genesis

	var txIDs []ids.ID
	for i, kv := range [][2]string{{"a", "1"}, {"b", "2"}, {"a", "3"}} {
		id := ids.ID(sha256.Sum256(kvTxBytes(kv[0], kv[1])))
		txIDs = append(txIDs, id)
		reply := h.call("put", fmt.Sprintf(`{"key":%q,"value":%q}`, kv[0], kv[1]))
		require.Equal(t, `{"jsonrpc":"2.0","result":{"txID":"`+id.String()+`"},"id":1}`, reply, "put %d", i)
	}
	require.Len(t, h.vm.WorkReady(), 1, "signals coalesce into one")
	<-h.vm.WorkReady()
	require.Equal(t, `{"jsonrpc":"2.0","error":{"code":-32000,"message":"transaction already known","data":null},"id":1}`,
		h.call("put", `{"key":"a","value":"1"}`))
	require.Equal(t, `{"jsonrpc":"2.0","error":{"code":-32000,"message":"empty key","data":null},"id":1}`,
		h.call("put", `{"key":"","value":"1"}`))

	b, err := h.vm.BuildBlock(ctx)
	require.NoError(t, err)
	blk := b.(*kvBlock)
	require.Equal(t, genesis.id, blk.Parent())
	require.Equal(t, uint64(1), blk.Height())
	require.Equal(t, h.clock.Now(), blk.Timestamp())
	require.Equal(t, ids.ID(sha256.Sum256(blk.Bytes())), blk.ID())
	var gotTxs []ids.ID
	for _, c := range blk.Txs() {
		require.Equal(t, c.ID, ids.ID(sha256.Sum256(c.Bytes)))
		gotTxs = append(gotTxs, c.ID)
	}
	require.Equal(t, txIDs, gotTxs, "all pending transactions, in arrival order")
	parsed, err := h.vm.ParseBlock(ctx, blk.Bytes())
	require.NoError(t, err)
	require.Equal(t, blk.ID(), parsed.ID())
	require.Equal(t, blk.Timestamp(), parsed.Timestamp())
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
	require.Equal(t, genesis.id, last)
	require.Equal(t, `{"jsonrpc":"2.0","result":{"value":"","found":false},"id":1}`, h.call("get", `{"key":"a"}`))
	require.NoError(t, h.vm.Accepted(ctx, blk))

	last, err = h.vm.LastAccepted(ctx)
	require.NoError(t, err)
	require.Equal(t, blk.ID(), last)
	require.Equal(t, `{"jsonrpc":"2.0","result":{"value":"3","found":true},"id":1}`, h.call("get", `{"key":"a"}`))
	require.Equal(t, `{"jsonrpc":"2.0","result":{"value":"2","found":true},"id":1}`, h.call("get", `{"key":"b"}`))
	require.Equal(t, `{"jsonrpc":"2.0","result":{"id":"`+blk.ID().String()+`","height":"1"},"id":1}`, h.call("lastAccepted", `null`))
	require.Equal(t, `{"jsonrpc":"2.0","result":{"id":"`+blk.ID().String()+`","bytes":"0x`+hex.EncodeToString(blk.Bytes())+`"},"id":1}`,
		h.call("block", `{"height":"1"}`))
	require.Equal(t, `{"jsonrpc":"2.0","error":{"code":-32000,"message":"block not found","data":null},"id":1}`,
		h.call("block", `{"height":2}`))
	got, err := h.vm.GetBlockIDAtHeight(ctx, 1)
	require.NoError(t, err)
	require.Equal(t, blk.ID(), got)
	_, err = h.vm.BuildBlock(ctx)
	require.ErrorIs(t, err, chains.ErrNoWork, "accepted transactions leave the mempool")
	require.Equal(t, `{"jsonrpc":"2.0","error":{"code":-32000,"message":"transaction already known","data":null},"id":1}`,
		h.call("put", `{"key":"b","value":"2"}`), "an accepted transaction is refused")
}

// A block whose batch is discarded leaves no trace: the transactions stay pending and the next
// block carries them.
func TestKVVMDiscardedBatch(t *testing.T) {
	t.Parallel()
	h := openKV(t, "", "g")
	ctx := t.Context()
	h.call("put", `{"key":"k","value":"v"}`)
	b, err := h.vm.BuildBlock(ctx)
	require.NoError(t, err)
	batch := h.db.NewBatch()
	require.NoError(t, b.Accept(ctx, batch))
	batch.Close()
	require.Empty(t, h.keys())
	require.Equal(t, h.vm.genesis, h.vm.lastAccepted())

	h.clock.Advance(time.Second)
	blk := h.acceptNext()
	require.Equal(t, uint64(1), blk.Height())
	require.Len(t, blk.txs, 1)
	require.NotEqual(t, b.ID(), blk.ID(), "a later timestamp")
}

// Everything accepted survives a reopen; memory is rebuilt from disk.
func TestKVVMReopen(t *testing.T) {
	t.Parallel()
	h := openKV(t, "", "g")
	h.call("put", `{"key":"a","value":"1"}`)
	b1 := h.acceptNext()
	h.call("put", `{"key":"a","value":"2"}`)
	h.call("put", `{"key":"b","value":"3"}`)
	h.clock.Advance(time.Millisecond)
	b2 := h.acceptNext()
	h.call("put", `{"key":"c","value":"pending"}`) // the mempool is memory only
	dir := h.dir
	h.close()

	h = openKV(t, dir, "g")
	ctx := t.Context()
	last, err := h.vm.LastAccepted(ctx)
	require.NoError(t, err)
	require.Equal(t, b2.ID(), last)
	for i, want := range []*kvBlock{h.vm.genesis, b1, b2} {
		id, err := h.vm.GetBlockIDAtHeight(ctx, uint64(i))
		require.NoError(t, err)
		require.Equal(t, want.ID(), id)
		got, err := h.vm.GetBlock(ctx, id)
		require.NoError(t, err)
		require.Equal(t, want.Bytes(), got.Bytes())
	}
	require.Equal(t, map[string]string{"genesis": "g", "a": "2", "b": "3"}, h.vm.state)
	_, err = h.vm.BuildBlock(ctx)
	require.ErrorIs(t, err, chains.ErrNoWork)
	require.Contains(t, h.call("put", `{"key":"a","value":"1"}`), "transaction already known")
	h.call("put", `{"key":"c","value":"4"}`)
	b3 := h.acceptNext()
	require.Equal(t, b2.ID(), b3.Parent())
	require.Equal(t, uint64(3), b3.Height())
}

func TestKVVMVerify(t *testing.T) {
	t.Parallel()
	h := openKV(t, "", "g")
	h.call("put", `{"key":"old","value":"1"}`)
	h.clock.Advance(time.Second)
	last := h.acceptNext()
	ok := newKVTx("new", "1")
	tests := []struct {
		name    string
		parent  ids.ID
		height  uint64
		time    int64
		txs     []*kvTx
		wantErr error
	}{
		{"valid", last.id, 2, last.time, []*kvTx{ok}, nil},
		{"wrong parent", h.vm.genesis.id, 2, last.time, []*kvTx{ok}, errKVWrongParent},
		{"wrong height", last.id, 3, last.time, []*kvTx{ok}, errKVWrongParent},
		{"older than parent", last.id, 2, last.time - 1, []*kvTx{ok}, errKVTimeBackward},
		{"no transactions", last.id, 2, last.time, nil, errKVEmptyBlock},
		{"empty key", last.id, 2, last.time, []*kvTx{newKVTx("", "x")}, errKVEmptyKey},
		{"repeated transaction", last.id, 2, last.time, []*kvTx{ok, ok}, errKVDuplicateTx},
		{"accepted transaction", last.id, 2, last.time, []*kvTx{newKVTx("old", "1")}, errKVKnownTx},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			blk := h.vm.newBlock(tt.parent, tt.height, tt.time, tt.txs)
			require.ErrorIs(t, blk.Verify(t.Context()), tt.wantErr)
		})
	}
}

func TestKVVMParseBlockErrors(t *testing.T) {
	t.Parallel()
	h := openKV(t, "", "g")
	good := h.vm.newBlock(ids.ID{1}, 7, 9, []*kvTx{newKVTx("k", "v")}).bytes
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
			require.ErrorIs(t, err, errKVMalformed)
		})
	}
	blk, err := h.vm.ParseBlock(t.Context(), good)
	require.NoError(t, err)
	require.Equal(t, uint64(7), blk.Height())
	require.Equal(t, ids.ID{1}, blk.Parent())
}

// FuzzKVVMParseBlock: decoding never panics, and a block that decodes encodes back to its input.
func FuzzKVVMParseBlock(f *testing.F) {
	vm := &kvVM{}
	f.Add(vm.newBlock(ids.Empty, 0, 0, []*kvTx{newKVTx("genesis", "g")}).bytes)
	f.Add(vm.newBlock(ids.ID{1, 2}, 5, -1, []*kvTx{newKVTx("a", "1"), newKVTx("", "")}).bytes)
	f.Add(vm.newBlock(ids.ID{3}, 1, 1, nil).bytes)
	f.Fuzz(func(t *testing.T, b []byte) {
		blk, err := vm.parseKVBlock(b)
		if err != nil {
			return
		}
		require.Equal(t, b, blk.Bytes())
		require.Equal(t, ids.ID(sha256.Sum256(b)), blk.ID())
		for _, tx := range blk.txs {
			again, err := parseKVTx(tx.bytes)
			require.NoError(t, err)
			require.Equal(t, tx.bytes, again.bytes)
		}
	})
}
