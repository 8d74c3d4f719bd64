package chains

import (
	"errors"
	"fmt"

	"github.com/cornice-node/cornice/ids"
)

// The texts below reach JSON-RPC clients as they are (the info and admin
// services send err.Error()), so each one cites the reference it copies.
var (
	// ErrNoIDWithAlias: the alias names no chain ID. Text as
	// info.getBlockchainID's, node-api.md §3.3.
	ErrNoIDWithAlias = errors.New("there is no ID with alias")
	// ErrNoAliasForID: the ID has no alias. Text as in node-api.md §3.11
	// (info.peers' benched lookup).
	ErrNoAliasForID = errors.New("there is no alias for ID")
	// ErrAliasInUse: the alias already names an ID. Text as the reference
	// aliaser's (ids/aliases.go, which admin.aliasChain reports).
	ErrAliasInUse = errors.New("alias already mapped to an ID")
	// ErrNoChain: no chain has this alias or ID. Text as
	// info.isBootstrapped's, node-api.md §3.2; see noChainError.
	ErrNoChain = errors.New("there is no chain with alias/ID")
	// ErrAliasIsID: the alias is an ID's CB58 string and would shadow it.
	// cornice's own text: the reference does not check this.
	ErrAliasIsID = errors.New("alias cannot be an ID string")
	// ErrEmptyAlias: Alias was given "". cornice's own text.
	ErrEmptyAlias = errors.New("alias cannot be empty")
	// ErrRegistered: Register was called twice for one chain. A
	// programming error; no client sees it.
	ErrRegistered = errors.New("chain already registered")
)

// noIDWithAliasError is `there is no ID with alias: <alias>`; for "" the
// text ends with "alias: " (node-api.md §3.3, verified).
func noIDWithAliasError(alias string) error {
	return fmt.Errorf("%w: %s", ErrNoIDWithAlias, alias)
}

// noAliasForIDError is `there is no alias for ID: <id>` (node-api.md §3.11).
func noAliasForIDError(id ids.ID) error {
	return fmt.Errorf("%w: %s", ErrNoAliasForID, id)
}

// aliasInUseError is `alias already mapped to an ID: <alias>`.
func aliasInUseError(alias string) error {
	return fmt.Errorf("%w: %s", ErrAliasInUse, alias)
}

// aliasIsIDError is `alias cannot be an ID string: <alias>`.
func aliasIsIDError(alias string) error {
	return fmt.Errorf("%w: %s", ErrAliasIsID, alias)
}

// registeredError names the chain registered twice.
func registeredError(id ids.ID) error {
	return fmt.Errorf("%w: %s", ErrRegistered, id)
}

// noChainError is `there is no chain with alias/ID '<chain>'`, the input
// echoed inside single quotes (node-api.md §3.2). It matches ErrNoChain.
func noChainError(chain string) error {
	return &textError{
		msg:      fmt.Sprintf("there is no chain with alias/ID '%s'", chain),
		sentinel: ErrNoChain,
	}
}

// textError carries a client-facing text whose shape "%w: %s" cannot give,
// and still matches its sentinel with errors.Is.
type textError struct {
	msg      string
	sentinel error
}

func (e *textError) Error() string { return e.msg }
func (e *textError) Unwrap() error { return e.sentinel }

// Errors of the chain manager and its accept path. No JSON-RPC
// client sees them: they reach the operator, in the node's start-up error,
// its log or its health report, so the texts are cornice's own.
var (
	// ErrManagerClosed: Create was called on a closed Manager.
	ErrManagerClosed = errors.New("chain manager closed")
	// ErrCreated: Create was called twice for one chain.
	ErrCreated = errors.New("chain already created")
	// ErrInvalidSpec: a Spec, ManagerConfig or ManagerDeps is incomplete.
	ErrInvalidSpec = errors.New("invalid chain manager setting")
	// ErrRecovery: at start-up, the VM's last accepted block is not the
	// one the accept path recorded, so something wrote the VM's state outside
	// the block's batch. The chain is refused rather than run on state
	// that may be half a block.
	ErrRecovery = errors.New("chain state does not match its last accepted block")
	// ErrBlockOrder: a block given to the accept path does not extend the
	// last accepted block by one height.
	ErrBlockOrder = errors.New("block does not follow the last accepted block")
	// ErrHalted: the chain stopped after a failed acceptance, or its engine
	// failed; it accepts nothing more until the node restarts.
	ErrHalted = errors.New("chain halted")
	// ErrBootstrapping: the chain's health check fails while it catches up with the network
	// (the reference's "bootstrapped" check fails likewise, naming the subnets).
	ErrBootstrapping = errors.New("chain is bootstrapping")
)

// invalidSpecError names what is wrong with a setting.
func invalidSpecError(what string) error {
	return fmt.Errorf("%w: %s", ErrInvalidSpec, what)
}

// createdError names the chain created twice.
func createdError(id ids.ID) error {
	return fmt.Errorf("%w: %s", ErrCreated, id)
}

// recoveryError says which block the accept path recorded and which one the
// VM reports.
func recoveryError(chainID, storedID ids.ID, storedHeight uint64, vmID ids.ID, vmHeight uint64) error {
	return fmt.Errorf("%w: chain %s: the accept path last accepted %s at height %d, the VM has %s at height %d "+
		"(the VM wrote outside the block's batch)", ErrRecovery, chainID, storedID, storedHeight, vmID, vmHeight)
}

// newChainRecoveryError is recoveryError for a chain with no stored
// pointer, whose VM must therefore be at its genesis block.
func newChainRecoveryError(chainID, vmID ids.ID, vmHeight uint64) error {
	return fmt.Errorf("%w: chain %s: no block was accepted through the accept path, yet the VM has %s at height %d "+
		"(the VM wrote outside the block's batch)", ErrRecovery, chainID, vmID, vmHeight)
}

// blockOrderError describes a built block that does not extend the last
// accepted one.
func blockOrderError(blkID, parent ids.ID, height uint64, lastID ids.ID, lastHeight uint64) error {
	return fmt.Errorf("%w: block %s at height %d has parent %s, want parent %s at height %d",
		ErrBlockOrder, blkID, height, parent, lastID, lastHeight)
}
