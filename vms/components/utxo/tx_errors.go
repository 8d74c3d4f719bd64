package utxo

import (
	"errors"
	"fmt"

	"github.com/cornice-node/cornice/ids"
)

// Why the X- and P-Chains refuse a tx the same way, whatever its kind (§3.3): its BaseTx's
// network or chain, its credentials, its amounts, its inputs' UTXOs, an export without outputs.
// Each chain's errors.go lists the refusals of its own; these are named from here, one list for
// both, worded after the reference node's vms/avm, vms/platformvm and vms/secp256k1fx.
var (
	// ErrWrongNetworkID refuses a tx for another network.
	ErrWrongNetworkID = errors.New("tx has wrong network ID")
	// ErrWrongChainID refuses a tx for another chain.
	ErrWrongChainID = errors.New("tx has wrong chain ID")
	// ErrWrongNumberOfCredentials refuses a tx without exactly one credential per input (plus,
	// on the P-Chain, one per authorization).
	ErrWrongNumberOfCredentials = errors.New("wrong number of credentials")
	// ErrInsufficientFunds refuses a tx whose inputs do not cover its outputs plus the fee.
	ErrInsufficientFunds = errors.New("insufficient funds")
	// ErrOverflow refuses a tx whose amounts (or, on the P-Chain, gas) add up past 2^64-1.
	ErrOverflow = errors.New("overflow")
	// ErrUTXONotFound is wrapped when an input's UTXO does not exist or is spent, and refuses an
	// ImportTx whose UTXO is not in shared memory (never exported, or imported already), as the
	// reference answers its shared memory's miss.
	ErrUTXONotFound = errors.New("not found")
	// ErrNoExportOutputs refuses an ExportTx that exports nothing.
	ErrNoExportOutputs = errors.New("no export outputs")
)

// InsufficientFundsError names the asset and the amounts of a failed flow check, on both chains.
func InsufficientFundsError(assetID ids.ID, consumed, produced uint64) error {
	return fmt.Errorf("%w: asset %s: inputs %d < outputs plus fee %d", ErrInsufficientFunds, assetID, consumed, produced)
}
