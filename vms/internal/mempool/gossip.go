package mempool

import "sync/atomic"

// Gossip is where a VM pushes the txs its API takes in, when its node runs among peers
// (package gossip); the zero value pushes nowhere. It is safe for concurrent use.
type Gossip struct {
	push atomic.Pointer[func(tx []byte)]
}

// Set makes push receive every tx Push is given from now on.
func (g *Gossip) Set(push func(tx []byte)) { g.push.Store(&push) }

// On reports whether pushed txs go anywhere: a VM need not encode a tx for a lone node.
func (g *Gossip) On() bool { return g.push.Load() != nil }

// Push hands tx, a tx's bytes, to the node's gossip, if any.
func (g *Gossip) Push(tx []byte) {
	if p := g.push.Load(); p != nil {
		(*p)(tx)
	}
}

// AddGossiped parses and issues each of the txs a peer pushed, as the VM's API would, and
// returns how many it added; one that does not parse, is known already or is invalid is skipped.
// Issuing a pushed tx never pushes it on: only the node a tx was issued to pushes it.
func AddGossiped[T any](txs [][]byte, parse func([]byte) (T, error), issue func(T) error) int {
	added := 0
	for _, b := range txs {
		tx, err := parse(b)
		if err != nil {
			continue
		}
		if issue(tx) == nil {
			added++
		}
	}
	return added
}
