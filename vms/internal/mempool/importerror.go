package mempool

import (
	"errors"
	"fmt"

	"github.com/cornice-node/cornice/chains/atomic"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/components/utxo"
)

// ImportError is the error of the ImportTx txID whose imported UTXO could not be had, err being
// what the chain's read of it returned: notFound (each chain's words) when shared memory has
// none, `tx conflicts with other tx: <txID>` when a pending tx or an earlier tx of the block
// imports it already (the reference mempool's text, on both chains), err itself otherwise.
func ImportError(txID ids.ID, err, notFound error) error {
	switch {
	case errors.Is(err, atomic.ErrNotFound):
		return notFound
	case errors.Is(err, utxo.ErrDoubleSpend):
		return fmt.Errorf("%w: %s", ErrConflictsWithOtherTx, txID)
	}
	return err
}
