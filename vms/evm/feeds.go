package evm

import (
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/event"
)

// feeds carries the events the websocket subscriptions and the installed
// filters follow: accepted heads with their logs and transactions, and
// transactions entering the mempool.
type feeds struct {
	heads event.Feed // *types.Header
	logs  event.Feed // []*types.Log
	// accepted carries each accepted block that holds transactions
	// (*types.Block, shared, never modified), for newAcceptedTransactions.
	accepted event.Feed
	pending  event.Feed // common.Hash
	// filters are the installed filters; set once by newRPCServer, before
	// the VM is returned, so before any event.
	filters *filterSystem
}

func newFeeds() *feeds { return &feeds{} }

// sendHead announces the accepted block blk, whose header (shared, never
// modified) is header, and its receipts' logs.
func (f *feeds) sendHead(blk *types.Block, header *types.Header, receipts types.Receipts) {
	var logs []*types.Log
	for _, r := range receipts {
		logs = append(logs, r.Logs...)
	}
	if f.filters != nil {
		f.filters.onHead(blk.Hash(), blk.NumberU64(), logs)
	}
	f.heads.Send(header)
	if len(blk.Transactions()) > 0 {
		f.accepted.Send(blk)
	}
	if len(logs) > 0 {
		f.logs.Send(logs)
	}
}

func (f *feeds) sendPending(h common.Hash) {
	if f.filters != nil {
		f.filters.onPending(h)
	}
	f.pending.Send(h)
}

// close is a no-op: event.Feed subscriptions end when their subscribers
// unsubscribe, which the rpc server does as it stops, and the filters need
// no goroutine.
func (f *feeds) close() {}
