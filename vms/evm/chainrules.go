package evm

import (
	"fmt"
	"math/big"
	"sync"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/state"
	"github.com/ethereum/go-ethereum/core/tracing"
	"github.com/ethereum/go-ethereum/core/types"
	gethvm "github.com/ethereum/go-ethereum/core/vm"
	"github.com/holiman/uint256"

	"github.com/cornice-node/cornice/vms/evm/l1params"
	"github.com/cornice-node/cornice/vms/evm/precompile"
)

// childRules is what the chain's rules fix for every child of one block
// (l1-evm.md §3.4, §3.5, §3.9). On an L1 they follow the parent's state
// (the FeeManager's and RewardManager's storage), so a setFeeConfig in
// block N applies from block N+1; on the C-Chain they are Config's.
type childRules struct {
	// parent is the hash of the block they are the children's rules of.
	parent common.Hash
	// fees is the fee config of a child (verified); its gas limit is
	// gasLimit, the exact gas limit of the child's header.
	fees     *l1params.FeeConfig
	gasLimit uint64
	// lastChangedAt is the block that last changed fees, as
	// eth_feeConfig reports it; nil on the C-Chain.
	lastChangedAt *big.Int
	// coinbase is the coinbase of a child this node builds. anyCoinbase:
	// a child may carry any coinbase (fee recipients allowed); otherwise it
	// must carry coinbase.
	coinbase    common.Address
	anyCoinbase bool
	// parentTime is the parent's time and parentGasCost its block gas
	// cost (nil: none, the genesis before Etna), from which a child's cost
	// follows before Granite (childGasCost); nil on the C-Chain.
	parentTime    uint64
	parentGasCost *uint64
	// admitted memoizes the transaction allow list's answer for each sender
	// at the parent's state (common.Address → error, nil when allowed):
	// no transaction changes that state, and admission asks once per
	// transaction.
	admitted sync.Map
}

// checkTxAllowed is precompile.CheckTxAllowed on st, the parent's state,
// remembered per sender.
func (r *childRules) checkTxAllowed(st precompile.StateReader, from common.Address) error {
	if v, ok := r.admitted.Load(from); ok {
		err, _ := v.(error)
		return err
	}
	err := precompile.CheckTxAllowed(st, from)
	r.admitted.Store(from, err)
	return err
}

// childRulesOf returns the rules of blk's children, cached for the last
// block asked for.
func (vm *VM) childRulesOf(blk *types.Block) (*childRules, error) {
	hash := blk.Hash()
	if r := vm.childRulesCache.Load(); r != nil && r.parent == hash {
		return r, nil
	}
	r, err := vm.computeChildRules(blk.Header(), hash, nil)
	if err != nil {
		return nil, err
	}
	vm.childRulesCache.Store(r)
	return r, nil
}

// computeChildRules computes the rules of the children of parent, whose
// hash is hash. st is parent's state, or nil to open it when needed.
func (vm *VM) computeChildRules(parent *types.Header, hash common.Hash, st *state.StateDB) (*childRules, error) {
	if vm.l1 == nil {
		gasLimit := vm.cfg.Fees.GasLimit.Uint64()
		if vm.acp176At(parent.Time) {
			// ACP-176's maximum capacity, which moves only with the
			// target; a block at Fortuna's activation gets its own in
			// childFees.
			gasLimit = vm.feeStateAfter(parent).MaxCapacity()
		}
		return &childRules{parent: hash, fees: vm.cfg.Fees, gasLimit: gasLimit, coinbase: vm.cfg.Coinbase}, nil
	}
	open := vm.stateOpener(vm.rootOf(hash, parent.Root), hash, st)
	fees, lastChanged, err := vm.l1FeeConfigAt(parent, open)
	if err != nil {
		return nil, err
	}
	if !fees.GasLimit.IsUint64() {
		return nil, gasLimitRangeError(fees.GasLimit)
	}
	parentCost, err := vm.gasCostOf(parent, hash)
	if err != nil {
		return nil, err
	}
	r := &childRules{
		parent: hash, fees: fees, gasLimit: fees.GasLimit.Uint64(), lastChangedAt: lastChanged,
		parentTime: parent.Time, parentGasCost: parentCost,
	}
	switch {
	case vm.l1.IsPrecompileEnabled(l1params.RewardManagerAddress, parent.Time):
		st, err := open()
		if err != nil {
			return nil, err
		}
		addr, allow := precompile.RewardAddress(st)
		if allow {
			r.coinbase, r.anyCoinbase = vm.cfg.Coinbase, true
		} else {
			r.coinbase = addr
		}
	case vm.l1.AllowFeeRecipients:
		r.coinbase, r.anyCoinbase = vm.cfg.Coinbase, true
	default:
		r.coinbase = BlackholeAddr
	}
	return r, nil
}

