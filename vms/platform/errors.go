package platform

import (
	"errors"
	"fmt"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/chainapi"
	"github.com/cornice-node/cornice/vms/components/utxo"
	"github.com/cornice-node/cornice/vms/internal/mempool"
	"github.com/cornice-node/cornice/vms/platform/txs"
)

// Verification errors: why a tx or a block is refused. platform.issueTx sends them to the client
// behind "couldn't issue tx: failed verification: " (reference/platform-exchange.md §5.1). The
// reference document quotes only the missing-UTXO text (pinned by a test); the others are worded
// after the reference node's vms/platformvm and vms/secp256k1fx, which §3.3, §4.2–§4.4 cite.
var (
	// ErrMemoNotEmpty refuses a memo: it must be empty on the P-Chain since Durango (§4.2).
	ErrMemoNotEmpty = errors.New("memo must be empty")
	// ErrUnsupportedTx refuses a proposal block carrying decision txs, which this VM never
	// builds.
	ErrUnsupportedTx = txs.ErrUnsupportedTx
	// ErrWrongOutputType and ErrWrongInputType refuse outputs and inputs that are not secp256k1fx
	// transfers (locked outputs are only made by the genesis and staking).
	ErrWrongOutputType = errors.New("output is not a secp256k1fx transfer output")
	ErrWrongInputType  = errors.New("input is not a secp256k1fx transfer input")
	// ErrNoImportInputs refuses an ImportTx that imports nothing (the reference's platformvm
	// txs).
	ErrNoImportInputs = errors.New("tx has no imported inputs")
	// A wrong network or chain ID (§4.2), a wrong number of credentials, insufficient funds
	// (§4.8), an overflow, a missing UTXO (§5.1; an ImportTx's reads `failed to get shared
	// memory: not found`, the reference's text), an export without outputs, unsorted outputs and
	// inputs, and an input's spend check fail with the sentinels of vms/components/utxo
	// (utxo.ErrWrongNetworkID, utxo.ErrInsufficientFunds, utxo.ErrWrongSig, ...), listed there
	// once for both chains. The mempool's refusals (a duplicate, too large a tx, a full mempool,
	// a conflicting import) are the sentinels of vms/internal/mempool.

	// ErrPrimaryNetwork refuses a CreateChainTx on the primary network (§4.3).
	ErrPrimaryNetwork = errors.New("can't create a chain on the primary network")
	// ErrNameTooLong, ErrIllegalNameCharacter, ErrInvalidVMID, ErrFxIDsNotSortedUnique and
	// ErrGenesisTooLong refuse a CreateChainTx's own fields (§4.3).
	ErrNameTooLong          = errors.New("name too long")
	ErrIllegalNameCharacter = errors.New("illegal name character")
	ErrInvalidVMID          = errors.New("invalid VM ID")
	ErrFxIDsNotSortedUnique = errors.New("feature extensions IDs must be sorted and unique")
	ErrGenesisTooLong       = errors.New("genesis data too long")
	// ErrSubnetNotFound refuses a tx naming a subnet that does not exist (§4.4).
	ErrSubnetNotFound = errors.New("subnet not found")
	// ErrUnauthorizedSubnetModification refuses a subnet authorization the subnet's owner did not
	// sign (§4.4).
	ErrUnauthorizedSubnetModification = errors.New("unauthorized subnet modification")
	// ErrSubnetImmutable refuses a subnet authorization for a subnet converted to an L1: it has
	// no owner any more (§4.4, verifyPoASubnetAuthorization).
	ErrSubnetImmutable = errors.New("is immutable")
	// ErrConvertPrimaryNetwork refuses converting the primary network (§4.3).
	ErrConvertPrimaryNetwork = errors.New("cannot convert primary network")
	// ErrAddressTooLong refuses a manager address over 4096 bytes (§4.3).
	ErrAddressTooLong = errors.New("address is too long")
	// ErrZeroBalance refuses an IncreaseL1ValidatorBalanceTx that adds nothing (§4.3).
	ErrZeroBalance = errors.New("balance must be greater than 0")
	// ErrL1ValidatorNotFound refuses a tx naming an unknown L1 validator (§4.4).
	ErrL1ValidatorNotFound = errors.New("not found")
	// ErrUnauthorizedL1ValidatorModification refuses a DisableL1ValidatorTx its validator's
	// deactivation owner did not authorize (§4.4).
	ErrUnauthorizedL1ValidatorModification = errors.New("unauthorized L1 validator modification")
	// ErrMaxActiveL1Validators refuses a ConvertSubnetToL1Tx or IncreaseL1ValidatorBalanceTx that
	// would make more L1 validators active than the continuous fee's Capacity (§4.4).
	ErrMaxActiveL1Validators = errors.New("already at the max number of active validators")
	// ErrConvertNoValidators refuses a ConvertSubnetToL1Tx without validators (§4.3).
	ErrConvertNoValidators = errors.New("tx must include at least one validator")
	// ErrValidatorsNotSortedUnique refuses validators not sorted and unique by node ID (§4.3).
	ErrValidatorsNotSortedUnique = errors.New("validators must be sorted and unique")
	// ErrInvalidNodeID refuses a ConvertSubnetToL1 validator's node ID that is not 20 bytes (§4.3).
	ErrInvalidNodeID = errors.New("invalid node ID")
	// ErrZeroWeight refuses a validator of weight 0 (§4.3).
	ErrZeroWeight = errors.New("weight must be non-zero")
	// ErrInvalidProofOfPossession refuses a BLS key whose proof of possession does not verify
	// (§4.3).
	ErrInvalidProofOfPossession = errors.New("invalid proof of possession")
	// ErrAddPrimaryNetworkValidator refuses an AddSubnetValidatorTx for the primary network
	// (§4.3).
	ErrAddPrimaryNetworkValidator = errors.New("can't add primary network validator with AddSubnetValidatorTx")
	// ErrStakingPeriod refuses a subnet validator whose start is not before its end, or whose end
	// is not after the chain time (§4.3).
	ErrStakingPeriod = errors.New("invalid staking period")
	// ErrNotPrimaryValidator refuses a subnet validator that does not validate the Primary
	// Network (§4.3).
	ErrNotPrimaryValidator = errors.New("not a primary network validator")
	// ErrValidatorWindow refuses a subnet validation period outside the node's Primary Network
	// validation period (§4.3).
	ErrValidatorWindow = errors.New("staking period must be a subset of the primary network")
)

