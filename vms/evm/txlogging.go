package evm

import "github.com/ethereum/go-ethereum/core/types"

// sendAndLog is SendTx for a transaction issued through the API (eth_sendRawTransaction and its
// Sync form): it pushes the transaction to the node's peers (gossip.go) and logs the transaction's hash, sender and outcome at info (vm.issued).
func (vm *VM) sendAndLog(tx *types.Transaction) error {
	err := vm.SendTx(tx)
	if err == nil {
		vm.pushTx(tx)
	}
	if vm.dev != nil && !vm.dev.logging.Load() {
		return err // anvil_setLoggingEnabled(false)
	}
	vm.issued.Issued(tx.Hash().Hex(), func() string {
		// SendTx recovered the sender already; go-ethereum caches it in tx.
		from, serr := types.Sender(vm.signer, tx)
		if serr != nil {
			return "unknown"
		}
		return from.Hex()
	}, err)
	return err
}
