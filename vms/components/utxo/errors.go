package utxo

import (
	"errors"
	"fmt"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// Why a spend is refused (reference/platform-exchange.md §3.3). The chains send these texts to
// clients behind their own prefixes, and name them from here, one list for both; they are
// worded after the reference node's vms/components/avax and vms/secp256k1fx.
var (
	// ErrAssetIDMismatch refuses an input whose asset is not its UTXO's.
	ErrAssetIDMismatch = errors.New("asset IDs in the input don't match the utxo")
	// ErrWrongUTXOType refuses spending a UTXO that is not a plain TransferOutput.
	ErrWrongUTXOType = errors.New("wrong utxo type")
	// ErrMismatchedAmounts refuses an input whose amount is not its UTXO's (§3.3).
	ErrMismatchedAmounts = errors.New("utxo amount and input amount are not equivalent")
	// ErrTimelocked refuses spending a UTXO, or using an owner, before its locktime (§3.3).
	ErrTimelocked = errors.New("output is time locked")
	// ErrTooFewSigners and ErrTooManySigners refuse signature indices that are not exactly the
	// owners' threshold (§3.3).
	ErrTooFewSigners  = errors.New("input has less signers than expected")
	ErrTooManySigners = errors.New("input has more signers than expected")
	// ErrSignersMismatch refuses a credential without one signature per signature index.
	ErrSignersMismatch = errors.New("input expected a different number of signers than provided in the credential")
	// ErrIndexOutOfBounds refuses a signature index past the owners' addresses.
	ErrIndexOutOfBounds = errors.New("input referenced a nonexistent address in the output")
	// ErrWrongSig refuses a signature that does not recover to the owner's address.
	ErrWrongSig = secp256k1fx.ErrWrongSig
	// ErrMutatedSig refuses a signature with a high S or a recovery flag other than 0 or 1 (§3.2).
	ErrMutatedSig = secp256k1fx.ErrMutatedSig
	// ErrDoubleSpend refuses a tx spending a UTXO that an earlier tx of the same block, or a
	// pending tx, already spends.
	ErrDoubleSpend = errors.New("double spend")
)

// Why a tx's outputs or inputs are refused before any state is read (§3.3), on both chains.
var (
	// ErrOutputsNotSorted refuses outputs out of the order of §3.3.
	ErrOutputsNotSorted = errors.New("outputs not sorted")
	// ErrInputsNotSortedUnique refuses inputs not sorted by (txID, outputIndex), or spending a
	// UTXO twice (§3.3).
	ErrInputsNotSortedUnique = errors.New("inputs not sorted and unique")
)

// doubleSpendError names the UTXO and the tx that spends it first.
func doubleSpendError(utxoID, by ids.ID) error {
	return fmt.Errorf("%w: utxo %s is spent by tx %s", ErrDoubleSpend, utxoID, by)
}
