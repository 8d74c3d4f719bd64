// Package processing keeps a chain's processing blocks, those verified and neither accepted nor
// rejected, and its preferred block: the part of chains.Block's contract that every VM keeps the
// same way (chains/vm.go). A Set holds the blocks alone (the EVM); a Tree also holds the view each
// processing block leaves, and a Lineage is the part of such a view the UTXO chains (X and P)
// share: its parent's view and its txs. What the view holds besides (UTXOs, state) is the VM's
// own. A Chain, which the X- and P-Chain VMs embed, adds the last accepted block and answers
// chains.VM's lookups (LastAccepted, GetBlock, GetBlockIDAtHeight, ParseBlock, SetPreference,
// WorkReady) for both.
//
// A Set or Tree is not safe for concurrent use: the VM guards it with the lock that guards its
// last accepted block. A Chain has its own lock and is safe for concurrent use.
package processing

import (
	"iter"
	"maps"

	"github.com/cornice-node/cornice/ids"
)

// Set holds the processing blocks B by ID, and the preferred block. Its zero value is empty,
// with nothing preferred.
type Set[B any] struct {
	blocks map[ids.ID]B
	// preferred is the block to build on if it is processing; otherwise the VM builds on its
	// last accepted block.
	preferred ids.ID
}

// Add records b, verified, as processing block id.
func (s *Set[B]) Add(id ids.ID, b B) {
	if s.blocks == nil {
		s.blocks = make(map[ids.ID]B)
	}
	s.blocks[id] = b
}

// Get returns processing block id.
func (s *Set[B]) Get(id ids.ID) (B, bool) {
	b, ok := s.blocks[id]
	return b, ok
}

// Blocks returns the processing blocks, in no order.
func (s *Set[B]) Blocks() iter.Seq[B] { return maps.Values(s.blocks) }

// Decided forgets block id, accepted or rejected; if it was preferred, its parent is.
func (s *Set[B]) Decided(id, parent ids.ID) {
	delete(s.blocks, id)
	if s.preferred == id {
		s.preferred = parent
	}
}

// Prefer makes id the preferred block.
func (s *Set[B]) Prefer(id ids.ID) { s.preferred = id }

// Preferred returns the preferred block if it is processing.
func (s *Set[B]) Preferred() (B, bool) { return s.Get(s.preferred) }
