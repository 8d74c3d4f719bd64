package chains

import (
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
)

// Internals for the tests of package chains_test.

// SetCommit replaces how m commits the accept path's batches, synced or not, to make it fail.
func SetCommit(m *Manager, commit func(b *storage.Batch, synced bool) error) { m.commit = commit }

// SetStage replaces how m stages a roll-back's batch to apply after its answer, to make the
// application fail.
func SetStage(m *Manager, stage func(b *storage.Batch) (apply func() error, err error)) {
	m.stage = stage
}

// LoadPointer reads chain id's stored last-accepted pointer.
func LoadPointer(m *Manager, id ids.ID) (ids.ID, uint64, bool, error) { return m.loadPointer(id) }

var (
	LastAcceptedKey     = lastAcceptedKey
	ErrBadPointerRecord = errBadPointerRecord
	RouteBases          = routeBases
)