// Errors of RegisterL1ValidatorTx and SetL1ValidatorWeightTx (§4.4), in the reference's words
// (avalanchego v1.14.2 vms/platformvm/txs/executor/standard_tx_executor.go, state/l1_validator.go,
// block/executor/manager.go).
var (
	// ErrWarpVerification prefixes a warp message whose signature does not verify against its
	// source subnet's validators: issueTx answers `couldn't issue tx: failed verifying warp
	// messages: <reason>` (no "failed verification" between).
	ErrWarpVerification = errors.New("failed verifying warp messages")
	// ErrUnknownSourceChain refuses a warp message from a chain the P-Chain never created. The
	// text is ours.
	ErrUnknownSourceChain = errors.New("unknown source chain")
	// ErrCouldNotLoadSubnetConversion refuses a message for a subnet that is not an L1.
	ErrCouldNotLoadSubnetConversion = errors.New("could not load subnet conversion")
	// ErrWrongWarpMessageSourceChainID and ErrWrongWarpMessageSourceAddress refuse a message
	// that its L1's manager did not send.
	ErrWrongWarpMessageSourceChainID = errors.New("wrong warp message source chain ID")
	ErrWrongWarpMessageSourceAddress = errors.New("wrong warp message source address")
	// ErrWarpMessageExpired refuses a registration whose expiry is not after the chain time,
	// ErrWarpMessageNotYetAllowed one that expires more than 24 hours after it.
	ErrWarpMessageExpired       = errors.New("warp message expired")
	ErrWarpMessageNotYetAllowed = errors.New("warp message not yet allowed")
	// ErrWarpMessageAlreadyIssued refuses a registration executed before (replay protection).
	ErrWarpMessageAlreadyIssued = errors.New("warp message already issued")
	// ErrCouldNotLoadL1Validator refuses a weight change for an unknown (or removed) validator.
	ErrCouldNotLoadL1Validator = errors.New("could not load L1 validator")
	// ErrWarpMessageContainsStaleNonce refuses a weight change below the validator's minimum
	// nonce.
	ErrWarpMessageContainsStaleNonce = errors.New("warp message contains stale nonce")
	// ErrRemovingLastValidator refuses removing an L1's last validator (by weight).
	ErrRemovingLastValidator = errors.New("attempting to remove the last L1 validator from a converted subnet")
	// ErrStateCorruption refuses a removal that would refund from a balance already spent.
	ErrStateCorruption = errors.New("state corruption")
	// ErrDuplicateL1Validator refuses registering a node that is an L1 validator of the subnet
	// already; ErrConflictingL1Validator one that is a legacy validator of it.
	ErrDuplicateL1Validator   = errors.New("L1 validator contains duplicate subnetID + nodeID pair")
	ErrConflictingL1Validator = errors.New("L1 validator contains conflicting subnetID + nodeID pair")
	// ErrInvalidOwner refuses a registration message whose owners are not valid P-Chain owners.
	ErrInvalidOwner = errors.New("invalid owner")
)

