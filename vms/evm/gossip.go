package evm

import "github.com/ethereum/go-ethereum/core/types"

// Transaction gossip (package gossip): a transaction the API takes in is pushed to the node's
// peers, in its binary (EIP-2718) form, as the reference's C-Chain gossips it; one a peer pushes
// enters the mempool under the API's checks, and is not pushed on.

// SetTxGossip makes push receive every transaction the API takes in from now on.
func (vm *VM) SetTxGossip(push func(tx []byte)) { vm.push.Store(&push) }

// pushTx hands tx to the node's gossip, if any.
func (vm *VM) pushTx(tx *types.Transaction) {
	push := vm.push.Load()
	if push == nil {
		return
	}
	b, err := tx.MarshalBinary()
	if err != nil {
		return // a transaction SendTx took always encodes
	}
	(*push)(b)
}

// GossipTxs adds the transactions a peer pushed to the mempool, each under the same checks as
// eth_sendRawTransaction's, and returns how many it added; one already known, or invalid, is
// skipped. None is pushed on: only the node a transaction was issued to pushes it.
func (vm *VM) GossipTxs(txs [][]byte) int {
	added := 0
	for _, b := range txs {
		tx, err := decodeRawTx(b)
		if err != nil {
			continue
		}
		if vm.SendTx(tx) == nil {
			added++
		}
	}
	return added
}
