package platform

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
)

// acceptingChain is a tx's state and mempool that accept its block right after the first of
// them is read: its commit is published, then the tx leaves the mempool, as VM.Accepted orders
// them.
type acceptingChain struct {
	committed, pooled bool
	reads             int
}

func (c *acceptingChain) read() {
	c.reads++
	if c.reads == 1 {
		c.committed = true
		c.pooled = false
	}
}

func (c *acceptingChain) HasTx(ids.ID) (bool, error) {
	ok := c.committed
	c.read()
	return ok, nil
}

func (c *acceptingChain) aborted(ids.ID) (bool, error) { return false, nil }

func (c *acceptingChain) pending(ids.ID) bool {
	ok := c.pooled
	c.read()
	return ok
}

// A pending tx whose block is accepted while getTxStatus answers is "Processing" or "Committed",
// never "Unknown": the mempool is read before the state, and a tx leaves the mempool only once
// its commit is published.
func TestTxStatusAcceptedBetweenReads(t *testing.T) {
	t.Parallel()
	c := &acceptingChain{pooled: true}
	status, err := txStatus(c, c.pending, ids.ID{1})
	require.NoError(t, err)
	require.Equal(t, statusCommitted, status)

	// Accepted before the call: committed, whichever read comes first.
	c = &acceptingChain{committed: true, reads: 1}
	status, err = txStatus(c, c.pending, ids.ID{1})
	require.NoError(t, err)
	require.Equal(t, statusCommitted, status)

	// Never issued.
	c = &acceptingChain{reads: 1}
	status, err = txStatus(c, c.pending, ids.ID{1})
	require.NoError(t, err)
	require.Equal(t, statusUnknown, status)
}
