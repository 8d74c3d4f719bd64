package exchange

import (
	"github.com/cornice-node/cornice/chains/atomic"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/exchange/txs"
)

// atomicOps collects what a block's txs do to shared memory, per peer chain: each kind's case
// (tx_*.go) adds its imports and exports. Block.Accept applies them in the block's batch.
type atomicOps struct {
	// txID is the ID of the tx being visited.
	txID     ids.ID
	requests map[ids.ID]*atomic.Requests
}

var _ txs.Visitor = (*atomicOps)(nil)

// peer returns the requests to chain id, made on first use.
func (o *atomicOps) peer(id ids.ID) *atomic.Requests {
	if o.requests == nil {
		o.requests = make(map[ids.ID]*atomic.Requests, 1)
	}
	req, ok := o.requests[id]
	if !ok {
		req = &atomic.Requests{}
		o.requests[id] = req
	}
	return req
}

// atomicRequests returns what txs do to shared memory, nil for nothing.
func atomicRequests(txList []*txs.Tx) (map[ids.ID]*atomic.Requests, error) {
	ops := &atomicOps{}
	for _, tx := range txList {
		ops.txID = tx.ID()
		if err := tx.Unsigned().Visit(ops); err != nil {
			return nil, err
		}
	}
	return ops.requests, nil
}
