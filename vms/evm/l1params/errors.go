package l1params

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
)

// Fee config texts (l1-evm.md §3.3). Range errors are these sentinels followed by
// ": <field> = <value>".
var (
	ErrGasLimitNil                 = errors.New("gasLimit cannot be nil")
	ErrMinBaseFeeNil               = errors.New("minBaseFee cannot be nil")
	ErrTargetGasNil                = errors.New("targetGas cannot be nil")
	ErrBaseFeeChangeDenominatorNil = errors.New("baseFeeChangeDenominator cannot be nil")
	ErrMinBlockGasCostNil          = errors.New("minBlockGasCost cannot be nil")
	ErrMaxBlockGasCostNil          = errors.New("maxBlockGasCost cannot be nil")
	ErrBlockGasCostStepNil         = errors.New("blockGasCostStep cannot be nil")

	ErrGasLimitTooLow                 = errors.New("gasLimit cannot be less than or equal to 0")
	ErrTargetBlockRateTooLow          = errors.New("targetBlockRate cannot be less than or equal to 0")
	ErrMinBaseFeeNegative             = errors.New("minBaseFee cannot be less than 0")
	ErrTargetGasTooLow                = errors.New("targetGas cannot be less than or equal to 0")
	ErrBaseFeeChangeDenominatorTooLow = errors.New("baseFeeChangeDenominator cannot be less than or equal to 0")
	ErrMinBlockGasCostNegative        = errors.New("minBlockGasCost cannot be less than 0")
	ErrMinBlockGasCostTooHigh         = errors.New("minBlockGasCost cannot be greater than maxBlockGasCost")
	ErrBlockGasCostStepNegative       = errors.New("blockGasCostStep cannot be less than 0")
	ErrMaxBlockGasCostNotUint64       = errors.New("maxBlockGasCost is not a valid uint64")

	// ErrExceedsHashLength is wrapped by every "<field> exceeds hash length: 32 bytes" error.
	ErrExceedsHashLength = errors.New("exceeds hash length")
)

// exceedsHashLength is "<field> exceeds hash length: 32 bytes" (l1-evm.md §3.3).
func exceedsHashLength(field string) error {
	return fmt.Errorf("%s %w: %d bytes", field, ErrExceedsHashLength, common.HashLength)
}

// Genesis and chain config texts (l1-evm.md §3.3 item 4, §3.10, §4.3).
var (
	// ErrGasLimitMismatch is "gas limit in fee config (X) does not match gas limit in
	// header (Y)" without its numbers; see gasLimitError.
	ErrGasLimitMismatch = errors.New("gas limit in fee config does not match gas limit in header")
	// ErrInitialMinDelayTooLarge prefixes "initialMinDelayMS too large: X exceeds Y".
	ErrInitialMinDelayTooLarge = errors.New("initialMinDelayMS too large")
	// ErrInvalidFeeConfig prefixes a fee config error inside the chain config's Verify.
	ErrInvalidFeeConfig = errors.New("invalid fee config")
	// ErrInvalidPrecompileUpgrades prefixes a precompile config or upgrade error.
	ErrInvalidPrecompileUpgrades = errors.New("invalid precompile upgrades")
	// ErrInvalidStateUpgrades prefixes a state upgrade error.
	ErrInvalidStateUpgrades = errors.New("invalid state upgrades")
	// ErrInvalidNetworkUpgrades prefixes a network upgrade error.
	ErrInvalidNetworkUpgrades = errors.New("invalid network upgrades")
)

// gasLimitError is the genesis gas limit check's error, matching ErrGasLimitMismatch.
type gasLimitError struct{ config, header *big.Int }

// Error is the reference's text, with both gas limits.
func (e *gasLimitError) Error() string {
	return fmt.Sprintf("gas limit in fee config (%d) does not match gas limit in header (%d)", e.config, e.header)
}

// Is makes errors.Is(err, ErrGasLimitMismatch) hold, since the text carries numbers the
// sentinel's does not.
func (e *gasLimitError) Is(target error) bool { return target == ErrGasLimitMismatch }

