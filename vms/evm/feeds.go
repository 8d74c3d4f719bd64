package evm

import (
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/event"
)

// feeds carries the events the websocket subscriptions follow: accepted
// heads with their logs, and transactions entering the mempool.
type feeds struct {
	heads   event.Feed // *types.Header
	logs    event.Feed // []*types.Log
	pending event.Feed // common.Hash
}

func newFeeds() *feeds { return &feeds{} }

func (f *feeds) sendHead(blk *types.Block, receipts types.Receipts) {
	f.heads.Send(blk.Header())
	var logs []*types.Log
	for _, r := range receipts {
		logs = append(logs, r.Logs...)
	}
	if len(logs) > 0 {
		f.logs.Send(logs)
	}
}

func (f *feeds) sendPending(h common.Hash) { f.pending.Send(h) }

// close is a no-op: event.Feed subscriptions end when their subscribers
// unsubscribe, which the rpc server does as it stops.
func (f *feeds) close() {}
