package evm

import (
	"github.com/ethereum/go-ethereum/core/types"

	txgossip "github.com/cornice-node/cornice/vms/internal/mempool"
)

// Transaction gossip (package gossip): a transaction the API takes in is pushed to the node's
// peers, in its binary (EIP-2718) form, as the reference's C-Chain gossips it; one a peer pushes
// enters the mempool under the API's checks, and is not pushed on.

// SetTxGossip makes push receive every transaction the API takes in from now on.
func (vm *VM) SetTxGossip(push func(tx []byte)) { vm.push.Set(push) }

// pushTx hands tx to the node's gossip, if any (a lone node has none, and encodes nothing).
func (vm *VM) pushTx(tx *types.Transaction) {
	if !vm.push.On() {
		return
	}
	b, err := tx.MarshalBinary()
	if err != nil {
		return // a transaction SendTx took always encodes
	}
	vm.push.Push(b)
}

// GossipTxs adds the transactions a peer pushed to the mempool, each under the same checks as
// eth_sendRawTransaction's, and returns how many it added.
func (vm *VM) GossipTxs(txs [][]byte) int { return txgossip.AddGossiped(txs, decodeRawTx, vm.SendTx) }
