package evm

import (
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/holiman/uint256"

	"github.com/cornice-node/cornice/vms/evm/l1params"
)

// txMaxSize is the largest transaction the mempool takes
// (go-ethereum's txpool limit: 4 slots of 32 KiB).
const txMaxSize = 4 * 32 * 1024

// SendTx validates tx against the last accepted state and the next block's
// gas limit and base fee, as go-ethereum's txpool does, and adds it to the
// mempool. The errors carry go-ethereum's texts (errors.go). On an L1 whose
// transaction allow list is in force, a sender without a role in it is
// refused with Subnet-EVM's text (l1-evm.md §5.3).
func (vm *VM) SendTx(tx *types.Transaction) error {
	headBlk, head := vm.currentHeadAndHeader()
	r, err := vm.childRulesOf(headBlk)
	if err != nil {
		return err
	}
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
	if tx.Gas() > r.gasLimit {
		return gasLimitError(tx.Gas(), r.gasLimit)
	}
	if tx.GasFeeCap().Cmp(tx.GasTipCap()) < 0 {
		return tipAboveFeeCapError(from, tx.GasTipCap(), tx.GasFeeCap())
	}
	rules := vm.chainCfg.Rules(new(big.Int).Add(head.Number, common.Big1), true, head.Time)
	need, err := core.IntrinsicGas(tx.Data(), tx.AccessList(), nil, from, tx.To(), uint256.MustFromBig(tx.Value()), rules)
	if err != nil {
		return err
	}
	if _, ok := vm.warpConfigAt(head.Time); ok {
		// Warp predicates count in the intrinsic gas, and one that is not a warp message
		// makes the transaction invalid (l1-evm.md §5.7).
		p, err := warpPredicatesOf(tx, vm.graniteAt(head.Time))
		if err != nil {
			return err
		}
		if len(p.keys) > 0 {
			if need, _, err = predicateIntrinsic(tx.Data(), tx.AccessList(), nil, from, tx.To(), uint256.MustFromBig(tx.Value()), rules, p); err != nil {
				return err
			}
		}
	}
	if tx.Gas() < need {
		return intrinsicGasError(tx.Gas(), need)
	}
	if baseFee := vm.nextBaseFeeWith(r, head); tx.GasFeeCap().Cmp(baseFee) < 0 {
		return feeCapTooLowError(from, tx.GasFeeCap(), baseFee)
	}
	st, err := vm.stateOfBlock(headBlk)
	if err != nil {
		return err
	}
	if vm.l1 != nil && vm.l1.IsPrecompileEnabled(l1params.TxAllowListAddress, head.Time) {
		if err := r.checkTxAllowed(st, from); err != nil {
			return err
		}
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
func (vm *VM) nextBaseFee(head *types.Block) *big.Int {
	r, err := vm.childRulesOf(head)
	if err != nil {
		// Only a corrupt head (or a fee config no block can follow) has
		// no rules: fall back to the chain's minimum.
		return new(big.Int).Set(vm.cfg.Fees.MinBaseFee)
	}
	return vm.nextBaseFeeWith(r, head.Header())
}

// nextBaseFeeWith is nextBaseFee with head's children's rules r.
func (vm *VM) nextBaseFeeWith(r *childRules, head *types.Header) *big.Int {
	if vm.dev != nil {
		if fee := vm.dev.nextBaseFee(); fee != nil {
			return fee
		}
	}
	f, err := vm.childFees(head, r, max(vm.now(), head.Time))
	if err != nil {
		// Only a corrupt head has no window: fall back to the minimum.
		return new(big.Int).Set(r.fees.MinBaseFee)
	}
	return f.baseFee
}