// Block errors: a block that fails them is never accepted (the pipeline drops it).
var (
	// ErrNoTxs refuses a standard block without txs: "BanffStandardBlock performs no state
	// changes" (§4.1).
	ErrNoTxs = errors.New("BanffStandardBlock performs no state changes")
	// ErrBlockTime refuses a block older than its parent or more than MaxFutureBlockTime ahead of
	// the node's clock (§4.1).
	ErrBlockTime = errors.New("block timestamp is out of range")
	// ErrWrongBlockType refuses a block that is not a Banff standard block.
	ErrWrongBlockType = txs.ErrWrongBlockType
	// ErrInsufficientCapacity refuses a block whose gas exceeds the fee state's capacity (§4.1,
	// §4.8).
	ErrInsufficientCapacity = errors.New("insufficient capacity")
)

// utxoNotFoundError is the error of an input whose UTXO is unknown or spent, as the reference
// words it: `failed to read consumed UTXO <txID>:<index> due to: not found` (§5.1).
func utxoNotFoundError(txID ids.ID, index uint32) error {
	return fmt.Errorf("failed to read consumed UTXO %s:%d due to: %w", txID, index, utxo.ErrUTXONotFound)
}

// errSharedMemoryNotFound refuses an ImportTx whose imported UTXO shared memory does not hold, in
// the reference's words: `failed to get shared memory: not found` (mempool.ImportError).
var errSharedMemoryNotFound = fmt.Errorf("failed to get shared memory: %w", utxo.ErrUTXONotFound)

// executionError prefixes a tx's failed execution as the reference does: `failed execution:
// standard tx <txID> failed execution: …` (§5.1).
func executionError(txID ids.ID, err error) error {
	return fmt.Errorf("failed execution: standard tx %s failed execution: %w", txID, err)
}

// subnetNotFoundError names the missing subnet.
func subnetNotFoundError(id ids.ID) error {
	return fmt.Errorf("%w: %s", ErrSubnetNotFound, id)
}

// Texts of the platform service (§5.1). Every error goes out as JSON-RPC code -32000 with its text
// as the message.
var (
	// errTxNotFound answers getTx for a tx that is not committed (§5.1).
	errTxNotFound = errors.New("couldn't get tx: not found")
	// errNotFound answers getSubnet for an unknown subnet (§5.1), in the words of the shared
	// getBlock's.
	errNotFound = chainapi.ErrNotFound
	// errPrimaryNotSubnet answers getSubnet for the primary network (§5.1).
	errPrimaryNotSubnet = errors.New("the primary network isn't a subnet")
	// errNoBlockchainID answers getBlockchainStatus without a blockchain ID (§5.1).
	errNoBlockchainID = errors.New("argument 'blockchainID' not given")
	// errInternal answers a call that failed for a reason the client cannot act on (a database
	// error); the cause is logged. The text is ours.
	errInternal = errors.New("internal error")
)

// parseTxError answers issueTx with bytes that are not a tx: `couldn't parse tx: …` (§5.1).
func parseTxError(err error) error {
	return fmt.Errorf("couldn't parse tx: %w", err)
}

// issueError answers issueTx with a tx that fails verification: `couldn't issue tx: failed
// verification: …` (§5.1), or, for a conflict with a pending tx, the reference mempool's
// `couldn't issue tx: tx conflicts with other tx: <txID>`.
func issueError(err error) error {
	if errors.Is(err, mempool.ErrConflictsWithOtherTx) || errors.Is(err, ErrWarpVerification) {
		return fmt.Errorf("couldn't issue tx: %w", err)
	}
	return fmt.Errorf("couldn't issue tx: failed verification: %w", err)
}

// encodeError answers a call asking for raw bytes in an encoding that cannot render them.
func encodeError(what string, err error) error {
	return fmt.Errorf("couldn't encode %s: %w", what, err)
}

