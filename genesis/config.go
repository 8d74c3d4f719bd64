package genesis

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"strings"
	"time"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/address"
	"github.com/cornice-node/cornice/vms/platform/txs"
)

// Config is a network's genesis config (platform-exchange.md §7.1): who holds what on the X- and
// P-Chains, who validates at the start, and the C-Chain's genesis. Amounts are in nAVAX and times
// in unix seconds.
type Config struct {
	NetworkID uint32
	// Allocations are the initial balances, in config order.
	Allocations []Allocation
	// StartTime is the genesis time as written in the config; see StartTimePeriod.
	StartTime uint64
	// InitialStakeDuration is how long the first initial staker validates; each next staker ends
	// InitialStakeDurationOffset seconds earlier.
	InitialStakeDuration       uint64
	InitialStakeDurationOffset uint64
	// InitialStakedFunds are the addresses whose unlock schedules are staked by the initial
	// stakers instead of becoming P-Chain UTXOs.
	InitialStakedFunds []ids.ShortID
	InitialStakers     []Staker
	// CChainGenesis is the C-Chain's genesis JSON, used verbatim as its genesis data (§7.5).
	CChainGenesis string
	Message       string

	// StartTimePeriod, when positive, moves StartTime forward in steps of this length to the
	// latest step that is not after the time given to Build (§7.2). Local sets it to
	// [LocalStartTimePeriod]; ParseConfig leaves it zero, so a custom genesis keeps its start time.
	StartTimePeriod time.Duration
}

// Allocation is one holder's initial balance: InitialAmount on the X-Chain, and the UnlockSchedule
// on the P-Chain (or staked, if AVAXAddr is in InitialStakedFunds).
type Allocation struct {
	// ETHAddr is the holder's Ethereum address; it becomes the memo of the AVAX asset and the
	// message of the holder's P-Chain UTXOs.
	ETHAddr  [20]byte
	AVAXAddr ids.ShortID
	// InitialAmount is the holder's balance on the X-Chain.
	InitialAmount  uint64
	UnlockSchedule []LockedAmount
}

// LockedAmount is an amount that cannot be spent, only staked, before Locktime.
type LockedAmount struct {
	Amount   uint64 `json:"amount"`
	Locktime uint64 `json:"locktime"`
}

// Staker is an initial validator of the Primary Network.
type Staker struct {
	NodeID        ids.NodeID
	RewardAddress ids.ShortID
	// DelegationFee is in parts per million.
	DelegationFee uint32
	// Signer is the validator's BLS key and proof of possession; nil if the config has none,
	// which [Build] refuses (ErrNoSigner).
	Signer *txs.ProofOfPossession
}

// configJSON is the JSON form of Config.
type configJSON struct {
	NetworkID                  uint32           `json:"networkID"`
	Allocations                []allocationJSON `json:"allocations"`
	StartTime                  uint64           `json:"startTime"`
	InitialStakeDuration       uint64           `json:"initialStakeDuration"`
	InitialStakeDurationOffset uint64           `json:"initialStakeDurationOffset"`
	InitialStakedFunds         []string         `json:"initialStakedFunds"`
	InitialStakers             []stakerJSON     `json:"initialStakers"`
	CChainGenesis              string           `json:"cChainGenesis"`
	Message                    string           `json:"message"`
}

type allocationJSON struct {
	ETHAddr        string         `json:"ethAddr"`
	AVAXAddr       string         `json:"avaxAddr"`
	InitialAmount  uint64         `json:"initialAmount"`
	UnlockSchedule []LockedAmount `json:"unlockSchedule"`
}

type stakerJSON struct {
	NodeID        ids.NodeID  `json:"nodeID"`
	RewardAddress string      `json:"rewardAddress"`
	DelegationFee uint32      `json:"delegationFee"`
	Signer        *signerJSON `json:"signer"`
}

