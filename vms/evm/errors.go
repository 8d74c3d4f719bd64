package evm

import (
	"errors"
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/txpool"
	"github.com/ethereum/go-ethereum/core/vm"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
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

// gasLimitRangeError: an L1's fee config (its FeeManager's, which only
// needs to fit 32 bytes) has a gas limit no header can carry.
func gasLimitRangeError(gasLimit *big.Int) error {
	return fmt.Errorf("invalid gas limit: fee config gas limit %d does not fit 64 bits", gasLimit)
}

// l1GasLimitError is Subnet-EVM's text for an L1 header whose gas limit is
// not the fee config's (l1-evm.md §3.5).
func l1GasLimitError(want, have uint64) error {
	return fmt.Errorf("invalid gas limit: expected to be %d in Subnet-EVM, but found %d", want, have)
}

// l1CoinbaseError is Subnet-EVM's text for an L1 header whose coinbase is
// not the one the chain requires (l1-evm.md §3.9).
func l1CoinbaseError(have, want common.Address) error {
	return fmt.Errorf("invalid coinbase: %s does not match required coinbase address %s", have.Hex(), want.Hex())
}

// blockGasCostError is Subnet-EVM's text for a block whose block gas cost
// is not the one its parent and time give (l1-evm.md §3.7).
func blockGasCostError(have, want uint64) error {
	return fmt.Errorf("invalid block gas cost: have %d, want %d", have, want)
}

// insufficientBlockFeeError is Subnet-EVM's text for a block whose fee does
// not cover its block gas cost (l1-evm.md §3.7, VerifyBlockFee).
func insufficientBlockFeeError(cost uint64, fee *big.Int) error {
	return fmt.Errorf("insufficient gas to cover the block cost: expected %d but got %s", cost, fee)
}

// chainFileError: the chain's config.json is malformed; the chain does
// not start. There is no reference text: it names the file.
func chainFileError(chainID string, err error) error {
	return fmt.Errorf("chain config file %s/config.json: %w", chainID, err)
}

// notAnAddressError: a config.json key that takes an address
// (feeRecipient) holds something else. cornice's own text, after
// chainFileError's and the key's names.
func notAnAddressError(s string) error {
	return fmt.Errorf("not an address: %q", s)
}

// negativeCapError: a config.json cap (api-max-blocks-per-request) is
// negative. cornice's own text, after chainFileError's and the key's names.
func negativeCapError(n int64) error {
	return fmt.Errorf("negative: %d", n)
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

// errUnprotectedTx refuses a transaction without a chain ID over RPC, in the reference's words
// (decodeRawTx).
var errUnprotectedTx = errors.New("only replay-protected (EIP-155) transactions allowed over RPC")

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

// Block parameter errors: go-ethereum's texts (rpc/types.go), which
// Subnet-EVM keeps (l1-evm.md §1.1).
var (
	errBothNumberAndHash    = errors.New("cannot specify both BlockHash and BlockNumber, choose one or the other")
	errNeitherNumberNorHash = errors.New("must specify either BlockHash or BlockNumber")
)

// errExecutionAborted: a call or trace stopped because its request ended
// or timed out (go-ethereum's internal/ethapi text).
var errExecutionAborted = errors.New("execution aborted (timeout or cancelled)")

// invalidParamsError is an error sent with code -32602 (invalid params), as
// go-ethereum's filter and API errors of that kind are (l1-evm.md §1.1).
type invalidParamsError struct{ msg string }

func (e *invalidParamsError) Error() string  { return e.msg }
func (e *invalidParamsError) ErrorCode() int { return -32602 }

func invalidParams(format string, args ...any) error {
	return &invalidParamsError{msg: fmt.Sprintf(format, args...)}
}

// State and block override errors: go-ethereum's texts
// (internal/ethapi/override), except balanceOverflowError and
// errOverrideNumber, which go-ethereum does not check.

func overriddenByPrecompileError(addr common.Address) error {
	return fmt.Errorf("account %s has already been overridden by a precompile", addr.Hex())
}

func notPrecompileError(addr common.Address) error {
	return fmt.Errorf("account %s is not a precompile", addr.Hex())
}

func alreadyOverriddenError(addr common.Address) error {
	return fmt.Errorf("account %s is already overridden", addr.Hex())
}

func bothStateAndDiffError(addr common.Address) error {
	return fmt.Errorf("account %s has both 'state' and 'stateDiff'", addr.Hex())
}

func balanceOverflowError(addr common.Address) error {
	return fmt.Errorf("balance override of account %s exceeds 256 bits", addr.Hex())
}

var (
	errOverrideBeaconRoot  = errors.New(`block override "beaconRoot" is not supported for this RPC method`)
	errOverrideWithdrawals = errors.New(`block override "withdrawals" is not supported for this RPC method`)
	errOverrideNumber      = errors.New("block override number exceeds 64 bits")
)

// Log and filter errors: go-ethereum's texts and codes (eth/filters/api.go,
// filter.go), which ethers and viem users see from any go-ethereum node.
var (
	errInvalidTopic         = &invalidParamsError{msg: "invalid topic(s)"}
	errInvalidBlockRange    = &invalidParamsError{msg: "invalid block range params"}
	errBlockRangeIntoFuture = &invalidParamsError{msg: "block range extends beyond current head block"}
	errFilterNotFound       = errors.New("filter not found")
	errExceedMaxTopics      = errors.New("exceed max topics")
	errUnknownLogsBlock     = errors.New("unknown block")
	errBothHashAndRange     = errors.New("cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other")
	errInvalidAddresses     = errors.New("invalid addresses in query")
)

// blockRangeCapError: an eth_getLogs range longer than the configured cap
// (Config.LogsBlockRangeCap). It starts with go-ethereum's text for its own
// cap (eth/filters/filter.go, code -32602) and says what was asked.
func blockRangeCapError(limit, from, to uint64) error {
	return invalidParams("exceed maximum block range %d: blocks %d to %d are %d blocks", limit, from, to, to-from+1)
}

func addressAtIndexError(i int, err error) error {
	return fmt.Errorf("invalid address at index %d: %w", i, err)
}

func nonStringAddressError(i int) error {
	return fmt.Errorf("non-string address at index %d", i)
}

func invalidAddressError(err error) error {
	return fmt.Errorf("invalid address: %w", err)
}

func hexLengthError(n, want int, what string) error {
	return fmt.Errorf("hex has invalid length %d after decoding; expected %d for %s", n, want, what)
}

// eth_feeHistory errors: go-ethereum's texts (eth/gasprice/feehistory.go).
var (
	errInvalidPercentile = errors.New("invalid reward percentile")
	errRequestBeyondHead = errors.New("request beyond head block")
)

// eth_getProof errors: go-ethereum's texts (internal/ethapi/api.go).

func tooManyProofKeysError(limit, n int) error {
	return invalidParams("too many storage keys requested (max %d, got %d)", limit, n)
}

func storageKeyError(err error, key string) error {
	return invalidParams("%v: %q", err, key)
}

var errStorageKeyTooLong = errors.New("storage key too long (want at most 32 bytes)")

// Tracing errors: go-ethereum's texts (eth/tracers/api.go).
var (
	errTxNotFound          = errors.New("transaction not found")
	errGenesisNotTraceable = errors.New("genesis is not traceable")
	errTraceTimeout        = errors.New("execution timeout")
)

func tracingFailedError(err error) error {
	return fmt.Errorf("tracing failed: %w", err)
}

// accessListApplyError: eth_createAccessList could not apply the call
// (go-ethereum's internal/ethapi text).
func accessListApplyError(tx common.Hash, err error) error {
	return fmt.Errorf("failed to apply transaction: %v err: %w", tx, err)
}

// unknownTracerError: debug_trace* named a tracer this node does not have.
// go-ethereum would try the name as JavaScript; this node links no
// JavaScript engine.
func unknownTracerError(name string) error {
	return fmt.Errorf("tracer %q not found: this node has the struct logger and go-ethereum's native tracers (callTracer, prestateTracer, 4byteTracer, flatCallTracer, muxTracer, noopTracer), not JavaScript tracers", name)
}

// txIndexError: debug_traceCall's txIndex is past the block's transactions
// (go-ethereum's text, core/state_transition's StateAtTransaction).
func txIndexError(idx int, block common.Hash) error {
	return fmt.Errorf("transaction index %d out of range for block %#x", idx, block)
}

// replayError: re-executing an accepted block failed, which only a corrupt
// database can cause.
func replayError(block, tx common.Hash, err error) error {
	return fmt.Errorf("replay block %s: transaction %s: %w", block, tx, err)
}

// Transaction-argument errors of eth_fillTransaction, eth_signTransaction
// and eth_resend: go-ethereum's texts (internal/ethapi/transaction_args.go,
// api.go), which its TransactionArgs.setDefaults and the methods return.
var (
	errZeroMaxFee         = errors.New("maxFeePerGas must be non-zero")
	errZeroGasPrice       = errors.New("gasPrice must be non-zero after london fork")
	errFeesBeforeLondon   = errors.New("maxFeePerGas and maxPriorityFeePerGas are not valid before London is active")
	errCreateWithoutData  = errors.New(`contract creation without any data provided`)
	errGasNotSpecified    = errors.New("gas not specified")
	errFeesNotSpecified   = errors.New("missing gasPrice or maxFeePerGas/maxPriorityFeePerGas")
	errNonceNotSpecified  = errors.New("nonce not specified")
	errResendWithoutNonce = errors.New("missing transaction nonce in transaction spec")
)

func maxFeeBelowTipError(maxFee, tip *hexutil.Big) error {
	return fmt.Errorf("maxFeePerGas (%v) < maxPriorityFeePerGas (%v)", maxFee, tip)
}

func chainIDMismatchError(have, want *big.Int) error {
	return fmt.Errorf("chainId does not match node's (have=%v, want=%v)", have, want)
}

// txFeeCapError: go-ethereum's checkTxFee text, for a fee above its
// default RPC fee cap (rpcTxFeeCap).
func txFeeCapError(fee, limit float64) error {
	return fmt.Errorf("tx fee (%.2f ether) exceeds the configured cap (%.2f ether)", fee, limit)
}

func resendNotFoundError(h common.Hash) error {
	return fmt.Errorf("transaction %#x not found", h)
}

// errUnknownAccount is go-ethereum's accounts.ErrUnknownAccount: the answer
// of eth_sendTransaction, eth_sign, eth_signTransaction and eth_resend on a
// go-ethereum node that holds no key for the sender. This node holds no
// keys at all (eth_accounts is empty).
var errUnknownAccount = errors.New("unknown account")

// Raw data errors of debug_getRawHeader and debug_getRawBlock: go-ethereum's
// texts (internal/ethapi/api.go), which print the hash with %d, as a list
// of its 32 bytes in decimal.

func rawHeaderNotFoundError(h common.Hash) error {
	return fmt.Errorf("header #%d not found", h)
}

func rawBlockNotFoundError(h common.Hash) error {
	return fmt.Errorf("block #%d not found", h)
}

// eth_getStorageValues errors: go-ethereum's texts and codes
// (internal/ethapi/api.go; -38026 is its "client limit exceeded").
var errEmptyStorageRequest = invalidParams("empty request")

// clientLimitError is an error with go-ethereum's code -38026.
type clientLimitError struct{ msg string }

func (e *clientLimitError) Error() string  { return e.msg }
func (e *clientLimitError) ErrorCode() int { return -38026 }

func tooManySlotsError(limit int) error {
	return &clientLimitError{msg: fmt.Sprintf("too many slots (max %d)", limit)}
}

// txSyncTimeoutError is eth_sendRawTransactionSync's answer when the
// transaction was pooled but not accepted in time: go-ethereum's text,
// code 4 and the transaction hash as data (internal/ethapi/errors.go,
// EIP-7966).
type txSyncTimeoutError struct {
	timeout time.Duration
	hash    common.Hash
}

func (e *txSyncTimeoutError) Error() string {
	return fmt.Sprintf("The transaction was added to the transaction pool but wasn't processed in %v", e.timeout)
}
func (e *txSyncTimeoutError) ErrorCode() int { return 4 }
func (e *txSyncTimeoutError) ErrorData() any { return e.hash.Hex() }

// errSubClosed: the accepted-block feed ended under
// eth_sendRawTransactionSync (go-ethereum's text).
var errSubClosed = errors.New("chain subscription closed")

// Bad-block and raw-block trace errors: go-ethereum's texts
// (eth/tracers/api.go).

func badBlockNotFoundError(h common.Hash) error {
	return fmt.Errorf("bad block %#x not found", h)
}

func intermediateBlockNotFoundError(h common.Hash) error {
	return fmt.Errorf("block %#x not found", h)
}

func decodeTraceBlockError(err error) error {
	return fmt.Errorf("could not decode block: %w", err)
}

// gasUsedError: a block uses more gas than the ACP-176 capacity holds.
func gasUsedError(err error) error {
	return fmt.Errorf("invalid gas used: %w", err)
}

// Warp API texts (l1-evm.md §5.7). The reference's inner "not found" is its database's text;
// ours is reworded to it.
var (
	// errWarpNotFound is the reference's text for an unknown message or block.
	errWarpNotFound = errors.New("not found")
	// errWarpNoKey: the node has no BLS key to sign with (a node built without one, in tests).
	errWarpNoKey = errors.New("this node has no BLS key")
	// errWarpNoAggregator: the VM runs outside a node, which gathers signatures.
	errWarpNoAggregator = errors.New("this node has no signature aggregator")
)

// warpNotFound returns errWarpNotFound for storage's not-found, err otherwise.
func warpNotFound(err error) error {
	if errors.Is(err, storage.ErrNotFound) {
		return errWarpNotFound
	}
	return err
}

// warpGetMessageError is warp_getMessage's (and the signature methods') text for a message
// that cannot be read.
func warpGetMessageError(id ids.ID, err error) error {
	return fmt.Errorf("failed to get message %s with error %w", id, warpNotFound(err))
}

// warpMessageSignatureError is warp_getMessageSignature's text for a failed signature.
func warpMessageSignatureError(id ids.ID, err error) error {
	return fmt.Errorf("failed to get signature for message %s with error %w", id, err)
}

// warpBlockSignatureError is warp_getBlockSignature's text: the reference's verifier error
// (code 2) wrapped by the API's.
func warpBlockSignatureError(id ids.ID, err error) error {
	return fmt.Errorf("failed to get signature for block %s with error failed to validate block message: 2: failed to get block %s: %w", id, id, warpNotFound(err))
}

// warpSubnetIDError is the aggregate methods' text for a subnetID that is not CB58.
func warpSubnetIDError(s string) error {
	return fmt.Errorf("failed to parse subnetID: %q", s)
}

// errHandlerCrashed is go-ethereum's answer for a method that panicked (rpc/service.go's
// callback.call: its text, code -32603); the developer methods' front answers a panic so too.
var errHandlerCrashed error = handlerCrashedError{}

type handlerCrashedError struct{}

func (handlerCrashedError) Error() string  { return "method handler crashed" }
func (handlerCrashedError) ErrorCode() int { return -32603 }
