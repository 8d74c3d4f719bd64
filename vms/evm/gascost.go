package evm

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/cornice-node/cornice/storage"
)

// The block gas cost of an L1 block before Granite (l1-evm.md §3.7).
// Subnet-EVM's header carries it; ours are go-ethereum's, which have no
// field for it. It is a function of the parent (its cost, time and fee
// config) and the block's time, so it need not travel with the block: a
// block verified from its bytes recomputes it, and each accepted block's
// cost is kept in a side record in the block's batch (gasCostKey), read for
// its children and its JSON.

// gasCostPrefix starts the key of an accepted block's cost record, followed
// by the block hash. go-ethereum's rawdb keys are one-letter prefixes or
// 32-byte hashes and never this.
var gasCostPrefix = []byte("cornice-block-gas-cost-")

func gasCostKey(hash common.Hash) []byte {
	return append(append(make([]byte, 0, len(gasCostPrefix)+common.HashLength), gasCostPrefix...), hash[:]...)
}

// hasGasCostRecord reports whether an accepted L1 block at height number
// and time t gets a cost record: every block past genesis before Granite.
func (vm *VM) hasGasCostRecord(number, t uint64) bool {
	return vm.l1 != nil && number > 0 && !vm.l1.IsGranite(t)
}

// gasCostOf returns the block gas cost of h, an accepted L1 block whose
// hash is hash: nil for the genesis before Etna, 0 for the genesis from
// Etna on (l1-evm.md §4.4) and for every block from Granite on, otherwise
// its stored record. A block accepted before Granite without a record was
// accepted by a node that charged none: 0.
func (vm *VM) gasCostOf(h *types.Header, hash common.Hash) (*uint64, error) {
	var zero uint64
	switch {
	case vm.l1 == nil:
		return nil, nil
	case h.Number.Sign() == 0:
		if vm.l1.IsEtna(h.Time) {
			return &zero, nil
		}
		return nil, nil
	case !vm.hasGasCostRecord(h.Number.Uint64(), h.Time):
		return &zero, nil
	}
	b, err := vm.kv.Get(gasCostKey(hash))
	switch {
	case errors.Is(err, storage.ErrNotFound):
		return &zero, nil
	case err != nil:
		return nil, fmt.Errorf("read block gas cost of %s: %w", hash, err)
	case len(b) != 8:
		return nil, fmt.Errorf("read block gas cost of %s: record of %d bytes", hash, len(b))
	}
	cost := binary.BigEndian.Uint64(b)
	return &cost, nil
}

// childGasCost is the block gas cost of a child at time t of the block
// whose children's rules are r: 0 on the C-Chain and from Granite on
// (l1-evm.md §3.7), otherwise BlockGasCost with the parent's fee config.
// A time before the parent's counts as no time elapsed.
func (vm *VM) childGasCost(r *childRules, t uint64) uint64 {
	if vm.l1 == nil || vm.l1.IsGranite(t) || !vm.l1.IsSubnetEVM(t) {
		return 0
	}
	var elapsed uint64
	if t > r.parentTime {
		elapsed = t - r.parentTime
	}
	return BlockGasCost(r.fees, r.parentGasCost, elapsed)
}

// gasCostReadyAt returns the first time after t (seconds) at which a child
// of the block whose children's rules are r costs at most fee (Granite
// included, which makes it free); ok is false when that never happens (the
// cost does not fall: no step, or no parent cost, and no Granite ahead).
// The cost only falls as time passes (§3.7), so a binary search finds it.
func (vm *VM) gasCostReadyAt(r *childRules, t, fee uint64) (at uint64, ok bool) {
	lo := t + 1
	if lo < t || vm.childGasCost(r, math.MaxUint64) > fee {
		return 0, false
	}
	// Without Granite the cost reaches its floor by this time at the latest.
	hi := addSat(addSat(r.parentTime, r.fees.TargetBlockRate), 1)
	if r.parentGasCost != nil {
		if step := satUint64(r.fees.BlockGasCostStep); step > 0 {
			hi = addSat(hi, *r.parentGasCost/step+1)
		}
	}
	hi = max(hi, lo)
	if vm.childGasCost(r, hi) > fee {
		hi = math.MaxUint64
	}
	// Invariant: the cost at hi is at most fee; before lo it is above.
	for lo < hi {
		mid := lo + (hi-lo)/2
		if vm.childGasCost(r, mid) <= fee {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo, true
}

// retryBuildAt makes the pipeline try building again at time at (unix
// seconds), replacing any retry scheduled before: a block whose fee did not
// cover its block gas cost waits until the cost has come down.
func (vm *VM) retryBuildAt(at uint64) {
	when := time.Unix(int64(min(at, math.MaxInt64/2)), 0)
	d := max(when.Sub(vm.clock.Now()), 0)
	vm.retryMu.Lock()
	defer vm.retryMu.Unlock()
	if vm.retryStopped {
		return
	}
	if vm.retry != nil {
		vm.retry.Stop()
	}
	vm.retry = vm.clock.AfterFunc(d, vm.signal)
}

// stopRetry cancels a scheduled retry and any later one (Close).
func (vm *VM) stopRetry() {
	vm.retryMu.Lock()
	defer vm.retryMu.Unlock()
	vm.retryStopped = true
	if vm.retry != nil {
		vm.retry.Stop()
		vm.retry = nil
	}
}
