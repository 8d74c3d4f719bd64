package exchange

import (
	"errors"
	"fmt"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/chainapi"
	"github.com/cornice-node/cornice/vms/components/utxo"
	"github.com/cornice-node/cornice/vms/exchange/txs"
)

// Verification errors: why a tx or a block is refused. avm.issueTx sends them to the client as
// they are (code -32000, reference/platform-exchange.md §6.5: "Errors are returned raw"). The
// texts are worded after the reference node's vms/avm and vms/secp256k1fx, which §3.3 and §6.2
// cite; the reference document quotes only the missing-UTXO one, pinned by a test.
var (
	// ErrMemoTooLarge refuses a memo of more than MaxMemoSize bytes (§6.2).
	ErrMemoTooLarge = errors.New("memo is too large")
	// ErrUnsupportedTx refuses the tx kind this VM does not execute: OperationTx (no
	// nftfx/propertyfx operations yet).
	ErrUnsupportedTx = txs.ErrUnsupportedTx
	// ErrNameInvalid, ErrSymbolInvalid, ErrDenominationTooLarge, ErrNoInitialStates,
	// ErrStatesNotSortedUnique and ErrUnknownFx refuse a CreateAssetTx (§6.2).
	ErrNameInvalid           = errors.New("asset name must be 1-128 letters, digits and inner spaces")
	ErrSymbolInvalid         = errors.New("asset symbol must be 1-4 upper-case letters")
	ErrDenominationTooLarge  = errors.New("denomination is too large")
	ErrNoInitialStates       = errors.New("asset must have at least one initial state")
	ErrStatesNotSortedUnique = errors.New("initial states not sorted and unique")
	ErrUnknownFx             = errors.New("unknown feature extension")
	// ErrNoImportInputs refuses an ImportTx that imports nothing (the reference's avm syntactic
	// verifier).
	ErrNoImportInputs = errors.New("no import inputs")
	// A wrong network or chain ID, a wrong number of credentials, insufficient funds, an
	// overflow, a missing UTXO, an export without outputs, unsorted outputs and inputs, and an
	// input's spend check fail with the sentinels of vms/components/utxo (utxo.ErrWrongNetworkID,
	// utxo.ErrInsufficientFunds, utxo.ErrWrongSig, ...), listed there once for both chains.
	// The mempool's refusals (a duplicate, too large a tx, a full mempool, a conflicting import)
	// are the sentinels of vms/internal/mempool, sent raw.
)

// Block errors: a block that fails them is never accepted (the pipeline drops it).
var (
	// ErrNoTxs refuses a block without txs (§6.1).
	ErrNoTxs = errors.New("block contains no transactions")
	// ErrMerkleRoot refuses a block with a merkle root set (§6.1).
	ErrMerkleRoot = errors.New("block has a non-empty merkle root")
	// ErrBlockTime refuses a block older than its parent or more than MaxFutureBlockTime ahead.
	ErrBlockTime = errors.New("block timestamp is out of range")
)

// utxoNotFoundError is the error of an input whose UTXO is unknown or spent, as the reference
// words it: `failed to get utxo <utxoID>: not found` (§6.5).
func utxoNotFoundError(utxoID ids.ID) error {
	return fmt.Errorf("failed to get utxo %s: %w", utxoID, utxo.ErrUTXONotFound)
}

// unsupportedTxError refuses a kind this VM does not execute. It names the kind as
// "*exchange.<Kind>", as the text has read since the kinds lived in this package.
func unsupportedTxError(kind string) error {
	return fmt.Errorf("%w: *exchange.%s", ErrUnsupportedTx, kind)
}

// transferError prefixes the failure of input i's spend check: `failed to verify transfer: …`
// (§6.5).
func transferError(err error) error {
	return fmt.Errorf("failed to verify transfer: %w", err)
}

// Texts of the avm service (§6.5). Every error goes out as JSON-RPC code -32000 with its text as
// the message: the jsonrpc engine's mapping for errors that are not a *jsonrpc.Error.
var (
	// errNilTxID answers getTx and getTxStatus without a tx ID (§6.5).
	errNilTxID = errors.New("nil transaction ID")
	// errNotFound answers getTx for a tx that is not accepted (§6.5), in the words of the
	// shared getBlock's.
	errNotFound = chainapi.ErrNotFound
	// errNotAsset answers getAssetDescription for a tx that is not a CreateAssetTx (§6.5).
	errNotAsset = errors.New("transaction doesn't create an asset")
	// errInternal answers a call that failed for a reason the client cannot act on (a database
	// error); the cause is logged. The text is ours, as the jsonrpc engine's for a panic.
	errInternal = errors.New("internal error")
)

// unknownAssetError answers a call naming an asset that is neither an alias nor an ID.
func unknownAssetError(s string) error {
	return fmt.Errorf("unknown asset ID or alias: %q", s)
}

// encodeError answers a call asking for raw bytes in an encoding that cannot render them.
func encodeError(what string, enc ids.Encoding, err error) error {
	return fmt.Errorf("couldn't encode %s as %s: %w", what, enc, err)
}
