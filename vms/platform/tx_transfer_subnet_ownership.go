package platform

import (
	"errors"
	"fmt"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/internal/chainstate"
	"github.com/cornice-node/cornice/vms/platform/txs"
)

// A TransferSubnetOwnershipTx gives a subnet a new owner, authorized by its current one (§4.4);
// an L1 is immutable, so it refuses it. Later subnet authorizations check the new owner.

// ErrTransferPermissionlessSubnet refuses transferring the Primary Network.
var ErrTransferPermissionlessSubnet = errors.New("cannot transfer ownership of a permissionless subnet")

func (c *syntacticCheck) TransferSubnetOwnershipTx(tx *txs.TransferSubnetOwnershipTx) error {
	c.auths = 1
	if tx.SubnetID == ids.Empty {
		return ErrTransferPermissionlessSubnet
	}
	if err := tx.SubnetAuth.Verify(); err != nil {
		return err
	}
	if err := tx.Owner.Verify(); err != nil {
		return fmt.Errorf("subnet owner: %w", err)
	}
	return nil
}

func (x *executor) TransferSubnetOwnershipTx(tx *txs.TransferSubnetOwnershipTx) error {
	if err := verifySubnetAuth(x.src, tx.SubnetID, &tx.SubnetAuth, x.tx, x.now); err != nil {
		return err
	}
	x.eff.subnetOwner, x.eff.transferredSubnet = &tx.Owner, tx.SubnetID
	return nil
}

func (i txIndexer) TransferSubnetOwnershipTx(tx *txs.TransferSubnetOwnershipTx) error {
	return i.w.b.Put(chainstate.IDKey(keySubnetOwner, tx.SubnetID), i.txID[:])
}
