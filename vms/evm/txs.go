package evm

import (
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/holiman/uint256"
)

// txMaxSize is the largest transaction the mempool takes
// (go-ethereum's txpool limit: 4 slots of 32 KiB).
const txMaxSize = 4 * 32 * 1024

// SendTx validates tx against the last accepted state and the next block's
// base fee, as go-ethereum's txpool does, and adds it to the mempool. The
// errors carry go-ethereum's texts (errors.go).
func (vm *VM) SendTx(tx *types.Transaction) error {
	head := vm.currentHeader()
	switch tx.Type() {
	case types.LegacyTxType, types.AccessListTxType, types.DynamicFeeTxType:
	default:
		// Blob transactions need a blob pool and SetCode transactions
		// Prague; neither is on this chain.
		return txTypeError(tx.Type())
	}
	if size := tx.Size(); size > txMaxSize {
		return oversizedError(size, txMaxSize)
	}
	from, err := types.Sender(vm.signer, tx)
	if err != nil {
		return invalidSenderError(err)
	}
	if tx.Gas() > vm.cfg.Fees.GasLimit {
		return gasLimitError(tx.Gas(), vm.cfg.Fees.GasLimit)
	}
	if tx.GasFeeCap().Cmp(tx.GasTipCap()) < 0 {
		return tipAboveFeeCapError(from, tx.GasTipCap(), tx.GasFeeCap())
	}
	rules := vm.chainCfg.Rules(new(big.Int).Add(head.Number, common.Big1), true, head.Time)
	need, err := core.IntrinsicGas(tx.Data(), tx.AccessList(), nil, from, tx.To(), uint256.MustFromBig(tx.Value()), rules)
	if err != nil {
		return err
	}
	if tx.Gas() < need {
		return intrinsicGasError(tx.Gas(), need)
	}
	if baseFee := vm.nextBaseFee(head); tx.GasFeeCap().Cmp(baseFee) < 0 {
		return feeCapTooLowError(from, tx.GasFeeCap(), baseFee)
	}
	st, err := vm.stateAt(head.Root)
	if err != nil {
		return err
	}
	if nonce := st.GetNonce(from); tx.Nonce() < nonce {
		return nonceTooLowError(from, tx.Nonce(), nonce)
	}
	if balance, cost := st.GetBalance(from).ToBig(), tx.Cost(); balance.Cmp(cost) < 0 {
		return insufficientFundsError(balance, cost)
	}
	if err := vm.pool.add(tx, from); err != nil {
		return err
	}
	vm.feeds.sendPending(tx.Hash())
	vm.signal()
	return nil
}

// nextBaseFee is the base fee a block built now on head would have.
func (vm *VM) nextBaseFee(head *types.Header) *big.Int {
	fee, _, err := NextBaseFee(vm.cfg.Fees, head, max(vm.now(), head.Time))
	if err != nil {
		// Only a corrupt head has no window: fall back to the minimum.
		return new(big.Int).Set(vm.cfg.Fees.MinBaseFee)
	}
	return fee
}
