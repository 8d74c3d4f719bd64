package precompile

import (
	"errors"
	"maps"
	"math/big"
	"slices"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/tracing"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/core/vm"
	"github.com/ethereum/go-ethereum/params"

	"github.com/cornice-node/cornice/vms/evm/l1params"
)

// Rules are the network-upgrade flags of the block being executed (l1-evm.md §4.4).
type Rules struct {
	// IsDurango: events are logged, extra input padding is accepted, setManager exists.
	IsDurango bool
	// IsGranite: a DELEGATECALL or CALLCODE into a stateful precompile reverts with no gas
	// left; getBlockchainID costs 200 instead of 2.
	IsGranite bool
}

// P256VerifyAddress is the address of P256VERIFY (RIP-7212), a precompile from Granite on,
// warm at every transaction's start (l1-evm.md §5.8).
var P256VerifyAddress = common.BytesToAddress([]byte{0x01, 0x00})

// StandardPrecompiles returns the precompiles (not stateful) of a block with go-ethereum
// rules rules and upgrade flags r: go-ethereum's set for rules and, from Granite,
// P256VERIFY taken from go-ethereum's Osaka set. The map is the caller's.
func StandardPrecompiles(rules params.Rules, r Rules) vm.PrecompiledContracts {
	set := vm.ActivePrecompiledContracts(rules)
	if r.IsGranite {
		if _, ok := set[P256VerifyAddress]; !ok {
			set[P256VerifyAddress] = vm.PrecompiledContractsOsaka[P256VerifyAddress]
		}
	}
	return set
}

// WarmPrecompiles returns the addresses of StandardPrecompiles(rules, r): those in every
// transaction's access list from its start. Stateful precompiles are not among them
// (l1-evm.md §5.0). The slice is the caller's.
func WarmPrecompiles(rules params.Rules, r Rules) []common.Address {
	addrs := slices.Clone(vm.ActivePrecompiles(rules))
	if r.IsGranite && !slices.Contains(addrs, P256VerifyAddress) {
		addrs = append(addrs, P256VerifyAddress)
	}
	return addrs
}

// delegateCallInvalidFrom is 2025-08-02 04:00Z: from then until Granite a DELEGATECALL or
// CALLCODE into a stateful precompile invalidates the transaction (l1-evm.md §5.0).
const delegateCallInvalidFrom = 1754107200

// Env is what the precompiles of one block need from the chain. The zero value has no
// precompile active.
type Env struct {
	// Rules are the block's upgrade flags.
	Rules Rules
	// Active holds the precompile configs in force at the block, one per precompile (the
	// latest activating config at or before the block's time). Configs that disable their
	// precompile, and nil entries, are ignored.
	Active []l1params.PrecompileConfig
	// BlockchainID is the chain's Avalanche blockchain ID, returned by the warp
	// precompile's getBlockchainID and the source of the messages sendWarpMessage sends.
	BlockchainID common.Hash
	// NetworkID is the network of the messages sendWarpMessage sends.
	NetworkID uint32
}

// frame is one EVM call frame as the tracer saw it enter.
type frame struct {
	typ  vm.OpCode
	from common.Address
	to   common.Address
	// sender is msg.sender inside the frame: from, except for DELEGATECALL, which keeps
	// its parent's sender.
	sender common.Address
	value  *big.Int
	gas    uint64
	// readOnly: this frame or one above it is a STATICCALL.
	readOnly bool
}

// Runtime is the stateful-precompile machinery of one *vm.EVM: the frame tracker, the
// StateDB wrapper and the precompile instances bound to that EVM. Make one per EVM with
// [New], pass [Runtime.WrapState] and [Runtime.Hooks] to vm.NewEVM, then call
// [Runtime.Install]:
//
//	rt := precompile.New(env)
//	evm := vm.NewEVM(blockCtx, rt.WrapState(sdb), chainCfg, vm.Config{Tracer: rt.Hooks(userHooks)})
//	rt.Install(evm, nil)
//
// A Runtime is used from its EVM's goroutine only. It may serve many transactions in turn,
// as the EVM does.
type Runtime struct {
	env Env
	// active maps each active stateful precompile to its config.
	active map[common.Address]l1params.PrecompileConfig
	evm    *vm.EVM
	user   *tracing.Hooks

	// Invariant: frames[i] is the open frame at depth i.
	frames []frame
	// blocked is the address of a CREATE/CREATE2 frame the deployer allow list refuses,
	// between its OnEnter and the collision check that makes it fail; zero otherwise.
	blocked    common.Address
	hasBlocked bool
	// deniedTop: the current transaction's top-level frame is a refused creation.
	deniedTop bool
	// invalidated: the current transaction made a DELEGATECALL/CALLCODE into a stateful
	// precompile in the period that invalidates it.
	invalidated bool
	// warp holds the current transaction's warp predicates (SetWarpPredicates).
	warp []WarpPredicate
}

