package index

import "github.com/cornice-node/cornice/ids"

// Internals for the tests of package index_test.

// Tail returns the writer's in-memory next index of chainID's block index, and whether it is
// known, with the one stored.
func Tail(x *Indexer, chainID ids.ID) (next uint64, known bool, stored uint64, err error) {
	ix := x.blockIndex(chainID)
	if t := ix.tail.Load(); t != nil {
		next, known = t.next, true
	}
	stored, err = ix.readNext()
	return next, known, stored, err
}
