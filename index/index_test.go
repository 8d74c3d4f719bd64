package index

import (
	"bytes"
	"context"
	"encoding/binary"
	"log/slog"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
)

// TestDamagedEntries: a stored entry that cannot be read is logged with its cause and answered
// with `internal error`, never with the cause's text.
func TestDamagedEntries(t *testing.T) {
	t.Parallel()
	db, err := storage.Open(filepath.Join(t.TempDir(), "db"), slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, db.Close()) })
	var logged bytes.Buffer
	x, err := New(Config{Enabled: true}, db.Prefixed(storage.PrefixIndex), clock.Real{}, slog.New(slog.NewTextHandler(&logged, nil)))
	require.NoError(t, err)
	_, err = x.Register(ids.Empty, Block)
	require.NoError(t, err)

	// One entry whose container is garbage, and an ID mapped to a missing container.
	ix := x.chains[ids.Empty].block
	var one [8]byte
	binary.BigEndian.PutUint64(one[:], 1)
	ck, good, orphan := containerKey(0), idKey(ids.ID{1}), idKey(ids.ID{2})
	require.NoError(t, ix.view.Put(nextKey, one[:]))
	require.NoError(t, ix.view.Put(ck[:], []byte("garbage")))
	require.NoError(t, ix.view.Put(good[:], make([]byte, 8)))
	var far [8]byte
	binary.BigEndian.PutUint64(far[:], 7)
	require.NoError(t, ix.view.Put(orphan[:], far[:]))

	s := &service{ix: ix, log: x.log}
	ctx := t.Context()
	_, err = s.GetLastAccepted(ctx, &GetLastAcceptedArgs{})
	require.ErrorIs(t, err, errInternal)
	_, err = s.GetContainerByIndex(ctx, &GetContainerByIndexArgs{})
	require.ErrorIs(t, err, errInternal)
	_, err = s.GetContainerByID(ctx, &GetContainerByIDArgs{ID: ids.ID{1}})
	require.ErrorIs(t, err, errInternal)
	// An ID mapped past the last container is what a truncation leaves (a developer's
	// roll-back): not damage, the ID is not found.
	_, err = s.GetContainerByID(ctx, &GetContainerByIDArgs{ID: ids.ID{2}})
	require.ErrorIs(t, err, errNotFound)
	_, err = s.GetContainerRange(ctx, &GetContainerRangeArgs{NumToFetch: 1})
	require.ErrorIs(t, err, errInternal)
	require.Contains(t, logged.String(), "index: corrupt entry")

	// A bad counter breaks staging too; the batch is then discarded.
	require.NoError(t, ix.view.Put(nextKey, []byte{1}))
	b := db.NewBatch()
	defer b.Close()
	err = x.Accept(ctx, b, ids.Empty, container(3), nil)
	require.ErrorIs(t, err, errCorrupt)
}

// TestClosedDatabase: calls after the database closed (a shutdown) get `internal error`.
func TestClosedDatabase(t *testing.T) {
	t.Parallel()
	db, err := storage.Open(filepath.Join(t.TempDir(), "db"), slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	x, err := New(Config{Enabled: true}, db.Prefixed(storage.PrefixIndex), clock.Real{}, slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	_, err = x.Register(ids.Empty, Block)
	require.NoError(t, err)
	require.NoError(t, db.Close())

	s := &service{ix: x.chains[ids.Empty].block, log: x.log}
	ctx := t.Context()
	_, err = s.GetLastAccepted(ctx, &GetLastAcceptedArgs{})
	require.ErrorIs(t, err, errInternal)
	_, err = s.GetContainerRange(ctx, &GetContainerRangeArgs{NumToFetch: 1})
	require.ErrorIs(t, err, errInternal)
	_, err = s.GetIndex(ctx, &GetIndexArgs{})
	require.ErrorIs(t, err, errInternal)
	_, err = s.IsAccepted(ctx, &IsAcceptedArgs{})
	require.ErrorIs(t, err, errInternal)
	require.ErrorIs(t, x.Check(ids.Empty), storage.ErrClosed)
}

// TestRangeCancelled: a range read stops when the request's context is done.
func TestRangeCancelled(t *testing.T) {
	t.Parallel()
	db, err := storage.Open(filepath.Join(t.TempDir(), "db"), slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, db.Close()) })
	x, err := New(Config{Enabled: true}, db.Prefixed(storage.PrefixIndex), clock.Real{}, slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	_, err = x.Register(ids.Empty, Block)
	require.NoError(t, err)
	b := db.NewBatch()
	require.NoError(t, x.Accept(t.Context(), b, ids.Empty, container(1), nil))
	require.NoError(t, b.Commit())

	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	s := &service{ix: x.chains[ids.Empty].block, log: x.log}
	_, err = s.GetContainerRange(ctx, &GetContainerRangeArgs{NumToFetch: 1})
	require.ErrorIs(t, err, context.Canceled)
}

// container returns a test container with ID {b} and bytes {b}.
func container(b byte) chains.Container {
	return chains.Container{ID: ids.ID{b}, Bytes: []byte{b}}
}