// New returns the Runtime of one EVM running a block with env. env.Active is copied.
func New(env Env) *Runtime {
	r := &Runtime{env: env, active: make(map[common.Address]l1params.PrecompileConfig, len(env.Active))}
	r.env.Active = nil
	for _, cfg := range env.Active {
		addr, up, ok := configInfo(cfg)
		if !ok || up.Disable {
			continue
		}
		r.active[addr] = cfg
	}
	return r
}

// Enabled reports whether any stateful precompile is active. When none is, Hooks returns
// its argument unchanged, WrapState does too before Granite, and Install installs only the
// standard set, so an EVM without stateful precompiles pays (nearly) nothing.
func (r *Runtime) Enabled() bool { return len(r.active) > 0 }

// IsActive reports whether the precompile at addr is active in this block.
func (r *Runtime) IsActive(addr common.Address) bool {
	_, ok := r.active[addr]
	return ok
}

// WrapState returns the StateDB to hand to vm.NewEVM: sdb with the deployer allow list's
// nested-creation check (l1-evm.md §7.2) and, from Granite, P256VERIFY added to the
// precompiles Prepare warms. Every method but GetNonce and Prepare is sdb's own, GetRefund
// included. With neither in force it returns sdb.
func (r *Runtime) WrapState(sdb vm.StateDB) vm.StateDB {
	if !r.IsActive(l1params.DeployerAllowListAddress) && !r.env.Rules.IsGranite {
		return sdb
	}
	return &stateDB{StateDB: sdb, r: r}
}

// stateDB reports nonce 1 for a creation the deployer allow list refuses, so go-ethereum's
// collision check fails it: the nonce of the creator is bumped and all the frame's gas is
// consumed, as the reference does (l1-evm.md §5.2, §7.2). From Granite it also warms
// P256VERIFY at each transaction's start.
type stateDB struct {
	vm.StateDB
	r *Runtime
	// warmIn is the last precompiles Prepare was given and warmOut what it made of them:
	// go-ethereum hands the same shared table for every transaction of the same rules, so
	// the copy with P256VERIFY is made once, not for each transaction.
	warmIn, warmOut []common.Address
}

// Prepare adds P256VERIFY to precompiles from Granite, then calls sdb's Prepare.
// go-ethereum's ApplyMessage passes vm.ActivePrecompiles, which has P256VERIFY only from
// Osaka, a fork this chain never turns on; the reference lists it among the active
// precompiles from Granite, so it is warm (l1-evm.md §5.8). precompiles is go-ethereum's
// shared table: it is copied, never appended to in place.
func (s *stateDB) Prepare(rules params.Rules, sender, coinbase common.Address, dst *common.Address, precompiles []common.Address, list types.AccessList) {
	if s.r.env.Rules.IsGranite {
		if len(precompiles) == 0 || len(precompiles) != len(s.warmIn) || &precompiles[0] != &s.warmIn[0] {
			out := precompiles
			if !slices.Contains(precompiles, P256VerifyAddress) {
				out = append(slices.Clip(precompiles), P256VerifyAddress)
			}
			s.warmIn, s.warmOut = precompiles, out
		}
		precompiles = s.warmOut
	}
	s.StateDB.Prepare(rules, sender, coinbase, dst, precompiles, list)
}

// GetNonce reports 1 for the address of the creation the deployer allow list refuses, between
// its frame's start and go-ethereum's collision check, and sdb's nonce otherwise.
func (s *stateDB) GetNonce(addr common.Address) uint64 {
	if s.r.hasBlocked && addr == s.r.blocked {
		return 1
	}
	return s.StateDB.GetNonce(addr)
}

// Hooks returns the tracer to hand to vm.NewEVM: the frame tracker, then user (nil for
// none). All of user's other hooks are kept as they are.
func (r *Runtime) Hooks(user *tracing.Hooks) *tracing.Hooks {
	if !r.Enabled() {
		return user
	}
	r.user = user
	h := &tracing.Hooks{}
	if user != nil {
		*h = *user
	}
	h.OnEnter, h.OnExit = nil, nil
	h.OnEnterV2 = r.onEnter
	h.OnExitV2 = r.onExit
	return h
}

// Install binds the active stateful precompiles to evm and installs them on top of base:
// nil means StandardPrecompiles for evm's rules (P256VERIFY at 0x…0100 from Granite,
// l1-evm.md §5.8); a non-nil base is the whole standard set (state overrides may have
// moved some of StandardPrecompiles' entries) and is not changed. evm must have been made
// with WrapState's state and Hooks' tracer. Stateful precompile addresses are not added
// to any access list: the first call pays the cold account cost (l1-evm.md §5.0).
func (r *Runtime) Install(evm *vm.EVM, base vm.PrecompiledContracts) {
	r.evm = evm
	if base == nil {
		base = StandardPrecompiles(evm.GetRules(), r.env.Rules)
	}
	if len(r.active) == 0 {
		// base is the caller's: nothing to add, nothing to copy.
		evm.SetPrecompiles(base)
		return
	}
	set := make(vm.PrecompiledContracts, len(base)+len(r.active))
	maps.Copy(set, base)
	for addr := range r.active {
		if c := r.newContract(addr); c != nil {
			set[addr] = c
		}
	}
	evm.SetPrecompiles(set)
}

