package node

import (
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/network/wire"
	"github.com/cornice-node/cornice/router"
)

// recordingNetwork records what the router sends.
type recordingNetwork struct {
	mu   sync.Mutex
	sent []wire.Op
}

func (r *recordingNetwork) Send(_ ids.NodeID, m *wire.Message) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sent = append(r.sent, m.Op)
	return true
}

func (r *recordingNetwork) ops() []wire.Op {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]wire.Op(nil), r.sent...)
}

// close closes the chains' gossip pushers before the router: a transaction queued just before
// shutdown is dropped, where its batch's interval used to end after the router closed and
// gossip through it. Time is virtual (synctest).
func TestCloseStopsTxGossip(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		net := &recordingNetwork{}
		r, err := router.New(router.Config{NodeID: ids.NodeID{1}}, router.Deps{Network: net})
		require.NoError(t, err)
		r.Connected(ids.NodeID{2})
		n := &Node{router: r}
		p := n.txPusher(ids.ID{0xc})

		p.Push([]byte("tx 1"))
		time.Sleep(time.Second)
		require.Equal(t, []wire.Op{wire.OpAppGossip}, net.ops(), "gossiped when its interval ends")

		p.Push([]byte("tx 2"))
		require.NoError(t, n.close())
		time.Sleep(time.Second)
		synctest.Wait()
		require.Equal(t, []wire.Op{wire.OpAppGossip}, net.ops(), "nothing gossiped after close")
	})
}
