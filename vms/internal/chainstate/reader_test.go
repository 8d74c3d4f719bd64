package chainstate

import (
	"errors"
	"log/slog"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/chains/atomic"
	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
)

// str parses stored bytes as a string, refusing "bad".
func str(b []byte) (string, error) {
	if string(b) == "bad" {
		return "", errors.New("bad bytes")
	}
	return string(b), nil
}

// TestReader reads back what the writes stage, in a chain's Format, and the KeyLast record with
// the chain's own bytes after the ID and height.
func TestReader(t *testing.T) {
	t.Parallel()
	db := newView(t)
	r := NewReader(db, nil, Format[string, string, string]{UTXO: str, Tx: str, Block: str, LastExtra: 2})

	h, err := r.LastHeight()
	require.NoError(t, err)
	require.Zero(t, h, "no genesis yet")
	_, _, _, found, err := r.Last()
	require.NoError(t, err)
	require.False(t, found)

	b := db.NewBatch()
	require.NoError(t, PutUTXO(b, ids.ID{1}, []byte("utxo"), []ids.ShortID{{5}}))
	require.NoError(t, b.Put(IDKey(KeyTx, ids.ID{2}), []byte("tx")))
	require.NoError(t, b.Put(IDKey(KeyTx, ids.ID{3}), []byte("bad")))
	require.NoError(t, PutBlock(b, ids.ID{4}, 7, []byte("block"), []byte{8, 9}))
	require.NoError(t, b.Commit())
	b.Close()

	ux, found, err := r.UTXO(ids.ID{1})
	require.NoError(t, err)
	require.True(t, found)
	require.Equal(t, "utxo", ux)
	raw, found, err := r.UTXOBytes(ids.ID{1})
	require.NoError(t, err)
	require.True(t, found)
	require.Equal(t, []byte("utxo"), raw)
	tx, found, err := r.Tx(ids.ID{2})
	require.NoError(t, err)
	require.True(t, found)
	require.Equal(t, "tx", tx)
	_, _, err = r.Tx(ids.ID{3})
	require.ErrorContains(t, err, "stored tx "+ids.ID{3}.String()+": bad bytes")
	has, err := r.HasTx(ids.ID{9})
	require.NoError(t, err)
	require.False(t, has)
	blk, found, err := r.Block(ids.ID{4})
	require.NoError(t, err)
	require.True(t, found)
	require.Equal(t, "block", blk)
	id, found, err := r.BlockIDAt(7)
	require.NoError(t, err)
	require.True(t, found)
	require.Equal(t, ids.ID{4}, id)
	utxos, err := r.UTXOIDs(ids.ShortID{5}, ids.Empty, All)
	require.NoError(t, err)
	require.Equal(t, []ids.ID{{1}}, utxos)

	id, h, rest, found, err := r.Last()
	require.NoError(t, err)
	require.True(t, found)
	require.Equal(t, ids.ID{4}, id)
	require.Equal(t, uint64(7), h)
	require.Equal(t, []byte{8, 9}, rest)
	h, err = r.LastHeight()
	require.NoError(t, err)
	require.Equal(t, uint64(7), h)

	// A record of another length is not this chain's.
	other := NewReader(db, nil, Format[string, string, string]{UTXO: str, Tx: str, Block: str})
	_, err = other.LastHeight()
	require.ErrorContains(t, err, "stored last accepted block: 42 bytes")
}

// TestResume resumes at the last accepted block only on the chain whose genesis is stored.
func TestResume(t *testing.T) {
	t.Parallel()
	db := newView(t)
	r := NewReader(db, nil, Format[string, string, string]{UTXO: str, Tx: str, Block: str, LastExtra: 1})
	genesis := ids.ID{1}
	_, _, found, err := r.Resume(genesis)
	require.NoError(t, err)
	require.False(t, found, "an empty key space has no genesis yet")

	require.NoError(t, Commit(db, func(b *storage.Batch) error {
		if err := PutBlock(b, genesis, 0, []byte("genesis"), []byte{0}); err != nil {
			return err
		}
		return PutBlock(b, ids.ID{2}, 1, []byte("one"), []byte{7})
	}))
	last, rest, found, err := r.Resume(genesis)
	require.NoError(t, err)
	require.True(t, found)
	require.Equal(t, "one", last)
	require.Equal(t, []byte{7}, rest)

	_, _, _, err = r.Resume(ids.ID{9})
	require.ErrorContains(t, err, "stored genesis block "+genesis.String()+" is not this chain's "+ids.ID{9}.String())

	// A last accepted record naming a block that is not stored.
	require.NoError(t, Commit(db, func(b *storage.Batch) error {
		missing := ids.ID{3}
		return b.Put([]byte{KeyLast}, append(append(missing[:], 0, 0, 0, 0, 0, 0, 0, 2), 7))
	}))
	_, _, _, err = r.Resume(genesis)
	require.ErrorContains(t, err, "last accepted block "+ids.ID{3}.String()+" is missing")

	// A failed stage commits nothing.
	require.ErrorIs(t, Commit(db, func(b *storage.Batch) error {
		require.NoError(t, b.Put([]byte{KeyLast}, nil))
		return errStage
	}), errStage)
	_, _, _, err = r.Resume(genesis)
	require.ErrorContains(t, err, "is missing", "the record is still the one before")
}

var errStage = errors.New("stage failed")

// TestGenesis refuses a context without what the VMs need, and wraps a genesis parse failure.
func TestGenesis(t *testing.T) {
	t.Parallel()
	_, err := Genesis(chains.Context{Genesis: []byte("g")}, str)
	require.ErrorContains(t, err, "chains.Context needs DB, Log, Clock, SharedMemory and Chains")

	sdb, err := storage.Open(t.TempDir(), slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, sdb.Close()) })
	reg, err := chains.NewRegistry(sdb.Prefixed(storage.PrefixChains), slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	c := chains.Context{
		DB:           sdb.Prefixed(storage.PrefixExchange),
		Log:          slog.New(slog.DiscardHandler),
		Clock:        clock.NewFake(time.Unix(0, 0)),
		SharedMemory: atomic.New(sdb.Prefixed(storage.PrefixExchange)).For(ids.ID{1}),
		Chains:       reg,
		Genesis:      []byte("g"),
	}
	g, err := Genesis(c, str)
	require.NoError(t, err)
	require.Equal(t, "g", g)
	c.Genesis = []byte("bad")
	_, err = Genesis(c, str)
	require.ErrorContains(t, err, "parse genesis: bad bytes")
}