// ExecutionError returns the error to report for the transaction just run, given the
// error of its top-level frame (core.ExecutionResult.Err). A top-level creation refused by
// the deployer allow list fails in go-ethereum with ErrContractAddressCollision; this
// returns the reference's `tx.origin … is not authorized to deploy a contract` instead
// (l1-evm.md §5.2). Any other error is returned as it is.
func (r *Runtime) ExecutionError(err error) error {
	if r.deniedTop && errors.Is(err, vm.ErrContractAddressCollision) && r.evm != nil {
		return DeployNotAuthorizedError(r.evm.TxContext.Origin)
	}
	return err
}

// Invalidated reports whether the transaction just run made a DELEGATECALL or CALLCODE
// into a stateful precompile between 2025-08-02 04:00Z and Granite. Such a transaction is
// invalid: a block must not include it (l1-evm.md §5.0).
func (r *Runtime) Invalidated() bool { return r.invalidated }

// onEnter tracks a frame, runs the deployer check on creations, then calls the user's hook.
func (r *Runtime) onEnter(depth int, typ byte, from, to common.Address, input []byte, gas tracing.Gas, value *big.Int) {
	if depth == 0 {
		r.frames = r.frames[:0]
		r.deniedTop, r.invalidated = false, false
	}
	if depth < len(r.frames) {
		r.frames = r.frames[:depth]
	}
	f := frame{typ: vm.OpCode(typ), from: from, to: to, sender: from, value: value, gas: gas.Execution}
	if n := len(r.frames); n > 0 {
		parent := r.frames[n-1]
		f.readOnly = parent.readOnly
		if f.typ == vm.DELEGATECALL {
			f.sender = parent.sender
		}
	}
	if f.typ == vm.STATICCALL {
		f.readOnly = true
	}
	r.frames = append(r.frames, f)
	r.hasBlocked = false
	if (f.typ == vm.CREATE || f.typ == vm.CREATE2) && r.evm != nil && r.IsActive(l1params.DeployerAllowListAddress) {
		if !CanDeploy(r.evm.StateDB, r.evm.TxContext.Origin) {
			r.blocked, r.hasBlocked = to, true
			if depth == 0 {
				r.deniedTop = true
			}
		}
	}
	if u := r.user; u != nil {
		switch {
		case u.OnEnterV2 != nil:
			u.OnEnterV2(depth, typ, from, to, input, gas, value)
		case u.OnEnter != nil:
			u.OnEnter(depth, typ, from, to, input, gas.Execution, value)
		}
	}
}

// onExit pops a frame, then calls the user's hook.
func (r *Runtime) onExit(depth int, output []byte, gasLeft tracing.Gas, err error, reverted bool) {
	r.hasBlocked = false
	var start uint64
	if depth < len(r.frames) {
		start = r.frames[depth].gas
		r.frames = r.frames[:depth]
	}
	if u := r.user; u != nil {
		switch {
		case u.OnExitV2 != nil:
			u.OnExitV2(depth, output, gasLeft, err, reverted)
		case u.OnExit != nil:
			var used uint64
			if start > gasLeft.Execution {
				used = start - gasLeft.Execution
			}
			u.OnExit(depth, output, used, err, reverted)
		}
	}
}

// top returns the innermost open frame, nil outside any.
func (r *Runtime) top() *frame {
	if len(r.frames) == 0 {
		return nil
	}
	return &r.frames[len(r.frames)-1]
}

// configInfo returns the address and upgrade part of a precompile config, without relying
// on anything but the config types themselves.
func configInfo(cfg l1params.PrecompileConfig) (common.Address, l1params.Upgrade, bool) {
	switch c := cfg.(type) {
	case *l1params.DeployerAllowListConfig:
		if c != nil {
			return l1params.DeployerAllowListAddress, c.Upgrade, true
		}
	case *l1params.TxAllowListConfig:
		if c != nil {
			return l1params.TxAllowListAddress, c.Upgrade, true
		}
	case *l1params.NativeMinterConfig:
		if c != nil {
			return l1params.NativeMinterAddress, c.Upgrade, true
		}
	case *l1params.FeeManagerConfig:
		if c != nil {
			return l1params.FeeManagerAddress, c.Upgrade, true
		}
	case *l1params.RewardManagerConfig:
		if c != nil {
			return l1params.RewardManagerAddress, c.Upgrade, true
		}
	case *l1params.WarpConfig:
		if c != nil {
			return l1params.WarpAddress, c.Upgrade, true
		}
	}
	return common.Address{}, l1params.Upgrade{}, false
}
