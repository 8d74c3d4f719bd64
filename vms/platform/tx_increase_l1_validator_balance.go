package platform

import "github.com/cornice-node/cornice/vms/platform/txs"

// An IncreaseL1ValidatorBalanceTx tops up an L1 validator's balance, reactivating it if it was
// inactive (§4.3, §4.4, §4.7).

func (*syntacticCheck) IncreaseL1ValidatorBalanceTx(tx *txs.IncreaseL1ValidatorBalanceTx) error {
	if tx.Balance == 0 {
		return ErrZeroBalance
	}
	return nil
}

func (x *executor) IncreaseL1ValidatorBalanceTx(tx *txs.IncreaseL1ValidatorBalanceTx) error {
	v, err := findL1Validator(x.src, tx.ValidationID)
	if err != nil {
		return err
	}
	// An inactive validator is reactivated with the new balance (§4.7), if there is room.
	if v.endFee == 0 {
		if err := x.r.checkActiveCapacity(x.src, 1); err != nil {
			return err
		}
	}
	after := *v
	if after.endFee, err = add(max(v.endFee, x.accrued), tx.Balance); err != nil {
		return err
	}
	x.eff.l1Validators, x.balances = []*l1Validator{&after}, tx.Balance
	return nil
}

// The validator is written from the effects (writer.putL1).
func (txIndexer) IncreaseL1ValidatorBalanceTx(*txs.IncreaseL1ValidatorBalanceTx) error { return nil }
