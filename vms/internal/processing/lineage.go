package processing

import "github.com/cornice-node/cornice/ids"

// Lineage is the part of a processing block's view that every UTXO chain keeps the same way: the
// view V its parent leaves (the accepted state's or a processing block's) and the IDs of the
// block's txs, so that a tx of a processing ancestor is found. A VM's view type embeds it next
// to the overlay of the block's effects. A Lineage is immutable but for Rebase, which the VM
// calls under the lock that guards its Tree.
type Lineage[V any] struct {
	parent V
	txs    map[ids.ID]struct{}
}

// NewLineage returns the lineage of a block whose txs are blockTxs, verified on parent.
func NewLineage[V any, T interface{ ID() ids.ID }](parent V, blockTxs []T) Lineage[V] {
	l := Lineage[V]{parent: parent, txs: make(map[ids.ID]struct{}, len(blockTxs))}
	for _, tx := range blockTxs {
		l.txs[tx.ID()] = struct{}{}
	}
	return l
}

// Parent returns the view the block was verified on, or the accepted state's once Rebase ran.
func (l *Lineage[V]) Parent() V { return l.parent }

// Rebase moves the lineage onto v, the accepted state's view, once its parent block is accepted:
// the accepted state then holds what the parent's view held.
func (l *Lineage[V]) Rebase(v V) { l.parent = v }

// Find reports whether tx id is in the block or a processing ancestor; when it is not, accepted
// is the accepted state's view the lineage starts from, which the VM asks next.
func (l *Lineage[V]) Find(id ids.ID) (found bool, accepted V) {
	for cur := l; ; {
		if _, ok := cur.txs[id]; ok {
			return true, accepted
		}
		p, ok := any(cur.parent).(lineaged[V])
		if !ok {
			return false, cur.parent
		}
		cur = p.lineage()
	}
}

// lineage gives a view embedding a Lineage to Find and InProcessing.
func (l *Lineage[V]) lineage() *Lineage[V] { return l }

// lineaged is a view that embeds a Lineage: a processing block's.
type lineaged[V any] interface{ lineage() *Lineage[V] }

// InProcessing reports whether tx id is in the processing block whose view is v or in one of its
// processing ancestors; it is false when v is the accepted state's view.
func InProcessing[V any](v V, id ids.ID) bool {
	p, ok := any(v).(lineaged[V])
	if !ok {
		return false
	}
	found, _ := p.lineage().Find(id)
	return found
}
