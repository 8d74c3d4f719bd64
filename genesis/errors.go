package genesis

import (
	"errors"

	"github.com/cornice-node/cornice/vms/address"
)

// Config errors. They reach an operator who starts a node with a custom genesis; the texts are
// worded after the reference node's genesis validation (genesis/genesis.go, cited in
// reference/platform-exchange.md §7), which the reference document does not quote.
var (
	// ErrNoSupply is returned when the allocations hold no funds.
	ErrNoSupply = errors.New("initial supply must be > 0")
	// ErrSupplyOverflow is returned when the allocations add up to more than 2^64-1 nAVAX.
	ErrSupplyOverflow = errors.New("initial supply overflows uint64")
	// ErrNoStakeDuration is returned for an initialStakeDuration of 0.
	ErrNoStakeDuration = errors.New("initial stake duration must be > 0")
	// ErrNoStakers is returned when the config has no initial stakers.
	ErrNoStakers = errors.New("initial stakers must be > 0")
	// ErrInitialStakeDurationTooLow is returned when the stakers' staggered end times would reach
	// back past the start time.
	ErrInitialStakeDurationTooLow = errors.New("initial stake duration is too low")
	// ErrNoInitiallyStakedFunds is returned when initialStakedFunds is empty.
	ErrNoInitiallyStakedFunds = errors.New("initial staked funds cannot be empty")
	// ErrDuplicateInitiallyStakedAddress is returned when an address is twice in initialStakedFunds.
	ErrDuplicateInitiallyStakedAddress = errors.New("duplicate initially staked address")
	// ErrNoAllocationToStake is returned when an address in initialStakedFunds has no allocation.
	ErrNoAllocationToStake = errors.New("no allocation to stake")
	// ErrAllocationsLockedAmountTooLow is returned when the unlock schedules hold less than one
	// nAVAX per initial staker.
	ErrAllocationsLockedAmountTooLow = errors.New("total allocations locked amount is too low")
	// ErrNoCChainGenesis is returned when cChainGenesis is empty.
	ErrNoCChainGenesis = errors.New("C-Chain genesis cannot be empty")
	// ErrNoSigner is returned for an initial staker without a BLS signer. The reference makes an
	// AddValidatorTx for such a staker; cornice supports only permissionless (BLS) validators.
	ErrNoSigner = errors.New("initial staker has no signer")
)

// Address and field errors (§2.4).
var (
	// ErrInvalidAddress is returned for a chain address that is not `<alias>-<bech32>` of a
	// 20-byte address: address.ErrInvalidAddress, which address.Parse wraps.
	ErrInvalidAddress = address.ErrInvalidAddress
	// ErrInvalidETHAddress is returned for an ethAddr that is not 20 hex-encoded bytes.
	ErrInvalidETHAddress = errors.New("invalid ETH address")
	// ErrInvalidSigner is returned for a signer whose key or proof of possession has the wrong
	// length or is not hex.
	ErrInvalidSigner = errors.New("invalid signer")
)