type signerJSON struct {
	PublicKey         string `json:"publicKey"`
	ProofOfPossession string `json:"proofOfPossession"`
}

// ParseConfig decodes a genesis config in the JSON format of the reference's genesis files
// (genesis_local.json). Addresses are chain addresses (`X-local1…`); like the reference, any chain
// alias and HRP is accepted. Unknown fields are ignored. It does not validate the config: Build
// does.
func ParseConfig(b []byte) (*Config, error) {
	var raw configJSON
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, fmt.Errorf("decode genesis config: %w", err)
	}
	cfg := &Config{
		NetworkID:                  raw.NetworkID,
		StartTime:                  raw.StartTime,
		InitialStakeDuration:       raw.InitialStakeDuration,
		InitialStakeDurationOffset: raw.InitialStakeDurationOffset,
		CChainGenesis:              raw.CChainGenesis,
		Message:                    raw.Message,
		Allocations:                make([]Allocation, len(raw.Allocations)),
		InitialStakedFunds:         make([]ids.ShortID, len(raw.InitialStakedFunds)),
		InitialStakers:             make([]Staker, len(raw.InitialStakers)),
	}
	var errs []error
	for i, a := range raw.Allocations {
		out := &cfg.Allocations[i]
		var err error
		if out.ETHAddr, err = parseETHAddr(a.ETHAddr); err != nil {
			errs = append(errs, fmt.Errorf("allocation %d: %w", i, err))
		}
		if _, _, out.AVAXAddr, err = address.Parse(a.AVAXAddr); err != nil {
			errs = append(errs, fmt.Errorf("allocation %d: %w", i, err))
		}
		out.InitialAmount = a.InitialAmount
		out.UnlockSchedule = a.UnlockSchedule
	}
	for i, s := range raw.InitialStakedFunds {
		var err error
		if _, _, cfg.InitialStakedFunds[i], err = address.Parse(s); err != nil {
			errs = append(errs, fmt.Errorf("initial staked funds %d: %w", i, err))
		}
	}
	for i, s := range raw.InitialStakers {
		out := &cfg.InitialStakers[i]
		out.NodeID = s.NodeID
		out.DelegationFee = s.DelegationFee
		var err error
		if _, _, out.RewardAddress, err = address.Parse(s.RewardAddress); err != nil {
			errs = append(errs, fmt.Errorf("initial staker %d: %w", i, err))
		}
		if s.Signer != nil {
			if out.Signer, err = parseSigner(s.Signer); err != nil {
				errs = append(errs, fmt.Errorf("initial staker %d: %w", i, err))
			}
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return cfg, nil
}

// parseETHAddr decodes a 0x-prefixed (or bare) hex Ethereum address.
func parseETHAddr(s string) ([20]byte, error) {
	var addr [20]byte
	b, err := hex.DecodeString(strings.TrimPrefix(s, "0x"))
	if err != nil || len(b) != len(addr) {
		return addr, fmt.Errorf("%w %q", ErrInvalidETHAddress, s)
	}
	copy(addr[:], b)
	return addr, nil
}

// parseSigner decodes a signer's hex public key and proof of possession. It checks their lengths
// only: the chain verifies the proof when it matters, and the reference does not verify genesis
// validators' proofs either.
func parseSigner(s *signerJSON) (*txs.ProofOfPossession, error) {
	pop := &txs.ProofOfPossession{}
	key, err := hex.DecodeString(strings.TrimPrefix(s.PublicKey, "0x"))
	if err != nil || len(key) != len(pop.PublicKey) {
		return nil, fmt.Errorf("%w: public key %q", ErrInvalidSigner, s.PublicKey)
	}
	sig, err := hex.DecodeString(strings.TrimPrefix(s.ProofOfPossession, "0x"))
	if err != nil || len(sig) != len(pop.Signature) {
		return nil, fmt.Errorf("%w: proof of possession %q", ErrInvalidSigner, s.ProofOfPossession)
	}
	copy(pop.PublicKey[:], key)
	copy(pop.Signature[:], sig)
	return pop, nil
}

// InitialSupply returns the sum of every allocation's initial amount and unlock schedule: all the
// nAVAX that exist at genesis (§7.3).
func (c *Config) InitialSupply() (uint64, error) {
	var total, carry uint64
	add := func(v uint64) {
		var c uint64
		total, c = bits.Add64(total, v, 0)
		carry |= c
	}
	for _, a := range c.Allocations {
		add(a.InitialAmount)
		for _, u := range a.UnlockSchedule {
			add(u.Amount)
		}
	}
	if carry != 0 {
		return 0, ErrSupplyOverflow
	}
	return total, nil
}

// Validate reports every problem of the config at once: the rules of the reference's genesis
// validation (a positive supply and stake duration, at least one staker, staggered end times that
// fit in the duration, staked funds that are unique and allocated, at least one locked nAVAX per
// staker, a C-Chain genesis), plus cornice's requirement that every staker has a BLS signer.
// Unlike the reference, it does not refuse a start time in the future.
func (c *Config) Validate() error {
	var errs []error
	switch supply, err := c.InitialSupply(); {
	case err != nil:
		errs = append(errs, err)
	case supply == 0:
		errs = append(errs, ErrNoSupply)
	}
	if c.InitialStakeDuration == 0 {
		errs = append(errs, ErrNoStakeDuration)
	}
	if len(c.InitialStakers) == 0 {
		errs = append(errs, ErrNoStakers)
	} else {
		hi, lo := bits.Mul64(c.InitialStakeDurationOffset, uint64(len(c.InitialStakers)-1))
		if hi != 0 || lo > c.InitialStakeDuration {
			errs = append(errs, fmt.Errorf("%w: %d stakers %d s apart need more than %d s",
				ErrInitialStakeDurationTooLow, len(c.InitialStakers), c.InitialStakeDurationOffset, c.InitialStakeDuration))
		}
	}
	for i, s := range c.InitialStakers {
		if s.Signer == nil {
			errs = append(errs, fmt.Errorf("%w: staker %d (%s)", ErrNoSigner, i, s.NodeID))
		}
	}
	errs = append(errs, c.validateStakedFunds()...)
	if c.CChainGenesis == "" {
		errs = append(errs, ErrNoCChainGenesis)
	}
	return errors.Join(errs...)
}

// validateStakedFunds checks that the staked addresses are unique and allocated, and that the
// unlock schedules hold at least one nAVAX per staker.
func (c *Config) validateStakedFunds() []error {
	var errs []error
	if len(c.InitialStakedFunds) == 0 {
		errs = append(errs, ErrNoInitiallyStakedFunds)
	}
	allocated := make(map[ids.ShortID]bool, len(c.Allocations))
	var locked uint64
	for _, a := range c.Allocations {
		// Several allocations may share an address: different ETH addresses can claim to one.
		allocated[a.AVAXAddr] = true
		for _, u := range a.UnlockSchedule {
			var carry uint64
			if locked, carry = bits.Add64(locked, u.Amount, 0); carry != 0 {
				locked = math.MaxUint64 // InitialSupply reports the overflow.
			}
		}
	}
	seen := make(map[ids.ShortID]bool, len(c.InitialStakedFunds))
	for _, addr := range c.InitialStakedFunds {
		if seen[addr] {
			errs = append(errs, fmt.Errorf("%w: %s", ErrDuplicateInitiallyStakedAddress, addr))
		}
		seen[addr] = true
		if !allocated[addr] {
			errs = append(errs, fmt.Errorf("%w in address %s", ErrNoAllocationToStake, addr))
		}
	}
	if locked < uint64(len(c.InitialStakers)) {
		errs = append(errs, fmt.Errorf("%w: %d locked < %d stakers", ErrAllocationsLockedAmountTooLow, locked, len(c.InitialStakers)))
	}
	return errs
}