// stateOpener returns a function that opens the state of the block hash,
// whose state root is root, on its first call and returns the same state on
// every later one: the rules read the state only when a precompile is
// active, and then open it once. st, when not nil, is that state already
// open.
func (vm *VM) stateOpener(root, hash common.Hash, st *state.StateDB) func() (*state.StateDB, error) {
	return func() (*state.StateDB, error) {
		if st != nil {
			return st, nil
		}
		var err error
		if st, err = vm.stateAt(root); err != nil {
			return nil, fmt.Errorf("open state of block %s: %w", hash, err)
		}
		return st, nil
	}
}

// l1FeeConfigAt is GetFeeConfigAt of l1-evm.md §1.2: the fee config of the
// children of parent and the block that last changed it. open opens the
// parent's state.
func (vm *VM) l1FeeConfigAt(parent *types.Header, open func() (*state.StateDB, error)) (*l1params.FeeConfig, *big.Int, error) {
	if !vm.l1.IsSubnetEVM(parent.Time) {
		f := l1params.DefaultFeeConfig()
		return &f, nil, nil
	}
	if !vm.l1.IsPrecompileEnabled(l1params.FeeManagerAddress, parent.Time) {
		f := vm.l1.FeeConfig.Copy()
		return &f, new(big.Int), nil
	}
	st, err := open()
	if err != nil {
		return nil, nil, err
	}
	f, lastChanged, err := precompile.StoredFeeConfig(st)
	if err != nil {
		return nil, nil, err
	}
	if err := f.Verify(); err != nil {
		return nil, nil, fmt.Errorf("%w: %w", l1params.ErrInvalidFeeConfig, err)
	}
	return &f, lastChanged, nil
}

// precompileEnv returns what the precompiles of a block at time t need
// (l1-evm.md §5): the stateful configs in force, the Durango and Granite
// flags and the blockchain ID. The C-Chain's only stateful precompile is
// warp (cChainWarp); it runs the local network's rules, under which Durango
// and Granite are active from genesis (l1-evm.md §4.4, §8), so it has
// P256VERIFY, warm.
func (vm *VM) precompileEnv(t uint64) precompile.Env {
	if vm.l1 == nil {
		return precompile.Env{
			Rules:        precompile.Rules{IsDurango: true, IsGranite: true},
			Active:       []l1params.PrecompileConfig{cChainWarp},
			BlockchainID: vm.blockchainID,
			NetworkID:    vm.warp.networkID,
		}
	}
	var active []l1params.PrecompileConfig
	for _, m := range l1params.Modules() {
		if p, ok := vm.l1.ActiveConfig(m.Key, t); ok {
			active = append(active, p)
		}
	}
	return precompile.Env{
		Rules:        precompile.Rules{IsDurango: vm.l1.IsDurango(t), IsGranite: vm.l1.IsGranite(t)},
		Active:       active,
		BlockchainID: vm.blockchainID,
		NetworkID:    vm.warp.networkID,
	}
}

// standardPrecompiles returns the precompiles, not stateful, of a block
// with context bctx: go-ethereum's for its rules and P256VERIFY from
// Granite (l1-evm.md §5.8). The map is the caller's.
func (vm *VM) standardPrecompiles(bctx gethvm.BlockContext) gethvm.PrecompiledContracts {
	rules := vm.chainCfg.Rules(bctx.BlockNumber, bctx.Random != nil, bctx.Time)
	return precompile.StandardPrecompiles(rules, vm.precompileEnv(bctx.Time).Rules)
}

