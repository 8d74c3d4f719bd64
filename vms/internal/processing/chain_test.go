package processing_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
	"github.com/cornice-node/cornice/vms/internal/processing"
)

// cblock is a chains.Block whose bytes are its ID.
type cblock struct{ block }

func (*cblock) Height() uint64                               { return 0 }
func (*cblock) Timestamp() time.Time                         { return time.Time{} }
func (*cblock) TxCount() int                                 { return 0 }
func (b *cblock) Bytes() []byte                              { return b.id[:] }
func (*cblock) Verify(context.Context) error                 { return nil }
func (*cblock) Accept(context.Context, *storage.Batch) error { return nil }
func (*cblock) Reject(context.Context) error                 { return nil }

func TestChain(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	genesis := &cblock{block{id: ids.ID{1}}}
	stored := map[ids.ID]*cblock{genesis.id: genesis}
	errParse := errors.New("bad bytes")
	c := processing.NewChain(processing.Store[*cblock]{
		Block: func(id ids.ID) (*cblock, bool, error) { b, ok := stored[id]; return b, ok, nil },
		BlockIDAt: func(h uint64) (ids.ID, bool, error) {
			return genesis.id, h == 0, nil
		},
		Parse: func(b []byte) (*cblock, error) {
			id, err := ids.ToID(b)
			if err != nil {
				return nil, errParse
			}
			return &cblock{block{id: id, parent: genesis.id}}, nil
		},
	}, genesis, view(&accepted{}))

	last, err := c.LastAccepted(ctx)
	require.NoError(t, err)
	require.Equal(t, genesis.id, last)
	got, err := c.GetBlock(ctx, genesis.id)
	require.NoError(t, err)
	require.Same(t, genesis, got)
	_, err = c.GetBlock(ctx, ids.ID{9})
	require.ErrorIs(t, err, chains.ErrBlockNotFound)
	id, err := c.GetBlockIDAtHeight(ctx, 0)
	require.NoError(t, err)
	require.Equal(t, genesis.id, id)
	_, err = c.GetBlockIDAtHeight(ctx, 1)
	require.ErrorIs(t, err, chains.ErrBlockNotFound)
	_, err = c.ParseBlock(ctx, []byte{1})
	require.ErrorIs(t, err, errParse)
	require.ErrorContains(t, err, "parse block: ")

	// A processing block is found by ID and by bytes as the same block; it can be preferred and
	// built on.
	a := &cblock{block{id: ids.ID{2}, parent: genesis.id}}
	va := &pview{Lineage: processing.NewLineage[view](view(&accepted{}), []tx{}), n: "a"}
	c.AddProcessing(a, va)
	got, err = c.GetBlock(ctx, a.id)
	require.NoError(t, err)
	require.Same(t, a, got)
	got, err = c.ParseBlock(ctx, a.Bytes())
	require.NoError(t, err)
	require.Same(t, a, got)
	b, _ := c.Preferred()
	require.Same(t, genesis, b, "nothing preferred: the last accepted block")
	require.NoError(t, c.SetPreference(ctx, a.id))
	b, v := c.Preferred()
	require.Same(t, a, b)
	require.Equal(t, view(va), v)
	require.ErrorIs(t, c.SetPreference(ctx, ids.ID{9}), chains.ErrBlockNotFound)

	// A child of a is rebased when a is accepted, which becomes the last accepted block.
	child := &cblock{block{id: ids.ID{3}, parent: a.id}}
	c.AddProcessing(child, &pview{n: "child"})
	var rebased []view
	c.MarkAccepted(a, func(v view) { rebased = append(rebased, v) })
	require.Len(t, rebased, 1)
	require.Same(t, a, c.Last())
	_, _, ok := c.ParentOf(child.id)
	require.True(t, ok)
	c.MarkRejected(child)
	_, ok = c.ProcessingBlock(child.id)
	require.False(t, ok)

	// Signals coalesce: one pending at most.
	c.Signal()
	c.Signal()
	<-c.WorkReady()
	select {
	case <-c.WorkReady():
		t.Fatal("a second signal was queued")
	default:
	}
}
