package processing_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/internal/processing"
)

type block struct{ id, parent ids.ID }

func (b *block) ID() ids.ID     { return b.id }
func (b *block) Parent() ids.ID { return b.parent }

// view is a chain's view: the accepted state (a *accepted) or a processing block's (a *pview).
type view interface{ name() string }

type accepted struct{}

func (*accepted) name() string { return "accepted" }

type pview struct {
	processing.Lineage[view]
	n string
}

func (v *pview) name() string { return v.n }

type tx ids.ID

func (t tx) ID() ids.ID { return ids.ID(t) }

func TestTree(t *testing.T) {
	t.Parallel()
	last := &block{id: ids.ID{1}}
	state := &accepted{}
	a := &block{id: ids.ID{2}, parent: last.id}
	b := &block{id: ids.ID{3}, parent: a.id}
	c := &block{id: ids.ID{4}, parent: last.id}
	var tr processing.Tree[*block, view]

	got, v, ok := tr.Parent(last.id, last, state)
	require.True(t, ok)
	require.Same(t, last, got)
	require.Equal(t, view(state), v)
	_, _, ok = tr.Parent(a.id, last, state)
	require.False(t, ok, "not processing yet")
	_, _, ok = tr.Preferred()
	require.False(t, ok, "the zero Tree prefers nothing")
	require.False(t, tr.Prefer(a.id, last), "an unknown block cannot be preferred")

	va := &pview{Lineage: processing.NewLineage[view](state, []tx{{7}}), n: "a"}
	vb := &pview{Lineage: processing.NewLineage[view](va, []tx{{8}}), n: "b"}
	vc := &pview{Lineage: processing.NewLineage[view](state, []tx{{9}}), n: "c"}
	tr.Add(a, va)
	tr.Add(b, vb)
	tr.Add(c, vc)
	got, v, ok = tr.Parent(b.id, last, state)
	require.True(t, ok)
	require.Same(t, b, got)
	require.Equal(t, view(vb), v)
	require.True(t, tr.Prefer(b.id, last))
	got, v, ok = tr.Preferred()
	require.True(t, ok)
	require.Same(t, b, got)
	require.Equal(t, view(vb), v)

	// Accepting a yields b's view, the only child's, and forgets a.
	children := slices.Collect(tr.Accepted(a))
	require.Equal(t, []view{vb}, children)
	_, ok = tr.Get(a.id)
	require.False(t, ok)

	// Rejecting the preferred b prefers its parent, no longer processing.
	tr.Rejected(b)
	_, ok = tr.Get(b.id)
	require.False(t, ok)
	_, _, ok = tr.Preferred()
	require.False(t, ok)
	require.True(t, tr.Prefer(last.id, last), "the last accepted block can be preferred")
}

func TestLineage(t *testing.T) {
	t.Parallel()
	state := &accepted{}
	va := &pview{Lineage: processing.NewLineage[view](state, []tx{{7}}), n: "a"}
	vb := &pview{Lineage: processing.NewLineage[view](va, []tx{{8}}), n: "b"}

	found, _ := vb.Find(ids.ID{7})
	require.True(t, found, "a tx of a processing ancestor")
	found, _ = vb.Find(ids.ID{8})
	require.True(t, found, "a tx of the block")
	found, root := vb.Find(ids.ID{9})
	require.False(t, found)
	require.Equal(t, view(state), root, "the accepted state's view is asked next")
	require.Equal(t, view(va), vb.Parent())

	require.True(t, processing.InProcessing[view](vb, ids.ID{7}))
	require.False(t, processing.InProcessing[view](vb, ids.ID{9}))
	require.False(t, processing.InProcessing[view](state, ids.ID{7}), "the accepted state is not processing")

	// Once a is accepted, b's lineage starts from the accepted state.
	vb.Rebase(state)
	require.Equal(t, view(state), vb.Parent())
	require.False(t, processing.InProcessing[view](vb, ids.ID{7}))
}