// warmPrecompiles returns the addresses of standardPrecompiles(bctx):
// those warm from a transaction's start.
func (vm *VM) warmPrecompiles(bctx gethvm.BlockContext) []common.Address {
	rules := vm.chainCfg.Rules(bctx.BlockNumber, bctx.Random != nil, bctx.Time)
	return precompile.WarmPrecompiles(rules, vm.precompileEnv(bctx.Time).Rules)
}

// newEVM returns an EVM for bctx over sdb with config cfg; base, when not
// nil, replaces standardPrecompiles(bctx) (state overrides moved some).
// The EVM has the stateful precompiles in force at bctx.Time (an L1's),
// the deployer allow list's state wrapper, P256VERIFY warm from Granite
// and the call-frame tracker in front of cfg.Tracer (package precompile);
// rt is their runtime. Every EVM of the chain comes from here: block
// execution, calls, gas estimates, access lists and traces.
func (vm *VM) newEVM(bctx gethvm.BlockContext, sdb gethvm.StateDB, cfg gethvm.Config, base gethvm.PrecompiledContracts) (*gethvm.EVM, *precompile.Runtime) {
	rt := precompile.New(vm.precompileEnv(bctx.Time))
	cfg.Tracer = rt.Hooks(cfg.Tracer)
	evm := gethvm.NewEVM(bctx, rt.WrapState(sdb), vm.chainCfg, cfg)
	rt.Install(evm, base)
	return evm, rt
}

// applyUpgrades applies to st, the state of header's parent (at time
// parentTime), what takes effect in header's block before its first
// transaction (l1-evm.md §5.0, §4.5): the precompile activations and
// disables with parentTime < t ≤ header.Time, in address order, then the
// state upgrades. The C-Chain has none. wipes reports a disable, which
// wipes a precompile account's storage.
func (vm *VM) applyUpgrades(st *state.StateDB, parentTime uint64, header *types.Header) (wipes bool, err error) {
	if vm.l1 == nil {
		return false, nil
	}
	number := header.Number.Uint64()
	for _, cfg := range vm.l1.PrecompileActivations(&parentTime, header.Time) {
		if err := precompile.Activate(st, cfg, number, vm.l1.FeeConfig, vm.l1.AllowFeeRecipients); err != nil {
			return false, err
		}
		wipes = wipes || cfg.IsDisabled()
	}
	for _, up := range vm.l1.StateUpgradesBetween(parentTime, header.Time) {
		applyStateUpgrade(st, up)
	}
	return wipes, nil
}

// applyStateUpgrade applies one state upgrade (l1-evm.md §4.5): a missing
// account is created, balanceChange is added (a negative one subtracted,
// down to zero), code is set with nonce 1 if the nonce was 0, and the
// storage slots are set. Accounts are independent, so their order does
// not matter.
func applyStateUpgrade(st *state.StateDB, up l1params.StateUpgrade) {
	for addr, acc := range up.Accounts {
		if !st.Exist(addr) {
			st.CreateAccount(addr)
		}
		if acc.BalanceChange != nil {
			change := (*big.Int)(acc.BalanceChange)
			abs, overflow := uint256.FromBig(new(big.Int).Abs(change))
			if overflow {
				abs = new(uint256.Int).SetAllOne()
			}
			if change.Sign() > 0 {
				st.AddBalance(addr, abs, tracing.BalanceChangeUnspecified)
			} else if change.Sign() < 0 {
				abs = uint256.NewInt(0).Set(minU256(abs, st.GetBalance(addr)))
				st.SubBalance(addr, abs, tracing.BalanceChangeUnspecified)
			}
		}
		if acc.Code != nil {
			st.SetCode(addr, acc.Code, tracing.CodeChangeUnspecified)
			if st.GetNonce(addr) == 0 {
				st.SetNonce(addr, 1, tracing.NonceChangeUnspecified)
			}
		}
		for k, v := range acc.Storage {
			st.SetState(addr, k, v)
		}
	}
}

func minU256(a, b *uint256.Int) *uint256.Int {
	if a.Lt(b) {
		return a
	}
	return b
}
