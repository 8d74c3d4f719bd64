package atomic

import "errors"

// Syntactic errors, with the reference's texts (coreth's plugin/evm/atomic).
var (
	ErrWrongNetworkID         = errors.New("tx was issued with a different network ID")
	ErrWrongChainID           = errors.New("tx has wrong chain ID")
	ErrNoImportInputs         = errors.New("tx has no imported inputs")
	ErrNoEVMOutputs           = errors.New("tx has no EVM outputs")
	ErrNoExportOutputs        = errors.New("tx has no export outputs")
	ErrInputsNotSortedUnique  = errors.New("inputs not sorted and unique")
	ErrOutputsNotSortedUnique = errors.New("outputs not sorted and unique")
	ErrOutputsNotSorted       = errors.New("tx outputs not sorted")
	ErrNoValueOutput          = errors.New("output has no value")
	ErrNoValueInput           = errors.New("input has no value")
	ErrEmptyAssetID           = errors.New("empty asset ID is not valid")
	ErrImportNonAVAXInput     = errors.New("import input cannot contain non-AVAX in Banff")
	ErrImportNonAVAXOutput    = errors.New("import output cannot contain non-AVAX in Banff")
	ErrExportNonAVAXInput     = errors.New("export input cannot contain non-AVAX in Banff")
	ErrExportNonAVAXOutput    = errors.New("export output cannot contain non-AVAX in Banff")
	ErrFeeOverflow            = errors.New("overflow occurred while calculating the fee")
	// ErrOverflow and ErrUnderflow are the reference's safe-math texts (utils/math).
	ErrOverflow  = errors.New("overflow")
	ErrUnderflow = errors.New("underflow")
	// ErrNilTx is returned when a batch is asked to encode a nil tx.
	ErrNilTx = errors.New("tx is nil")
)
