package evm

import (
	"errors"
	"fmt"

	"github.com/cornice-node/cornice/ids"
)

// Errors of the C-Chain's atomic txs and of the avax API, with the reference's texts (coreth's
// plugin/evm/atomic: its semantic verifier, mempool and avax service).
var (
	errInsufficientFunds          = errors.New("insufficient funds")
	errInvalidNonce               = errors.New("invalid nonce")
	errAssetIDMismatch            = errors.New("asset IDs in the input don't match the utxo")
	errConflictingAtomicInputs    = errors.New("invalid block due to conflicting atomic inputs")
	errPublicKeySignatureMismatch = errors.New("signature doesn't match public key")
	errConflictingAtomicTx        = errors.New("conflicting atomic tx present")
	errTooManyAtomicTxs           = errors.New("too many atomic tx")
	errNoSourceChain              = errors.New("no source chain provided")
	errNilTxID                    = errors.New("nil transaction ID")
	// errNotFound is the database's text for a missing shared-memory UTXO.
	errNotFound = errors.New("not found")
	// errAtomicGas: a block's atomic txs use more gas than is left after its EVM txs. The text
	// is ours.
	errAtomicGas = errors.New("atomic txs exceed the block's remaining gas capacity")
	// errAtomicBlock: a block's ExtData and its header's commitment to it disagree. The text is
	// ours (the reference's header has an ExtDataHash field; ours uses MixDigest,
	// docs/decisions.md).
	errAtomicBlock = errors.New("block's atomic txs do not match its header's mix digest")
)

func flowCheckError(kind string) error {
	return fmt.Errorf("%s tx flow check failed due to: %w", kind, errInsufficientFunds)
}

func credentialCountError(kind string, ins, creds int) error {
	return fmt.Errorf("%s tx contained mismatched number of inputs/credentials (%d vs. %d)", kind, ins, creds)
}

func fetchUTXOsError(chain ids.ID, err error) error {
	return fmt.Errorf("failed to fetch import UTXOs from %s due to: %w", chain, err)
}

func signatureCountError(n int) error {
	return fmt.Errorf("expected one signature for EVM Input Credential, but found: %d", n)
}

func conflictingAtomicTxError(id ids.ID, price uint64, other ids.ID, otherPrice uint64, n int) error {
	return fmt.Errorf("%w: issued tx (%s) gas price %d <= conflict tx (%s) gas price %d (%d total conflicts in mempool)",
		errConflictingAtomicTx, id, price, other, otherPrice, n)
}

func couldNotFindTxError(id ids.ID) error { return fmt.Errorf("could not find tx %s", id) }

// rewindAtomicError refuses a developer's roll-back past a block with atomic txs: what they did
// to the other chains' shared memory is not rolled back with it. The text is ours.
func rewindAtomicError(height uint64) error {
	return fmt.Errorf("cannot roll back past block %d: it carries atomic txs, whose effects on the X- and P-Chains stay", height)
}
