package platform

import (
	"fmt"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/components/utxo"
	"github.com/cornice-node/cornice/vms/internal/chainstate"
	"github.com/cornice-node/cornice/vms/platform/txs"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// A CreateChainTx creates a blockchain, whose ID is the tx's, on a subnet its owner authorizes
// (§4.3, §4.4).

func (c *syntacticCheck) CreateChainTx(tx *txs.CreateChainTx) error {
	c.auths = 1
	return verifyCreateChain(tx)
}

// verifyCreateChain checks a CreateChainTx's own fields (§4.3).
func verifyCreateChain(tx *txs.CreateChainTx) error {
	switch {
	case tx.SubnetID == ids.Empty:
		return ErrPrimaryNetwork
	case len(tx.ChainName) > MaxChainNameLen:
		return fmt.Errorf("%w: %d bytes, limit %d", ErrNameTooLong, len(tx.ChainName), MaxChainNameLen)
	case tx.VMID == ids.Empty:
		return ErrInvalidVMID
	case len(tx.GenesisData) > MaxGenesisLen:
		return fmt.Errorf("%w: %d bytes, limit %d", ErrGenesisTooLong, len(tx.GenesisData), MaxGenesisLen)
	}
	for i := range len(tx.ChainName) {
		c := tx.ChainName[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == ' ') {
			return fmt.Errorf("%w: %q", ErrIllegalNameCharacter, c)
		}
	}
	for i := 1; i < len(tx.FxIDs); i++ {
		if tx.FxIDs[i-1].Compare(tx.FxIDs[i]) >= 0 {
			return ErrFxIDsNotSortedUnique
		}
	}
	return tx.SubnetAuth.Verify()
}

func (x *executor) CreateChainTx(tx *txs.CreateChainTx) error {
	return verifySubnetAuth(x.src, tx.SubnetID, &tx.SubnetAuth, x.tx, x.now)
}

func (i txIndexer) CreateChainTx(tx *txs.CreateChainTx) error {
	return i.w.b.Put(chainstate.PairKey(keyChain, tx.SubnetID, i.txID), nil)
}

// verifySubnetAuth checks that the tx's last credential satisfies auth for the subnet's owner and
// that the subnet is still permissioned: a converted subnet is immutable (§4.4).
func verifySubnetAuth(src utxoSource, subnetID ids.ID, auth *secp256k1fx.Input, tx *txs.Tx, now uint64) error {
	owner, err := src.subnetOwner(subnetID)
	if err != nil {
		return err
	}
	_, converted, err := src.conversion(subnetID)
	switch {
	case err != nil:
		return err
	case converted:
		return fmt.Errorf("%s %w", subnetID, ErrSubnetImmutable)
	}
	if err := utxo.VerifyAuth(nil, auth, owner, tx, len(tx.Creds())-1, now); err != nil {
		return fmt.Errorf("%w: %w", ErrUnauthorizedSubnetModification, err)
	}
	return nil
}
