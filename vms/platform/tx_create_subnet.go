package platform

import (
	"fmt"

	"github.com/cornice-node/cornice/vms/internal/chainstate"
	"github.com/cornice-node/cornice/vms/platform/txs"
)

// A CreateSubnetTx creates a subnet, whose ID is the tx's, owned by its owner (§4.3, §4.4).

func (*syntacticCheck) CreateSubnetTx(tx *txs.CreateSubnetTx) error {
	if err := tx.Owner.Verify(); err != nil {
		return fmt.Errorf("subnet owner: %w", err)
	}
	return nil
}

func (x *executor) CreateSubnetTx(tx *txs.CreateSubnetTx) error {
	x.eff.subnetOwner = &tx.Owner
	return nil
}

func (i txIndexer) CreateSubnetTx(*txs.CreateSubnetTx) error {
	return i.w.b.Put(chainstate.IDKey(keySubnet, i.txID), nil)
}
