package evm

import (
	"context"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/event"
	"github.com/ethereum/go-ethereum/rpc"
)

// NewHeads is eth_subscribe("newHeads"): each accepted block's header.
func (a *ethAPI) NewHeads(ctx context.Context) (*rpc.Subscription, error) {
	return subscribe(ctx, &a.vm.feeds.heads, func(n *rpc.Notifier, id rpc.ID, h *types.Header) error {
		m, err := a.vm.marshalHeader(h)
		if err != nil {
			return err
		}
		return n.Notify(id, m)
	})
}

// NewPendingTransactions is eth_subscribe("newPendingTransactions"): the
// hash of each transaction the mempool takes.
func (a *ethAPI) NewPendingTransactions(ctx context.Context) (*rpc.Subscription, error) {
	return subscribe(ctx, &a.vm.feeds.pending, func(n *rpc.Notifier, id rpc.ID, h common.Hash) error {
		return n.Notify(id, h)
	})
}

// NewAcceptedTransactions is eth_subscribe("newAcceptedTransactions"), a
// C-Chain and Subnet-EVM extra (l1-evm.md §1.6, §8): each transaction of
// each accepted block, in block order. Its optional parameter fullTx, as
// in the reference's filter API, asks for the transaction objects of
// eth_getTransactionByHash (with their block's hash and number and their
// index) instead of the hashes.
func (a *ethAPI) NewAcceptedTransactions(ctx context.Context, fullTx *bool) (*rpc.Subscription, error) {
	full := fullTx != nil && *fullTx
	return subscribe(ctx, &a.vm.feeds.accepted, func(n *rpc.Notifier, id rpc.ID, blk *types.Block) error {
		for i, tx := range blk.Transactions() {
			var v any = tx.Hash()
			if full {
				m, err := a.vm.marshalTx(tx, blk, uint64(i))
				if err != nil {
					return err
				}
				v = m
			}
			if err := n.Notify(id, v); err != nil {
				return err
			}
		}
		return nil
	})
}

// subscribe forwards the values of f to a new subscription of the caller's
// connection until it ends.
//
// The forwarding goroutine ends with the subscription: when the client
// unsubscribes, its connection closes or the rpc server stops (Close).
func subscribe[T any](ctx context.Context, f *event.Feed, send func(*rpc.Notifier, rpc.ID, T) error) (*rpc.Subscription, error) {
	n, ok := rpc.NotifierFromContext(ctx)
	if !ok {
		return nil, rpc.ErrNotificationsUnsupported
	}
	sub := n.CreateSubscription()
	ch := make(chan T, 64)
	es := f.Subscribe(ch)
	go func() {
		defer es.Unsubscribe()
		for {
			select {
			case v := <-ch:
				if send(n, sub.ID, v) != nil {
					return
				}
			case <-sub.Err():
				return
			case <-es.Err():
				return
			}
		}
	}()
	return sub, nil
}

// syncAPI holds eth_subscribe("syncing"), which go-ethereum serves from a
// service of its own (its downloader's) because eth_syncing, a plain
// method, has the same name.
type syncAPI struct{}

// Syncing is eth_subscribe("syncing"): go-ethereum notifies when a sync
// starts and when it ends. A node with one validator never syncs, so the
// subscription carries nothing until the client ends it.
func (syncAPI) Syncing(ctx context.Context) (*rpc.Subscription, error) {
	n, ok := rpc.NotifierFromContext(ctx)
	if !ok {
		return nil, rpc.ErrNotificationsUnsupported
	}
	return n.CreateSubscription(), nil
}
