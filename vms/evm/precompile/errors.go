package precompile

import (
	"errors"
	"fmt"

	"github.com/ethereum/go-ethereum/common"
)

// Sentinels. Their texts are the reference's; each formatted error below wraps one, so
// callers test with errors.Is.
var (
	// ErrCannotModifyAllowList: a setter called by a role that may not make the change
	// (l1-evm.md §5.1).
	ErrCannotModifyAllowList = errors.New("cannot modify allow list")
	// ErrCannotMint: mintNativeCoin called without a role (l1-evm.md §5.4).
	ErrCannotMint = errors.New("non-enabled cannot mint")
	// ErrCannotChangeFee: setFeeConfig called without a role (l1-evm.md §5.5).
	ErrCannotChangeFee = errors.New("non-enabled cannot change fee config")
	// ErrInvalidFeeConfigLen: setFeeConfig input of the wrong length before Durango
	// (l1-evm.md §5.5).
	ErrInvalidFeeConfigLen = errors.New("invalid input length for fee config Input")
	// ErrCannotVerifyFeeConfig: setFeeConfig or activation with a config that fails
	// FeeConfig.Verify (l1-evm.md §3.3 rule 5).
	ErrCannotVerifyFeeConfig = errors.New("cannot verify fee config")
	// ErrEmptyRewardAddress: setRewardAddress with the zero address (l1-evm.md §5.6).
	ErrEmptyRewardAddress = errors.New("reward address cannot be empty")
	// ErrNotAuthorizedToDeploy: a contract creation whose tx.origin lacks a role in the
	// deployer allow list (l1-evm.md §5.2).
	ErrNotAuthorizedToDeploy = errors.New("is not authorized to deploy a contract")
	// ErrSenderNotAllowListed: a transaction whose sender lacks a role in the transaction
	// allow list (l1-evm.md §5.3).
	ErrSenderNotAllowListed = errors.New("cannot issue transaction from non-allow listed address")
	// Warp failures (l1-evm.md §5.7): a sendWarpMessage input that is not ABI bytes, and
	// predicate bytes that are not a warp message of the kind the function reads.
	ErrInvalidSendInput          = errors.New("invalid sendWarpMessage input")
	ErrInvalidWarpMessage        = errors.New("invalid warp message")
	ErrInvalidAddressedPayload   = errors.New("invalid addressed payload")
	ErrInvalidBlockHashPayload   = errors.New("invalid block hash payload")
	ErrInvalidPredicateBytes     = errors.New("invalid predicate bytes")
	ErrPredicateAllZero          = errors.New("predicate specified invalid all zero bytes")
	ErrPredicateInvalidPadding   = errors.New("predicate specified invalid padding")
	ErrPredicateInvalidDelimiter = errors.New("invalid end delimiter")
	// ErrMissingSelector, ErrInvalidSelector and ErrNonActivatedSelector: dispatch failures
	// (l1-evm.md §5.0).
	ErrMissingSelector      = errors.New("missing function selector to precompile")
	ErrInvalidSelector      = errors.New("invalid function selector")
	ErrNonActivatedSelector = errors.New("invalid non-activated function selector")
	// ErrDelegateCallInvalidated: a DELEGATECALL or CALLCODE into a stateful precompile
	// between 2025-08-02 and Granite; the transaction cannot be included (l1-evm.md §5.0).
	ErrDelegateCallInvalidated = errors.New("delegatecall to a stateful precompile invalidates the transaction")

	// Decoding failures (texts of the reference's unpackers).
	errUnpackInput    = errors.New("failed to unpack input")
	errInvalidMintLen = errors.New("invalid input length for minting")
	// errNoFrame: a precompile ran without the frame tracker (Runtime.Hooks not installed
	// as the EVM's tracer): it cannot know its caller, so it refuses to run.
	errNoFrame = errors.New("stateful precompile called outside a tracked call frame")
)

// missingSelectorError is l1-evm.md §5.0's text for an input shorter than a selector.
func missingSelectorError(n int) error {
	return fmt.Errorf("%w - input length (%d)", ErrMissingSelector, n)
}

// invalidSelectorError is l1-evm.md §5.0's text for an unknown selector.
func invalidSelectorError(sel []byte) error {
	return fmt.Errorf("%w: %#x", ErrInvalidSelector, sel)
}

// nonActivatedSelectorError is l1-evm.md §5.0's text for setManager before Durango.
func nonActivatedSelectorError(sel []byte) error {
	return fmt.Errorf("%w: %#x", ErrNonActivatedSelector, sel)
}

// cannotModifyError is l1-evm.md §5.1's permission error. As in the reference, the caller
// is labelled "modify address", and roles print as NoRole, EnabledRole, AdminRole,
// ManagerRole.
func cannotModifyError(caller common.Address, from, to Role) error {
	return fmt.Errorf("%w: modify address: %s, from role: %s, to role: %s", ErrCannotModifyAllowList, caller.Hex(), from, to)
}

// allowListLenError is the reference's strict-mode (before Durango) length error of the
// allow-list functions (l1-evm.md §5.0, §5.1).
func allowListLenError(fn string, n int) error {
	if fn == "readAllowList" {
		return fmt.Errorf("invalid input length for read allow list: %d", n)
	}
	return fmt.Errorf("invalid input length for modifying allow list: %d", n)
}

// improperlyFormattedInputError is the reference's strict-mode (before Durango) error for
// setRewardAddress input whose length is not a multiple of 32 (l1-evm.md §5.6): the text of
// go-ethereum's ABI unpacker (accounts/abi/abi.go, for outputs), said of the input.
func improperlyFormattedInputError(input []byte) error {
	return fmt.Errorf("abi: improperly formatted input: %q - Bytes: %+v", input, input)
}

// cannotMintError is l1-evm.md §5.4's text.
func cannotMintError(caller common.Address) error {
	return fmt.Errorf("%w: %s", ErrCannotMint, caller.Hex())
}

// cannotChangeFeeError is l1-evm.md §5.5's text.
func cannotChangeFeeError(caller common.Address) error {
	return fmt.Errorf("%w: %s", ErrCannotChangeFee, caller.Hex())
}

// rewardNotEnabledError is l1-evm.md §5.6's text: `non-enabled cannot call <fn>: <caller>`.
func rewardNotEnabledError(fn string, caller common.Address) error {
	return fmt.Errorf("non-enabled cannot call %s: %s", fn, caller.Hex())
}

// DeployNotAuthorizedError is l1-evm.md §5.2's text:
// `tx.origin <addr> is not authorized to deploy a contract`.
func DeployNotAuthorizedError(origin common.Address) error {
	return fmt.Errorf("tx.origin %s %w", origin.Hex(), ErrNotAuthorizedToDeploy)
}

// TxNotAllowedError is l1-evm.md §5.3's admission text:
// `cannot issue transaction from non-allow listed address: 0x…`.
func TxNotAllowedError(from common.Address) error {
	return fmt.Errorf("%w: %s", ErrSenderNotAllowListed, from.Hex())
}
