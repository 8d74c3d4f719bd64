package platform

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/internal/mempool"
)

// TestIssueError pins issueTx's texts: a failed verification behind the reference's prefix, a
// conflict with a pending tx as the reference's mempool words it, without that prefix.
func TestIssueError(t *testing.T) {
	t.Parallel()
	id := ids.ID{1}
	require.EqualError(t, issueError(fmt.Errorf("%w: %s", mempool.ErrConflictsWithOtherTx, id)),
		"couldn't issue tx: tx conflicts with other tx: "+id.String())
	require.EqualError(t, issueError(mempool.ErrDuplicateTx), "couldn't issue tx: failed verification: duplicate tx")
}
