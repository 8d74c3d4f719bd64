package platform

import (
	"fmt"

	"github.com/cornice-node/cornice/vms/platform/txs"
	"github.com/cornice-node/cornice/warp/acp77"
)

// A SetL1ValidatorWeightTx changes an L1 validator's weight, or removes it with weight 0, on the
// strength of an L1ValidatorWeight message its L1's manager sent (§4.3, §4.4; the signature is
// checked by verifyWarp before the tx executes).

// The message is parsed when the tx executes, as in the reference.
func (*syntacticCheck) SetL1ValidatorWeightTx(*txs.SetL1ValidatorWeightTx) error { return nil }

func (x *executor) SetL1ValidatorWeightTx(tx *txs.SetL1ValidatorWeightTx) error {
	m, err := parseL1Message(tx.Message)
	if err != nil {
		return err
	}
	msg, err := acp77.ParseL1ValidatorWeight(m.call.Payload)
	if err != nil {
		return err
	}
	if err := msg.Verify(); err != nil {
		return err
	}
	v, found, err := x.src.l1Validator(msg.ValidationID)
	switch {
	case err != nil:
		return err
	case !found:
		return fmt.Errorf("%w: %w", ErrCouldNotLoadL1Validator, errNotFound)
	case msg.Nonce < v.minNonce:
		return fmt.Errorf("%w %d must be at least %d", ErrWarpMessageContainsStaleNonce, msg.Nonce, v.minNonce)
	}
	if err := verifyL1Conversion(x.src, v.subnetID, m); err != nil {
		return err
	}
	after := *v
	if msg.Weight == 0 {
		if err := x.remove(v); err != nil {
			return err
		}
		after.endFee = 0
	}
	// With weight 0 the nonce may wrap; the validator is gone then and its nonce no longer
	// matters. Otherwise Verify keeps the nonce below 2⁶⁴−1.
	after.minNonce, after.weight = msg.Nonce+1, msg.Weight
	x.eff.l1Validators = []*l1Validator{&after}
	return nil
}

// remove checks that v is not its L1's last validator (by weight, inactive ones included) and
// refunds an active v's remaining balance to its owner (§4.4).
func (x *executor) remove(v *l1Validator) error {
	vals, err := x.src.subnetL1Validators(v.subnetID)
	if err != nil {
		return fmt.Errorf("could not load L1 validator weights: %w", err)
	}
	var total uint64
	for _, o := range vals {
		if total, err = add(total, o.weight); err != nil {
			return err
		}
	}
	if total == v.weight {
		return ErrRemovingLastValidator
	}
	if v.endFee == 0 {
		return nil
	}
	if v.endFee <= x.accrued {
		// Unreachable: such a validator was deactivated when time advanced. Refusing keeps a
		// corrupt state from minting a refund.
		return fmt.Errorf("%w: validator should have already been disabled", ErrStateCorruption)
	}
	x.refund, x.refundOwner = v.endFee-x.accrued, &v.remainingBalanceOwner
	return nil
}

// The validator is written from the effects (writer.putL1).
func (txIndexer) SetL1ValidatorWeightTx(*txs.SetL1ValidatorWeightTx) error { return nil }
