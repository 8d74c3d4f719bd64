package platform

import (
	"bytes"
	"fmt"

	"github.com/cornice-node/cornice/crypto/bls"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/platform/txs"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// A ConvertSubnetToL1Tx turns a subnet its owner authorizes into an L1 with a manager and its first
// L1 validators, whose balances the inputs pay (§4.3, §4.4).

func (c *syntacticCheck) ConvertSubnetToL1Tx(tx *txs.ConvertSubnetToL1Tx) error {
	c.auths = 1
	return verifyConvert(tx)
}

// verifyConvert checks a ConvertSubnetToL1Tx's own fields (§4.3): a subnet other than the primary
// network, a manager address of at most 4096 bytes, a non-empty list of validators sorted and
// unique by node ID, each with a 20-byte node ID, a positive weight, valid owners and a valid
// proof of possession.
func verifyConvert(tx *txs.ConvertSubnetToL1Tx) error {
	switch {
	case tx.SubnetID == ids.Empty:
		return ErrConvertPrimaryNetwork
	case len(tx.Address) > MaxManagerAddressLen:
		return fmt.Errorf("%w: %d bytes, limit %d", ErrAddressTooLong, len(tx.Address), MaxManagerAddressLen)
	case len(tx.Validators) == 0:
		return ErrConvertNoValidators
	}
	for i := range tx.Validators {
		v := &tx.Validators[i]
		switch {
		case i > 0 && bytes.Compare(tx.Validators[i-1].NodeID, v.NodeID) >= 0:
			return ErrValidatorsNotSortedUnique
		case len(v.NodeID) != ids.NodeIDLen:
			return fmt.Errorf("validator %d: %w: %d bytes", i, ErrInvalidNodeID, len(v.NodeID))
		case v.Weight == 0:
			return fmt.Errorf("validator %d: %w", i, ErrZeroWeight)
		}
		for j, o := range []*txs.PChainOwner{&v.RemainingBalanceOwner, &v.DeactivationOwner} {
			oo := secp256k1fx.OutputOwners{Threshold: o.Threshold, Addrs: o.Addresses}
			if err := oo.Verify(); err != nil {
				return fmt.Errorf("validator %d: %s: %w", i, [...]string{"remaining balance owner", "deactivation owner"}[j], err)
			}
		}
		pop := bls.ProofOfPossession{PublicKey: v.Signer.PublicKey, ProofOfPossession: v.Signer.Signature}
		if err := pop.Verify(); err != nil {
			return fmt.Errorf("validator %d: %w: %w", i, ErrInvalidProofOfPossession, err)
		}
	}
	return tx.SubnetAuth.Verify()
}

func (x *executor) ConvertSubnetToL1Tx(tx *txs.ConvertSubnetToL1Tx) error {
	if err := verifySubnetAuth(x.src, tx.SubnetID, &tx.SubnetAuth, x.tx, x.now); err != nil {
		return err
	}
	conv, vals, total, err := convertEffects(tx, x.now, x.accrued)
	if err != nil {
		return err
	}
	var activated uint64
	for _, v := range vals {
		if v.endFee != 0 {
			activated++
		}
	}
	if err := x.r.checkActiveCapacity(x.src, activated); err != nil {
		return err
	}
	x.eff.convertedSubnet, x.eff.conversion, x.eff.l1Validators, x.balances = tx.SubnetID, conv, vals, total
	return nil
}

// convertEffects returns what tx records once executed at chain time now with the accrued fees
// (§4.7), and the sum of the validators' balances, which the inputs pay. A validator given no
// balance is inactive from the start.
func convertEffects(tx *txs.ConvertSubnetToL1Tx, now, accrued uint64) (*subnetConversion, []*l1Validator, uint64, error) {
	conv := &subnetConversion{conversionID: txs.ConversionID(tx), chainID: tx.ChainID, address: tx.Address}
	vals := make([]*l1Validator, len(tx.Validators))
	var total uint64
	for i := range tx.Validators {
		v := &tx.Validators[i]
		var err error
		if total, err = add(total, v.Balance); err != nil {
			return nil, nil, 0, err
		}
		var endFee uint64
		if v.Balance > 0 {
			if endFee, err = add(v.Balance, accrued); err != nil {
				return nil, nil, 0, err
			}
		}
		vals[i] = &l1Validator{
			endFee:                endFee,
			validationID:          tx.ValidationID(uint32(i)),
			subnetID:              tx.SubnetID,
			nodeID:                ids.NodeID(v.NodeID),
			publicKey:             v.Signer.PublicKey,
			weight:                v.Weight,
			startTime:             now,
			remainingBalanceOwner: v.RemainingBalanceOwner,
			deactivationOwner:     v.DeactivationOwner,
		}
	}
	return conv, vals, total, nil
}

// The conversion and the validators are written from the effects (writer.putL1).
func (txIndexer) ConvertSubnetToL1Tx(*txs.ConvertSubnetToL1Tx) error { return nil }
