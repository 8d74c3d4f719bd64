package platform

import (
	"errors"
	"fmt"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/components/utxo"
	"github.com/cornice-node/cornice/vms/internal/chainstate"
	"github.com/cornice-node/cornice/vms/platform/txs"
)

// A RemoveSubnetValidatorTx removes a current legacy validator from a subnet its owner
// authorizes, before its end time (§4.4); an L1 is immutable, so it refuses it.

var (
	// ErrRemovePermissionlessValidator refuses removing a Primary Network validator.
	ErrRemovePermissionlessValidator = errors.New("can't remove a permissionless validator")
	// ErrNotValidator refuses removing a node that does not validate the subnet now.
	ErrNotValidator = errors.New("isn't a current or pending validator")
)

func (c *syntacticCheck) RemoveSubnetValidatorTx(tx *txs.RemoveSubnetValidatorTx) error {
	c.auths = 1
	if tx.SubnetID == ids.Empty {
		return ErrRemovePermissionlessValidator
	}
	return tx.SubnetAuth.Verify()
}

func (x *executor) RemoveSubnetValidatorTx(tx *txs.RemoveSubnetValidatorTx) error {
	txID, found, err := x.src.subnetValidator(tx.SubnetID, tx.NodeID, x.now)
	switch {
	case err != nil:
		return err
	case !found:
		return fmt.Errorf("%s %w of %s: %w", tx.NodeID, ErrNotValidator, tx.SubnetID, utxo.ErrUTXONotFound)
	}
	if err := verifySubnetAuth(x.src, tx.SubnetID, &tx.SubnetAuth, x.tx, x.now); err != nil {
		return err
	}
	x.eff.removedSubnetValidators = []ids.ID{txID}
	return nil
}

// The removal is written from the effects (writer.removeSubnetValidators).
func (txIndexer) RemoveSubnetValidatorTx(*txs.RemoveSubnetValidatorTx) error { return nil }

// subnetValidator implements utxoSource.
func (s *state) subnetValidator(subnetID ids.ID, nodeID ids.NodeID, now uint64) (ids.ID, bool, error) {
	all, err := s.subnetValidators(subnetID)
	if err != nil {
		return ids.Empty, false, err
	}
	for _, v := range all {
		if v.NodeID == nodeID && v.StartTime <= now && now < v.EndTime {
			return v.TxID, true, nil
		}
	}
	return ids.Empty, false, nil
}

// removeSubnetValidators deletes the legacy validators eff removes, with a validator diff
// recording their weight leaving at the writer's height.
func (w writer) removeSubnetValidators(eff *effects) error {
	for _, id := range eff.removedSubnetValidators {
		tx, found, err := w.s.Tx(id)
		switch {
		case err != nil:
			return err
		case !found:
			return fmt.Errorf("platform: removed subnet validator tx %s is missing", id)
		}
		add, ok := tx.Unsigned().(*txs.AddSubnetValidatorTx)
		if !ok {
			return fmt.Errorf("platform: removed subnet validator tx %s is a %T", id, tx.Unsigned())
		}
		if err := w.b.Delete(chainstate.PairKey(keySubnetValidator, add.SubnetID, id)); err != nil {
			return err
		}
		v := &add.Validator
		if err := w.putValidatorDiff(add.SubnetID, id, &diffRecord{kind: diffLegacy, nodeID: v.NodeID,
			start: v.Start, end: v.End}); err != nil {
			return err
		}
	}
	return nil
}
