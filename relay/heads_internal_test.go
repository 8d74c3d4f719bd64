package relay

import (
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/event"
	"github.com/stretchr/testify/require"
)

// feed is a headFeed over an event.Feed, as the VM's.
type feed struct{ event.Feed }

func (f *feed) SubscribeHeads(ch chan<- *types.Header) event.Subscription { return f.Subscribe(ch) }

// followHeads never makes the feed's Send (the VM's accept path) wait for its reader: heads sent
// while nobody reads arrive later, in order; unsubscribing leaves the feed without subscribers.
func TestFollowHeads(t *testing.T) {
	t.Parallel()
	var f feed
	out := make(chan *types.Header)
	sub := followHeads(&f, out)
	for i := range 100 {
		require.Equal(t, 1, f.Send(&types.Header{Number: big.NewInt(int64(i))}))
	}
	for i := range 100 {
		h := <-out
		require.Equal(t, int64(i), h.Number.Int64())
	}
	sub.Unsubscribe()
	_, open := <-sub.Err()
	require.False(t, open)
	require.Zero(t, f.Send(&types.Header{Number: big.NewInt(100)}), "no subscriber left")
}

// A reader that leaves maxQueuedHeads heads untaken ends the subscription with an error, as an
// RPC subscription whose queue overflows does.
func TestFollowHeadsOverflow(t *testing.T) {
	t.Parallel()
	var f feed
	sub := followHeads(&f, make(chan *types.Header))
	defer sub.Unsubscribe()
	for range maxQueuedHeads + 1 {
		f.Send(&types.Header{})
	}
	require.ErrorIs(t, <-sub.Err(), errHeadsOverflow)
}
