package utxovmtest

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains/atomic"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
)

// Export puts into the node's shared memory (in db) a UTXO that chain from exported to chain to,
// as from's accepted ExportTx would: its ID, its bytes, indexed by its owner. It commits in a
// batch of its own.
func Export(t testing.TB, db *storage.DB, from, to, utxoID ids.ID, utxoBytes []byte, owner ids.ShortID) {
	t.Helper()
	b := db.NewBatch()
	defer b.Close()
	require.NoError(t, atomic.New(db.Prefixed(storage.PrefixAtomic)).For(from).Apply(b, map[ids.ID]*atomic.Requests{
		to: {Put: []atomic.Element{{Key: utxoID, Value: utxoBytes, Traits: []ids.ShortID{owner}}}},
	}))
	require.NoError(t, b.Commit())
}
