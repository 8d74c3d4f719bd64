package evm

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/txpool"
	"github.com/ethereum/go-ethereum/core/vm"
)

// Internal errors (never sent to a client as such).
var (
	// errNoSink: go-ethereum tried to write outside a block's batch.
	errNoSink = errors.New("evm: write to the chain database outside a block's batch")
	// errNoChainID: the genesis config has no positive chainId.
	errNoChainID = errors.New("genesis has no positive config.chainId")
	// errGenesisNumber: the genesis block must have number 0.
	errGenesisNumber = errors.New("genesis number must be 0")
	// errNoParentBaseFee: a parent header past genesis has no base fee.
	errNoParentBaseFee = errors.New("parent header has no base fee")
	// errNotVerified: Accept was called on a block that was not verified.
	errNotVerified = errors.New("block accepted before it was verified")
)

// Header check errors. The texts follow Subnet-EVM's where it has one
// (l1-evm.md §3.6, §3.8).
var (
	errEmptyBlock = errors.New("empty block")
)

// windowLengthError is l1-evm.md §3.6's text for a short Extra.
func windowLengthError(n int) error {
	return fmt.Errorf("insufficient length for window: expected at least %d bytes but got %d bytes", windowSize, n)
}

// timestampError is l1-evm.md §3.6's text for a child older than its parent.
func timestampError(t, parent uint64) error {
	return fmt.Errorf("invalid timestamp: timestamp %d prior to parent timestamp %d", t, parent)
}

// headerError reports a header field that is not what the chain's rules give.
func headerError(field string, have, want any) error {
	return fmt.Errorf("invalid %s: have %v, want %v", field, have, want)
}

// Mempool rejections. The texts are go-ethereum's (core/error.go,
// core/txpool/errors.go, core/txpool/validation.go), which wallets and
// scripts match (issue #4 §2); the sentinels are go-ethereum's own, so
// errors.Is works with them.

func nonceTooLowError(from common.Address, tx, state uint64) error {
	return fmt.Errorf("%w: address %v, tx: %d state: %d", core.ErrNonceTooLow, from.Hex(), tx, state)
}

func insufficientFundsError(balance, cost *big.Int) error {
	return fmt.Errorf("%w: balance %v, tx cost %v, overshot %v", core.ErrInsufficientFunds, balance, cost, new(big.Int).Sub(cost, balance))
}

func intrinsicGasError(gas, need uint64) error {
	return fmt.Errorf("%w: gas %v, minimum needed %v", core.ErrIntrinsicGas, gas, need)
}

func feeCapTooLowError(from common.Address, feeCap, baseFee *big.Int) error {
	return fmt.Errorf("%w: address %v, maxFeePerGas: %s, baseFee: %s", core.ErrFeeCapTooLow, from.Hex(), feeCap, baseFee)
}

func tipAboveFeeCapError(from common.Address, tip, feeCap *big.Int) error {
	return fmt.Errorf("%w: address %v, maxPriorityFeePerGas: %s, maxFeePerGas: %s", core.ErrTipAboveFeeCap, from.Hex(), tip, feeCap)
}

func gasLimitError(gas, limit uint64) error {
	return fmt.Errorf("%w: tx gas (%d) > current max gas (%d)", txpool.ErrGasLimit, gas, limit)
}

func oversizedError(size, limit uint64) error {
	return fmt.Errorf("%w: transaction size %v, limit %v", txpool.ErrOversizedData, size, limit)
}

func txTypeError(typ uint8) error {
	return fmt.Errorf("%w: tx type %v not supported by this pool", core.ErrTxTypeNotSupported, typ)
}

func invalidSenderError(err error) error {
	return fmt.Errorf("%w: %w", txpool.ErrInvalidSender, err)
}

// Sentinels used as they are: txpool.ErrAlreadyKnown ("already known"),
// txpool.ErrReplaceUnderpriced ("replacement transaction underpriced"),
// txpool.ErrAccountLimitExceeded ("account limit exceeded").

// errTxPoolFull is go-ethereum's text when the pool holds its global limit
// (core/txpool/legacypool: ErrTxPoolOverflow).
var errTxPoolFull = errors.New("txpool is full")

// RPC errors.

// errUnknownBlock is go-ethereum's text for a block tag, number or hash
// that names no accepted block (l1-evm.md §1.1 gives Subnet-EVM's for a
// hash: header for hash not found).
var (
	errUnknownBlock  = errors.New("header not found")
	errHashNotFound  = errors.New("header for hash not found")
	errUnfinalized   = errors.New("cannot query unfinalized data")
	errGasCapTooLow  = errors.New("gas required exceeds allowance")
	errBothFeeFields = errors.New("both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified")
	errBothInput     = errors.New(`both "data" and "input" are set and not equal. Please use "input" to pass transaction call data`)
)

// revertError is an execution revert as go-ethereum's API reports it: code
// 3, the message "execution reverted" with the decoded reason if any, and
// the revert data, hex encoded, as the error data.
type revertError struct {
	msg    string
	reason string // hex
}

func newRevertError(data []byte) *revertError {
	msg := vm.ErrExecutionReverted.Error()
	if reason, err := abi.UnpackRevert(data); err == nil {
		msg += ": " + reason
	}
	return &revertError{msg: msg, reason: hexutil.Encode(data)}
}

func (e *revertError) Error() string  { return e.msg }
func (e *revertError) ErrorCode() int { return 3 }
func (e *revertError) ErrorData() any { return e.reason }
