package storage

import (
	"log/slog"
	"sync/atomic"

	"github.com/cockroachdb/pebble/v2"
)

// published is one state of the database that readers may see: a Pebble
// snapshot taken after a commit was synced (durable before visible, package
// doc). The DB swaps a new one in after each durable commit; readers pin
// the current one for the length of a Get or Has, or of an Iterator's life.
type published struct {
	snap *pebble.Snapshot
	log  *slog.Logger
	// refs is one for the DB while this is its current state, plus one per
	// read or iterator using it. Whoever takes it to zero closes snap; from
	// zero it never rises again, so a reader that finds zero retries on the
	// state that replaced it.
	refs atomic.Int64
}

// newPublished pins Pebble's current state, holding the DB's reference.
func newPublished(pdb *pebble.DB, log *slog.Logger) *published {
	p := &published{snap: pdb.NewSnapshot(), log: log}
	p.refs.Store(1)
	return p
}

// acquire returns the current published state with a reference taken for
// the caller, who must release it. It never blocks: a commit in progress
// holds no lock a reader needs, so a reader sees the state of the last
// durable commit and does not wait for the next.
func (db *DB) acquire() *published {
	for {
		p := db.current.Load()
		n := p.refs.Load()
		// n is zero only once p was replaced and its last reader left;
		// the next Load gets the state that replaced it.
		if n > 0 && p.refs.CompareAndSwap(n, n+1) {
			return p
		}
	}
}

// release drops one reference and closes the snapshot with the last.
func (p *published) release() {
	if p.refs.Add(-1) != 0 {
		return
	}
	// Pebble's Snapshot.Close reports no error today; a future one only
	// means the snapshot's resources were already gone, so log it.
	if err := p.snap.Close(); err != nil {
		p.log.Error("close database snapshot", "err", err)
	}
}

// publish makes what Pebble holds now the state readers see. commit calls
// it with commitMu held, after a synced commit returned: as commits exclude
// one another, nothing Pebble holds then is undurable.
func (db *DB) publish() {
	db.current.Swap(newPublished(db.pdb, db.log)).release()
}
