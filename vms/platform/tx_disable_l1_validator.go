package platform

import (
	"fmt"

	"github.com/cornice-node/cornice/vms/components/utxo"
	"github.com/cornice-node/cornice/vms/platform/txs"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// A DisableL1ValidatorTx deactivates an L1 validator its deactivation owner authorizes and refunds
// its remaining balance (§4.3, §4.4).

func (c *syntacticCheck) DisableL1ValidatorTx(tx *txs.DisableL1ValidatorTx) error {
	if err := tx.DisableAuth.Verify(); err != nil {
		return fmt.Errorf("disable authorization: %w", err)
	}
	c.auths = 1
	return nil
}

func (x *executor) DisableL1ValidatorTx(tx *txs.DisableL1ValidatorTx) error {
	v, err := findL1Validator(x.src, tx.ValidationID)
	if err != nil {
		return err
	}
	owner := secp256k1fx.OutputOwners{Threshold: v.deactivationOwner.Threshold, Addrs: v.deactivationOwner.Addresses}
	if err := utxo.VerifyAuth(x.r.signers, &tx.DisableAuth, &owner, x.tx, len(x.tx.Creds())-1, x.now); err != nil {
		return fmt.Errorf("%w: %w", ErrUnauthorizedL1ValidatorModification, err)
	}
	after := *v
	after.endFee = 0
	x.eff.l1Validators, x.refund, x.refundOwner = []*l1Validator{&after}, v.remaining(x.accrued), &v.remainingBalanceOwner
	return nil
}

// The validator is written from the effects (writer.putL1).
func (txIndexer) DisableL1ValidatorTx(*txs.DisableL1ValidatorTx) error { return nil }
