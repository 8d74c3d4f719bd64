package evm

import (
	"context"

	"github.com/cornice-node/cornice/vms/evm/l1params"
)

// l1API is the L1 chain's extras of the eth namespace (l1-evm.md §1.2–§1.5),
// registered on L1 chains only. Integers in their results are JSON numbers
// and the rules objects use Go field names, as Subnet-EVM's; the second key
// of eth_getActiveRulesAt is the spec's networkRules.
type l1API struct{ vm *VM }

// FeeConfig is eth_feeConfig: the fee config that applies to the child of
// the named block (null or omitted: the current head, which is the last
// accepted block on this node) and lastChangedAt (l1-evm.md §1.2).
func (a *l1API) FeeConfig(_ context.Context, bnh *blockNumberOrHash) (*l1params.FeeConfigResult, error) {
	blk := a.vm.currentHead()
	if bnh != nil {
		var err error
		if blk, err = a.vm.resolve(bnh.BlockNumberOrHash); err != nil {
			return nil, err
		}
	}
	fees, lastChanged, err := a.vm.l1FeeConfigAt(blk.Header(), a.vm.stateOpener(a.vm.rootOf(blk.Hash(), blk.Root()), blk.Hash(), nil))
	if err != nil {
		return nil, err
	}
	return &l1params.FeeConfigResult{FeeConfig: *fees, LastChangedAt: lastChanged}, nil
}

// GetChainConfig is eth_getChainConfig: the chain config after the
// start-up pipeline, with "upgrades" last (l1-evm.md §1.3, §4.6).
func (a *l1API) GetChainConfig() *l1params.ChainConfig { return a.vm.l1 }

// GetActivePrecompilesAt is eth_getActivePrecompilesAt: each precompile
// enabled at ts (a JSON number; null or omitted: the head's time) with the
// config in force (l1-evm.md §1.4).
func (a *l1API) GetActivePrecompilesAt(ts *uint64) l1params.Precompiles {
	return a.vm.l1.ActivePrecompilesAt(a.vm.timeOrHead(ts))
}

// GetActiveRulesAt is eth_getActiveRulesAt: the Ethereum and network rules
// and the precompiles in force at ts (a JSON number; null or omitted: the
// head's time) (l1-evm.md §1.5, §6).
func (a *l1API) GetActiveRulesAt(ts *uint64) l1params.ActiveRules {
	return a.vm.l1.ActiveRulesAt(a.vm.timeOrHead(ts))
}

// timeOrHead returns *ts, or the head's time when ts is nil.
func (vm *VM) timeOrHead(ts *uint64) uint64 {
	if ts != nil {
		return *ts
	}
	return vm.currentHeader().Time
}
