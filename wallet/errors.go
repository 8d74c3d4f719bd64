package wallet

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/cornice-node/cornice/ids"
)

// Errors of the wallet. They are ours: the reference node has no wallet of its own, and its
// Go wallet (wallet/chain/x) words them differently. The node's refusals come back as *jsonrpc.Error
// with the node's text (platform-exchange.md §6.5: issueTx errors are returned raw).
var (
	// ErrInvalidKey is returned for a private key that is neither `PrivateKey-<CB58>` nor 32 bytes
	// of hex, or is not a valid secp256k1 scalar.
	ErrInvalidKey = errors.New("invalid private key")
	// ErrLocalKeyRefused refuses the well-known local key (§2.5) on a network other than local
	// and custom ones: anyone can spend what it owns.
	ErrLocalKeyRefused = errors.New("the well-known local key is only for local and custom networks")
	// ErrInsufficientFunds is returned when the key's spendable UTXOs do not cover the amounts
	// and the fee.
	ErrInsufficientFunds = errors.New("insufficient funds")
	// ErrNothingToImport is returned when the source chain exported no AVAX UTXO the key can
	// spend alone to the key's address.
	ErrNothingToImport = errors.New("nothing to import: the source chain exported no AVAX to this key")
	// ErrZeroAmount refuses sending or minting nothing: outputs must have a value (§3.1).
	ErrZeroAmount = errors.New("amount must be greater than zero")
	// ErrWrongChain refuses an address of another chain or network.
	ErrWrongChain = errors.New("not an address of this chain")
	// ErrNotAccepted is returned when a tx is not accepted in the time given.
	ErrNotAccepted = errors.New("not accepted in time")
	// ErrNotSubnetOwner refuses to build a CreateChainTx the key cannot authorize alone: it is not
	// among the subnet's owners, or they need more than one signature (§4.4).
	ErrNotSubnetOwner = errors.New("the key is not the subnet's sole required owner")
	// ErrNoOwner refuses a subnet without an owner: nobody could ever authorize a chain on it.
	ErrNoOwner = errors.New("a subnet needs at least one owner")
	// ErrInvalidURI refuses a node URI that is not an absolute http or https URL.
	ErrInvalidURI = errors.New("invalid node URI")
	// ErrChainNotUp is returned by CreateL1 when the new L1's chain did not answer eth_chainId in
	// time. The text is `cornice l1 create`'s own.
	ErrChainNotUp = errors.New("the L1 chain did not answer in time")
	// ErrChainIDInUse refuses a new L1 whose EVM chain ID another chain has. cornice's own text.
	ErrChainIDInUse = errors.New("EVM chain ID already in use")
)

// insufficientFundsError names the asset and the amounts.
func insufficientFundsError(assetID ids.ID, have, need uint64) error {
	return fmt.Errorf("%w: asset %s: spendable %d, need %d", ErrInsufficientFunds, assetID, have, need)
}

// notAcceptedError names the tx and its last status.
func notAcceptedError(txID ids.ID, status string) error {
	return fmt.Errorf("tx %s: %w (status %s)", txID, ErrNotAccepted, status)
}

// l1GenesisError reports a genesis CreateL1 refuses before any tx, with the text the node gives
// for it (l1-evm.md §4.1).
func l1GenesisError(err error) error {
	return fmt.Errorf("L1 genesis: %w", err)
}

// chainIDInUseError names the chain ID and the chain that has it.
func chainIDInUseError(id *big.Int, user string) error {
	return fmt.Errorf("%w: %s is the chain ID of %s, so a transaction signed for one would be valid on the other", ErrChainIDInUse, id, user)
}

// chainNotUpError names the endpoint of the chain that did not answer and its last answer.
func chainNotUpError(rpcURL string, last error) error {
	return fmt.Errorf("%w: %s: %w", ErrChainNotUp, rpcURL, last)
}
