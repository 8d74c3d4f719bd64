package node

import (
	"log/slog"

	"github.com/cornice-node/cornice/gossip"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/router"
)

// Transaction gossip among validators (package gossip): each chain whose VM gossips transactions
// pushes those its API takes in to the chain's connected validators, batched, and takes those
// its peers push into its mempool.

// txGossiper is a VM that gossips its mempool's transactions (*evm.VM).
type txGossiper interface {
	// SetTxGossip makes push receive each transaction the VM's API takes in.
	SetTxGossip(push func(tx []byte))
	// GossipTxs adds the transactions a peer pushed to the mempool, without pushing them on.
	GossipTxs(txs [][]byte) int
}

// startTxGossip makes chain id's VM push what its API takes in, when the node runs among peers.
func (n *Node) startTxGossip(id ids.ID) {
	if !n.networked || n.router == nil {
		return
	}
	vm, ok := n.manager.VM(id)
	if !ok {
		return
	}
	g, ok := vm.(txGossiper)
	if !ok {
		return
	}
	g.SetTxGossip(n.txPusher(id).Push)
}

// txPusher returns a new pusher of chain id's transactions to its validators, which close
// closes (closeTxGossip) before the router it sends through.
func (n *Node) txPusher(id ids.ID) *gossip.Pusher {
	r := n.router
	p := gossip.NewPusher(func(b []byte) { r.AppGossip(id, b) }, 0, 0)
	n.pushersMu.Lock()
	defer n.pushersMu.Unlock()
	n.txPushers = append(n.txPushers, p)
	return p
}

// closeTxGossip closes every pusher: what they hold is dropped, a batch being sent is waited
// for, and they send nothing more.
func (n *Node) closeTxGossip() {
	n.pushersMu.Lock()
	pushers := n.txPushers
	n.txPushers = nil
	n.pushersMu.Unlock()
	for _, p := range pushers {
		p.Close()
	}
}

// gossipApp is a chain's app handler that also takes its peers' transaction gossip.
type gossipApp struct {
	router.AppHandler
	vm  txGossiper
	log *slog.Logger
}

var _ router.GossipHandler = gossipApp{}

// AppGossip implements router.GossipHandler: a PushGossip of handler 0 goes to the chain's
// mempool; anything else is dropped, as the reference's SDK drops gossip for a handler it does
// not run.
func (g gossipApp) AppGossip(from ids.NodeID, appBytes []byte) {
	id, txs, err := gossip.Decode(appBytes)
	if err != nil || id != gossip.TxHandlerID {
		g.log.Debug("app gossip dropped", "nodeID", from.String(), "handler", id, "err", err)
		return
	}
	g.vm.GossipTxs(txs)
}
