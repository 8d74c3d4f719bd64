package platform

import (
	"fmt"

	"github.com/cornice-node/cornice/crypto/bls"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/platform/txs"
	"github.com/cornice-node/cornice/warp/acp77"
)

// A RegisterL1ValidatorTx adds an L1 validator on the strength of a RegisterL1Validator message
// its L1's manager sent and the L1's validators signed (§4.3, §4.4; the signature is checked by
// verifyWarp before the tx executes).

// RegisterL1ValidatorTxExpiryWindow is how far past the chain time a registration message may
// expire, in seconds: 24 hours (§4.4).
const RegisterL1ValidatorTxExpiryWindow = 24 * 60 * 60

// The message is parsed when the tx executes, as in the reference: its own fields need no state.
func (*syntacticCheck) RegisterL1ValidatorTx(*txs.RegisterL1ValidatorTx) error { return nil }

func (x *executor) RegisterL1ValidatorTx(tx *txs.RegisterL1ValidatorTx) error {
	m, err := parseL1Message(tx.Message)
	if err != nil {
		return err
	}
	msg, err := acp77.ParseRegisterL1Validator(m.call.Payload)
	if err != nil {
		return err
	}
	if err := msg.Verify(); err != nil {
		return err
	}
	if err := verifyOwners(msg); err != nil {
		return err
	}
	if err := verifyL1Conversion(x.src, msg.SubnetID, m); err != nil {
		return err
	}
	if msg.Expiry <= x.now {
		return fmt.Errorf("%w at %d and it is currently %d", ErrWarpMessageExpired, msg.Expiry, x.now)
	}
	if wait := msg.Expiry - x.now; wait > RegisterL1ValidatorTxExpiryWindow {
		return fmt.Errorf("%w because time is %d seconds in the future but the limit is %d",
			ErrWarpMessageNotYetAllowed, wait, RegisterL1ValidatorTxExpiryWindow)
	}
	expiry := expiryEntry{expiry: msg.Expiry, validationID: msg.ValidationID()}
	if used, err := x.src.hasExpiry(expiry); err != nil {
		return err
	} else if used {
		return fmt.Errorf("%w for validationID %s", ErrWarpMessageAlreadyIssued, expiry.validationID)
	}
	pop := bls.ProofOfPossession{PublicKey: msg.BLSPublicKey, ProofOfPossession: tx.ProofOfPossession}
	if err := pop.Verify(); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidProofOfPossession, err)
	}
	v := &l1Validator{
		validationID:          expiry.validationID,
		subnetID:              msg.SubnetID,
		nodeID:                ids.NodeID(msg.NodeID), // Verify checked its length
		publicKey:             msg.BLSPublicKey,
		weight:                msg.Weight,
		startTime:             x.now,
		remainingBalanceOwner: msg.RemainingBalanceOwner,
		deactivationOwner:     msg.DisableOwner,
	}
	if err := x.checkNewL1Validator(v); err != nil {
		return err
	}
	if tx.Balance > 0 {
		if err := x.r.checkActiveCapacity(x.src, 1); err != nil {
			return err
		}
		if v.endFee, err = add(tx.Balance, x.accrued); err != nil {
			return err
		}
	}
	x.eff.l1Validators, x.eff.expiry, x.balances = []*l1Validator{v}, &expiry, tx.Balance
	return nil
}

// checkNewL1Validator refuses a validator whose node validates its subnet already: as another
// L1 validator (ErrDuplicateL1Validator) or as a legacy subnet validator
// (ErrConflictingL1Validator).
func (x *executor) checkNewL1Validator(v *l1Validator) error {
	vals, err := x.src.subnetL1Validators(v.subnetID)
	if err != nil {
		return err
	}
	for _, o := range vals {
		if o.nodeID == v.nodeID {
			return ErrDuplicateL1Validator
		}
	}
	if _, found, err := x.src.subnetValidator(v.subnetID, v.nodeID, x.now); err != nil {
		return err
	} else if found {
		return ErrConflictingL1Validator
	}
	return nil
}

// The validator and the registration are written from the effects (writer.putL1).
func (txIndexer) RegisterL1ValidatorTx(*txs.RegisterL1ValidatorTx) error { return nil }
