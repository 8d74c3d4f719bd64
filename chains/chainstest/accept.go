package chainstest

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/storage"
)

// VerifyAccept verifies blk and accepts it on vm as the accept path does: Accept into one batch
// of db's, the commit, then Accepted. It is for the tests of a real VM that drive it without a
// manager.
func VerifyAccept(t testing.TB, vm interface {
	Accepted(context.Context, chains.Block) error
}, db *storage.DB, blk chains.Block) {
	t.Helper()
	ctx := t.Context()
	require.NoError(t, blk.Verify(ctx))
	batch := db.NewBatch()
	defer batch.Close()
	require.NoError(t, blk.Accept(ctx, batch))
	require.NoError(t, batch.Commit())
	require.NoError(t, vm.Accepted(ctx, blk))
}
