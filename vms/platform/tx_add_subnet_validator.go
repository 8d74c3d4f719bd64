package platform

import (
	"fmt"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/internal/chainstate"
	"github.com/cornice-node/cornice/vms/platform/txs"
)

// An AddSubnetValidatorTx adds a legacy validator to a subnet its owner authorizes, for a period
// within the Primary Network validator's (§4.3, §4.4).

func (c *syntacticCheck) AddSubnetValidatorTx(tx *txs.AddSubnetValidatorTx) error {
	c.auths = 1
	return verifyAddSubnetValidator(tx)
}

// verifyAddSubnetValidator checks an AddSubnetValidatorTx's own fields (§4.3).
func verifyAddSubnetValidator(tx *txs.AddSubnetValidatorTx) error {
	switch v := &tx.Validator; {
	case tx.SubnetID == ids.Empty:
		return ErrAddPrimaryNetworkValidator
	case v.Weight == 0:
		return ErrZeroWeight
	case v.Start >= v.End:
		return fmt.Errorf("%w: start %d, end %d", ErrStakingPeriod, v.Start, v.End)
	}
	return tx.SubnetAuth.Verify()
}

func (x *executor) AddSubnetValidatorTx(tx *txs.AddSubnetValidatorTx) error {
	if err := verifySubnetAuth(x.src, tx.SubnetID, &tx.SubnetAuth, x.tx, x.now); err != nil {
		return err
	}
	return x.r.verifySubnetValidatorWindow(x.src, &tx.Validator, x.now)
}

// verifySubnetValidatorWindow checks that v validates the subnet within its Primary Network
// validation period, this node's or a staking validator's of src, and ends after now (§4.3, §4.9).
func (r *rules) verifySubnetValidatorWindow(src stakerSource, v *txs.Validator, now uint64) error {
	p := &r.primary
	if v.NodeID != p.nodeID {
		stakers, err := src.nodeStakers(v.NodeID)
		if err != nil {
			return err
		}
		val := validatorOf(stakers)
		if val == nil {
			return fmt.Errorf("%w: %s", ErrNotPrimaryValidator, v.NodeID)
		}
		p = &primaryValidator{nodeID: val.nodeID, start: val.start, end: val.end}
	}
	switch {
	case v.End <= now:
		return fmt.Errorf("%w: end %d not after chain time %d", ErrStakingPeriod, v.End, now)
	case v.Start < p.start || v.End > p.end:
		return fmt.Errorf("%w: [%d, %d] not within [%d, %d]", ErrValidatorWindow, v.Start, v.End, p.start, p.end)
	}
	return nil
}

func (i txIndexer) AddSubnetValidatorTx(tx *txs.AddSubnetValidatorTx) error {
	if err := i.w.b.Put(chainstate.PairKey(keySubnetValidator, tx.SubnetID, i.txID), nil); err != nil {
		return err
	}
	v := &tx.Validator
	return i.w.putValidatorDiff(tx.SubnetID, i.txID, &diffRecord{kind: diffLegacy, nodeID: v.NodeID,
		weight: v.Weight, start: v.Start, end: v.End})
}