// Network upgrade texts (l1-evm.md §4.4).
var (
	ErrTimestampCannotBeNil    = errors.New("timestamp cannot be nil")
	ErrTimestampTooEarly       = errors.New("provided timestamp must be greater than or equal to the default timestamp")
	ErrUnsupportedForkOrdering = errors.New("unsupported fork ordering")
)

// forkTimestampInvalid is "<name> fork block timestamp is invalid: <cause>".
func forkTimestampInvalid(name string, cause error) error {
	return fmt.Errorf("%s fork block timestamp is invalid: %w", name, cause)
}

// forkNotEnabled is "unsupported fork ordering: <a> not enabled, but <b> enabled at timestamp T".
func forkNotEnabled(last, cur string, ts uint64) error {
	return fmt.Errorf("%w: %s not enabled, but %s enabled at timestamp %d", ErrUnsupportedForkOrdering, last, cur, ts)
}

// forkOutOfOrder is "unsupported fork ordering: <a> enabled at timestamp X, but <b> enabled at
// timestamp Y".
func forkOutOfOrder(last string, lastTS uint64, cur string, curTS uint64) error {
	return fmt.Errorf("%w: %s enabled at timestamp %d, but %s enabled at timestamp %d", ErrUnsupportedForkOrdering, last, lastTS, cur, curTS)
}

// Allow-list config texts (l1-evm.md §5.1).
var (
	ErrDuplicateEnabledAddress        = errors.New("duplicate address in enabled list")
	ErrDuplicateAdminAddress          = errors.New("duplicate address in admin list")
	ErrDuplicateManagerAddress        = errors.New("duplicate address in manager list")
	ErrAdminAndEnabledAddress         = errors.New("cannot set address as both admin and enabled")
	ErrAdminAndManagerAddress         = errors.New("cannot set address as both admin and manager")
	ErrEnabledAndManagerAddress       = errors.New("cannot set address as both enabled and manager")
	ErrCannotAddManagersBeforeDurango = errors.New("cannot add managers before Durango")
)

// Precompile config texts (l1-evm.md §5.4, §5.6, §5.7).
var (
	ErrInitialMintNilAmount     = errors.New("initial mint cannot contain nil amount")
	ErrInitialMintInvalidAmount = errors.New("initial mint cannot contain invalid amount")
	ErrCannotEnableBothRewards  = errors.New("cannot enable both fee recipients and reward address at the same time")
	ErrWarpBeforeDurango        = errors.New("warp cannot be activated before Durango")
	ErrInvalidQuorumRatio       = errors.New("invalid warp quorum ratio")
)

// Precompile upgrade texts (l1-evm.md §4.5).
var (
	ErrPrecompileUpgradeEmpty                       = errors.New("PrecompileUpgrade cannot be empty")
	ErrPrecompileUpgradeKeys                        = errors.New("PrecompileUpgrade must have exactly one key")
	ErrUnknownPrecompileConfig                      = errors.New("unknown precompile config")
	ErrPrecompileUpgradeNilTimestamp                = errors.New("precompile upgrade block timestamp cannot be nil")
	ErrPrecompileUpgradeTimestampNotMonotonic       = errors.New("precompile upgrade config block timestamp must be greater than or equal to previous timestamp")
	ErrPrecompileUpgradeInvalidDisable              = errors.New("precompile upgrade disable value is invalid")
	ErrPrecompileUpgradeSameKeyTimestampNotStrictly = errors.New("precompile upgrade config block timestamp for same key must be strictly greater than previous timestamp")
)

// precompileUpgradeKeyCount is "PrecompileUpgrade must have exactly one key, got N".
func precompileUpgradeKeyCount(n int) error {
	return fmt.Errorf("%w, got %d", ErrPrecompileUpgradeKeys, n)
}

// unknownPrecompileConfig is "unknown precompile config: <key>".
func unknownPrecompileConfig(key string) error {
	return fmt.Errorf("%w: %s", ErrUnknownPrecompileConfig, key)
}

// State upgrade texts (l1-evm.md §4.5).
var (
	ErrStateUpgradeNilTimestamp          = errors.New("state upgrade config block timestamp cannot be nil")
	ErrStateUpgradeTimestampZero         = errors.New("state upgrade config block timestamp must be greater than 0")
	ErrStateUpgradeTimestampNotMonotonic = errors.New("state upgrade config block timestamp must be greater than previous timestamp")
)
