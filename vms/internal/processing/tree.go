package processing

import (
	"iter"

	"github.com/cornice-node/cornice/ids"
)

// Block is a VM's block as a Tree keeps it.
type Block interface {
	ID() ids.ID
	Parent() ids.ID
}

// Tree holds a UTXO chain's processing blocks B with the views V they leave (the state a child is
// verified and built on), and the preferred block; the VM keeps its last accepted block and the
// view of its accepted state, and passes them in. Its zero value is empty, with nothing
// preferred. Like a Set, it is not safe for concurrent use: the VM guards it with the lock that
// guards its last accepted block.
type Tree[B Block, V any] struct {
	set Set[node[B, V]]
}

// node is a processing block and the view it leaves.
type node[B Block, V any] struct {
	b B
	v V
}

// Add records b, verified, as processing, leaving view v.
func (t *Tree[B, V]) Add(b B, v V) { t.set.Add(b.ID(), node[B, V]{b, v}) }

// Get returns processing block id.
func (t *Tree[B, V]) Get(id ids.ID) (B, bool) {
	n, ok := t.set.Get(id)
	return n.b, ok
}

// Parent returns the block id names if a block can be built or verified on it: last, the last
// accepted block, with accepted, its view, or a processing block with the view it leaves.
func (t *Tree[B, V]) Parent(id ids.ID, last B, accepted V) (B, V, bool) {
	if id == last.ID() {
		return last, accepted, true
	}
	n, ok := t.set.Get(id)
	return n.b, n.v, ok
}

// Preferred returns the preferred block if it is processing, with the view it leaves.
func (t *Tree[B, V]) Preferred() (B, V, bool) {
	n, ok := t.set.Preferred()
	return n.b, n.v, ok
}

// Prefer makes block id, last (the last accepted block) or a processing one, the block to build
// on next; it reports false, preferring nothing new, for any other block.
func (t *Tree[B, V]) Prefer(id ids.ID, last B) bool {
	if _, ok := t.set.Get(id); !ok && id != last.ID() {
		return false
	}
	t.set.Prefer(id)
	return true
}

// Accepted forgets accepted block b as processing and yields the views its processing children
// leave: the VM moves them onto its accepted state, which now holds what b's view held.
func (t *Tree[B, V]) Accepted(b B) iter.Seq[V] {
	t.set.Decided(b.ID(), b.Parent())
	return func(yield func(V) bool) {
		for n := range t.set.Blocks() {
			if n.b.Parent() == b.ID() && !yield(n.v) {
				return
			}
		}
	}
}

// Rejected forgets rejected block b; if it was preferred, its parent is.
func (t *Tree[B, V]) Rejected(b B) { t.set.Decided(b.ID(), b.Parent()) }
