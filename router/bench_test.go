package router

import (
	"context"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/network/wire"
)

// The failure rate halves its memory every half-life: two timeouts in a row make it 2/3 (sum 2
// over weight 3), an answer a half-life later brings it to (0 + 2/2) / (1 + 3/2) = 0.4.
func TestFailureRate(t *testing.T) {
	t.Parallel()
	now := time.Unix(1_700_000_000, 0)
	f := newFailureRate(now)
	require.Zero(t, f.value())
	f.observe(1, now)
	require.InDelta(t, 0.5, f.value(), 1e-12, "one timeout alone never benches")
	f.observe(1, now)
	require.InDelta(t, 2.0/3, f.value(), 1e-12)
	f.observe(0, now.Add(benchHalfLife))
	require.InDelta(t, 0.4, f.value(), 1e-12)
}

// peerChain registers chain with r, as a chain that hears of connections, and connects peer.
func peerChain(t *testing.T, r *Router) (connChain, *Sender) {
	t.Helper()
	c := connChain{testChain: newTestChain(t, 10, false), news: make(chan string, 10)}
	s, err := r.Register(chain, c)
	require.NoError(t, err)
	r.Connected(peer)
	require.Equal(t, "connected "+peer.String(), <-c.news)
	return c, s
}

// A peer whose requests time out is benched on that chain (network-consensus-warp.md §1.9): the
// chain hears it disconnected, its requests are still sent but fail at once, info.peers' benched
// lists the chain, and a reconnection does not reach the chain until the bench ends; then the chain
// hears it connected again.
func TestBenchlist(t *testing.T) {
	t.Parallel()
	r, net, _ := newRouter(t, 20*time.Millisecond)
	c, s := peerChain(t, r)
	ctx := context.Background()

	s.SendGet(ctx, peer, 1, ids.ID{1})
	require.Equal(t, "GetFailed "+peer.String()+" 1", c.next(t))
	require.Empty(t, r.Benched(peer), "one timeout does not bench")
	s.SendGet(ctx, peer, 2, ids.ID{1})
	require.Equal(t, "GetFailed "+peer.String()+" 2", c.next(t))
	require.Equal(t, "disconnected "+peer.String(), <-c.news)
	require.Equal(t, []ids.ID{chain}, r.Benched(peer))
	require.Equal(t, 1.0, testutil.ToFloat64(r.metrics.benched))

	// Still sent, failed at once: no timeout is counted for it.
	s.SendGet(ctx, peer, 3, ids.ID{1})
	require.Equal(t, "GetFailed "+peer.String()+" 3", c.next(t))
	require.Len(t, net.all(), 3)
	require.Equal(t, 1.0, testutil.ToFloat64(r.metrics.benched), "benched once")

	// Leaving and coming back while benched: the chain was told already, and hears nothing.
	r.Disconnected(peer)
	r.Connected(peer)
	require.Empty(t, c.news)

	// The bench runs out (its timer, made to fire now): the chain hears the peer connected.
	r.bench.mu.Lock()
	timer := r.bench.chains[chain][peer].unbench
	r.bench.mu.Unlock()
	timer.Reset(0)
	require.Equal(t, "connected "+peer.String(), <-c.news)
	require.Empty(t, r.Benched(peer))
}

// A benched peer's answers to the requests sent to it while benched are counted, though the chain
// had their failures at once: once its failure rate falls below 0.2 it is unbenched, long before
// its bench runs out, and the chain hears it connected. Time is virtual (synctest), so the rate
// moves only by the outcomes.
func TestBenchlistAnswersUnbench(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		r, net, _ := newRouter(t, time.Second)
		c, s := peerChain(t, r)
		ctx := context.Background()
		for id := range uint32(2) {
			s.SendGet(ctx, peer, id, ids.ID{1})
			require.Equal(t, fmt.Sprint("GetFailed ", peer, " ", id), c.next(t))
		}
		require.Equal(t, "disconnected "+peer.String(), <-c.news)
		require.Equal(t, []ids.ID{chain}, r.Benched(peer))

		// A timeout of a request sent while benched counts too: the rate stays above 0.2.
		s.SendGet(ctx, peer, 2, ids.ID{1})
		require.Equal(t, fmt.Sprint("GetFailed ", peer, " 2"), c.next(t))
		time.Sleep(2 * time.Second)
		// Three timeouts a second apart, the last a second ago, make the rate about 0.75 (each
		// halving in a minute): eleven answers bring it below 0.2.
		answered := 0
		for id := uint32(3); len(r.Benched(peer)) > 0 && id < 30; id++ {
			s.SendGet(ctx, peer, id, ids.ID{1})
			require.Equal(t, fmt.Sprint("GetFailed ", peer, " ", id), c.next(t), "failed at once")
			r.HandleInbound(peer, inbound(wire.OpPut, wire.Chain{RequestID: id, Container: []byte("blk")}))
			answered++
		}
		require.Empty(t, r.Benched(peer), "unbenched by its answers")
		require.Equal(t, 11, answered)
		require.Equal(t, "connected "+peer.String(), <-c.news)
		require.Len(t, net.all(), 2+1+answered, "every request was sent")
		synctest.Wait()
		require.Empty(t, c.calls, "the answers do not reach the chain, which had the failures")
		require.Zero(t, testutil.ToFloat64(r.metrics.dropped.WithLabelValues(reasonUnrequested)))
	})
}

// With validator weights, only a chain's validators are benched, and never more than
// (1 − αc/K)/3 of its weight at once.
func TestBenchlistWeights(t *testing.T) {
	t.Parallel()
	small, big, nonValidator := ids.NodeID{3}, ids.NodeID{4}, ids.NodeID{5}
	weights := map[ids.NodeID]uint64{self: 75, small: 8, big: 17}
	r, err := New(Config{NodeID: self, Timeout: 10 * time.Millisecond}, Deps{Network: &fakeNetwork{down: map[ids.NodeID]bool{}},
		Weights: func(chainID ids.ID, nodeID ids.NodeID) (uint64, uint64) {
			require.Equal(t, chain, chainID)
			return weights[nodeID], 100
		}})
	require.NoError(t, err)
	t.Cleanup(r.Close)
	c := newTestChain(t, 10, false)
	s, err := r.Register(chain, c)
	require.NoError(t, err)
	for _, nodeID := range []ids.NodeID{small, big, nonValidator} {
		for id := range uint32(3) {
			s.SendGet(context.Background(), nodeID, id, ids.ID{1})
			require.Equal(t, "GetFailed "+nodeID.String()+" "+string(rune('0'+id)), c.next(t))
		}
	}
	require.Equal(t, []ids.ID{chain}, r.Benched(small), "8 of 100 is within 8.33 %")
	require.Empty(t, r.Benched(big), "17 of 100 is above the cap")
	require.Empty(t, r.Benched(nonValidator), "not a validator")
}
