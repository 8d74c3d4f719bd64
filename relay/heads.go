package relay

import (
	"context"
	"errors"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/event"
)

// headFeed is a VM that hands each accepted head to subscribers in this process (*evm.VM).
type headFeed interface {
	SubscribeHeads(ch chan<- *types.Header) event.Subscription
}

// feedClient is the Client of a chain whose VM has a head feed: the relay follows its heads
// from the feed, not through an RPC subscription, whose header JSON (with its hash) and client
// goroutines cost about 200 µs of CPU a block, right after each block's acceptance, in the way
// of a developer's next request (docs/benchmarks.md, branch rvgate). The rest goes through RPC.
type feedClient struct {
	*ethclient.Client
	feed headFeed
}

// SubscribeNewHead follows the VM's heads (followHeads).
func (c feedClient) SubscribeNewHead(_ context.Context, ch chan<- *types.Header) (ethereum.Subscription, error) {
	return followHeads(c.feed, ch), nil
}

// maxQueuedHeads bounds the heads followHeads keeps for a reader that does not take them, as
// go-ethereum's RPC client bounds a subscription's queue (20,000 notifications).
const maxQueuedHeads = 20000

// errHeadsOverflow ends a subscription whose reader left maxQueuedHeads heads untaken.
var errHeadsOverflow = errors.New("relay: too many heads not taken")

// followHeads forwards feed's heads to out, in order, until the subscription is unsubscribed.
// It queues them, as an RPC subscription does, because the feed's Send, on the VM's accept path,
// waits for every subscriber to take the head, and the relay may be waiting for a block of that
// very chain (a delivery's receipt) while its reader is busy: the feed waits only for this
// forwarder. The headers are the VM's, shared: the relay only reads them.
func followHeads(feed headFeed, out chan<- *types.Header) ethereum.Subscription {
	in := make(chan *types.Header, 16)
	sub := feed.SubscribeHeads(in)
	return event.NewSubscription(func(quit <-chan struct{}) error {
		defer sub.Unsubscribe()
		var queue []*types.Header
		for {
			var (
				send chan<- *types.Header // nil, which blocks, while the queue is empty
				next *types.Header
			)
			if len(queue) > 0 {
				send, next = out, queue[0]
			}
			select {
			case h := <-in:
				if len(queue) == maxQueuedHeads {
					return errHeadsOverflow
				}
				queue = append(queue, h)
			case send <- next:
				queue[0] = nil
				queue = queue[1:]
			case err := <-sub.Err():
				return err
			case <-quit:
				return nil
			}
		}
	})
}
