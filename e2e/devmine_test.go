package e2e_test

import (
	"context"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/index"
)

// TestDevMineKill: the blocks of one anvil_mine, all but its last, are accepted without waiting
// for the disk (docs/decisions.md, "A batch mine syncs once"). The node is killed with SIGKILL
// in the middle of a long one; after the restart the C-Chain is whole up to its head (each block
// the child of the one below, nothing above it), its index ends at the same block, and it mines
// on. The answer of a whole anvil_mine, given after its last block's sync, survives a kill too.
func TestDevMineKill(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	c := startL1KillChild(t, dir)
	e := dialChild(t, c)
	var null any
	e.call(t, &null, "anvil_mine", hexutil.Uint64(50))
	answered := e.height(t)

	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() {
		defer close(done)
		// Killed halfway: its error is expected.
		_ = e.rpc.CallContext(ctx, &null, "anvil_mine", hexutil.Uint64(1_000_000))
	}()
	var seen uint64
	require.Eventually(t, func() bool {
		seen = e.height(t)
		return seen > answered+300
	}, acceptWait, time.Millisecond)
	c.kill()
	cancel()
	<-done

	c = startL1KillChild(t, dir)
	e = dialChild(t, c)
	head := e.height(t)
	require.GreaterOrEqual(t, head, answered, "the blocks of an answered anvil_mine survive")
	t.Logf("anvil_mine answered at height %d, killed past height %d, restarted at height %d", answered, seen, head)
	requireWhole(t, e, head, answered)

	e.call(t, &null, "evm_mine")
	e.call(t, &null, "anvil_mine", hexutil.Uint64(5))
	require.Equal(t, head+6, e.height(t))
	requireWhole(t, e, head+6, head)
	c.stop(t)
}

// requireWhole checks that the C-Chain's head is at height head, that the blocks from height
// from up to it each name the one below as parent, that nothing is above it, and that the
// block index ends at the head (genesis is not indexed).
func requireWhole(t *testing.T, e devEndpoint, head, from uint64) {
	t.Helper()
	type header struct {
		Hash       common.Hash `json:"hash"`
		ParentHash common.Hash `json:"parentHash"`
	}
	var below *header
	for n := from; n <= head; n++ {
		if n > from+20 && n+20 < head && n%97 != 0 {
			below = nil
			continue // the first and last twenty and a sample between
		}
		var h *header
		e.call(t, &h, "eth_getBlockByNumber", hexutil.Uint64(n), false)
		require.NotNil(t, h, "block %d", n)
		if below != nil {
			require.Equal(t, below.Hash, h.ParentHash, "block %d", n)
		}
		below = h
	}
	var above map[string]any
	e.call(t, &above, "eth_getBlockByNumber", hexutil.Uint64(head+1), false)
	require.Nil(t, above)

	var last struct {
		ID    ids.ID `json:"id"`
		Index string `json:"index"`
	}
	require.Empty(t, e.index(t, "getLastAccepted", map[string]any{"encoding": "hex"}, &last))
	require.Equal(t, ids.ID(below.Hash), last.ID)
	require.Equal(t, uint64String(head-1), last.Index)
	var ct index.Container
	require.Equal(t, "no container at index "+uint64String(head), e.index(t, "getContainerByIndex", map[string]any{"index": head, "encoding": "hex"}, &ct))
}