// l1ValidatorNotFoundError answers getL1Validator for an unknown validation ID:
// `fetching L1 validator "<ID>" failed: not found` (§5.1).
func l1ValidatorNotFoundError(id ids.ID) error {
	return fmt.Errorf("fetching L1 validator %q failed: %w", id.String(), errNotFound)
}

// unfinalizedHeightError answers getValidatorsAt for a height above the last accepted block's,
// in the reference's words (§5.1): `failed to get validator set at 9999: failed to fetch validator
// set at unfinalized height with SubnetID = <ID>: current P-chain height (6) < requested P-Chain
// height (9999)`.
func unfinalizedHeightError(height uint64, subnetID ids.ID, current uint64) error {
	return fmt.Errorf("failed to get validator set at %d: failed to fetch validator set at unfinalized height with SubnetID = %s: current P-chain height (%d) < requested P-Chain height (%d)",
		height, subnetID, current, height)
}

// Texts of the staking and validator-set methods of the platform service. The reference document
// lists them without detail (§5.1 "Others present"); the texts are the reference node's own
// (avalanchego v1.14.2 vms/platformvm/service.go, validators/manager.go, snow/validators), which
// its client shows the caller behind JSON-RPC code -32000.
var (
	// errMissingValidators answers sampleValidators on a subnet without validators
	// (snow/validators ErrMissingValidators).
	errMissingValidators = errors.New("missing validators")
	// errInsufficientWeight answers sampleValidators asking for more units of weight than the
	// set has (snow/validators errInsufficientWeight).
	errInsufficientWeight = errors.New("insufficient weight")
	// errWeightOverflow refuses a validator set whose total weight exceeds 2^64-1 (never the
	// case: every set's weights are verified to add up). The text is ours.
	errWeightOverflow = errors.New("total weight overflows uint64")
)

// MaxGetStakeAddrs is the most addresses platform.getStake takes (the reference's
// maxGetStakeAddrs).
const MaxGetStakeAddrs = 256

// noTransformationError answers getStakingAssetID and getMinStake for a subnet other than the
// primary network: no tx this VM executes transforms a subnet (TransformSubnetTx is not
// supported), so its staking rules are never found: `failed fetching subnet transformation for
// <ID>: not found`.
func noTransformationError(subnetID ids.ID) error {
	return fmt.Errorf("failed fetching subnet transformation for %s: %w", subnetID, errNotFound)
}

// noSupplyError answers getCurrentSupply for a subnet other than the primary network, which
// never has a supply of its own here: `fetching current supply failed: not found`.
func noSupplyError() error {
	return fmt.Errorf("fetching current supply failed: %w", errNotFound)
}

// samplingError answers sampleValidators that cannot draw: `sampling <subnetID> errored with …`.
func samplingError(subnetID ids.ID, err error) error {
	return fmt.Errorf("sampling %s errored with %w", subnetID, err)
}

// blockchainNotFoundError answers validatedBy for an unknown chain: `problem retrieving
// blockchain "<ID>": not found`.
func blockchainNotFoundError(id ids.ID) error {
	return fmt.Errorf("problem retrieving blockchain %q: %w", id.String(), errNotFound)
}

// notBlockchainError answers validatedBy for a tx ID that is not a CreateChainTx's.
func notBlockchainError(id ids.ID) error {
	return fmt.Errorf("%q is not a blockchain", id.String())
}

// subnetNotFoundAPIError answers validates for an unknown subnet: `problem retrieving subnet
// "<ID>": not found`.
func subnetNotFoundAPIError(id ids.ID) error {
	return fmt.Errorf("problem retrieving subnet %q: %w", id.String(), errNotFound)
}

// notSubnetError answers validates for a tx ID that is not a CreateSubnetTx's.
func notSubnetError(id ids.ID) error {
	return fmt.Errorf("%q is not a subnet", id.String())
}

// unfinalizedSetsError answers getAllValidatorsAt above the last accepted height: `failed to get
// validator sets at <h>: failed to fetch validator set at unfinalized height: current P-chain
// height (<c>) < requested P-Chain height (<h>)`.
func unfinalizedSetsError(height, current uint64) error {
	return fmt.Errorf("failed to get validator sets at %d: failed to fetch validator set at unfinalized height: current P-chain height (%d) < requested P-Chain height (%d)",
		height, current, height)
}

// tooManyStakeAddrsError answers getStake with more than MaxGetStakeAddrs addresses.
func tooManyStakeAddrsError(n int) error {
	return fmt.Errorf("%d addresses provided but this method can take at most %d", n, MaxGetStakeAddrs)
}
