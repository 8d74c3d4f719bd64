package evm

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/tracing"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/params"
	"github.com/holiman/uint256"

	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/evm/acp176"
	"github.com/cornice-node/cornice/vms/evm/l1params"
	"github.com/cornice-node/cornice/vms/evm/precompile"
	"github.com/cornice-node/cornice/warp"
	"github.com/cornice-node/cornice/warp/payload"
)

// Warp predicates (l1-evm.md §5.7). A transaction carries each signed warp message it reads as
// a tuple of its access list at the warp precompile's address, the message packed into the
// storage keys. When this node builds a block it verifies each one against the source
// subnet's validators at the P-Chain's height and records the failures in the block's Extra,
// after the fee window: a block verified from its bytes reads them from there, as the
// reference does without a proposer context, so it re-executes without the P-Chain. Blocks
// without predicates keep an Extra of the window alone.

// Intrinsic gas of one warp predicate, before and from Granite (l1-evm.md §5.7): it replaces the
// access-list cost of the tuple's storage keys.
const (
	predicateBaseGas           = 200_000
	predicateBaseGasGranite    = 125_000
	predicateChunkGas          = 3_200
	predicateChunkGasGranite   = 512
	predicateSignerGas         = 500
	predicateSignerGasGranite  = 250
	predicateResultsMaxSize    = 1 << 20
	minPredicateResultsTxBytes = common.HashLength + 4
)

// errPredicateResults: a block's Extra after the window is not predicate results.
var errPredicateResults = errors.New("invalid predicate results")

// predicateResults maps the hash of each transaction with warp predicates to the bitset of the
// indices of those that failed verification (a big-endian integer, empty when all verified).
type predicateResults map[common.Hash][]byte

// bytes encodes r as the reference's Results in codec version 0: the transactions sorted by
// hash, each with a map of one precompile address (the warp precompile) to its bitset.
func (r predicateResults) bytes() []byte {
	hashes := make([]common.Hash, 0, len(r))
	for h := range r {
		hashes = append(hashes, h)
	}
	slices.SortFunc(hashes, func(a, b common.Hash) int { return bytes.Compare(a[:], b[:]) })
	p := codec.NewPacker(nil)
	p.Version()
	p.Count(len(hashes))
	for _, h := range hashes {
		p.Fixed(h[:])
		p.Count(1)
		p.Fixed(l1params.WarpAddress[:])
		p.VarBytes(r[h])
	}
	b, _ := p.Bytes() // Cannot fail: no interface fields.
	return b
}

// parsePredicateResults decodes what bytes writes.
func parsePredicateResults(b []byte) (predicateResults, error) {
	u := codec.NewUnpacker(b, predicateResultsMaxSize)
	u.Version()
	n := u.Count(minPredicateResultsTxBytes)
	r := make(predicateResults, n)
	for range n {
		var h common.Hash
		u.Fixed(h[:])
		for range u.Count(common.AddressLength + 4) {
			var addr common.Address
			u.Fixed(addr[:])
			bits := u.VarBytes()
			if addr == l1params.WarpAddress {
				r[h] = bits
			}
		}
	}
	if err := u.Done(); err != nil {
		return nil, fmt.Errorf("%w: %w", errPredicateResults, err)
	}
	return r, nil
}

// txPredicates is the warp side of one transaction in a block where warp is active.
type txPredicates struct {
	keys [][]common.Hash
	// gas is the predicates' intrinsic gas.
	gas uint64
}

// warpPredicatesOf returns tx's warp predicates and their intrinsic gas, under Granite rules
// when granite. A predicate that is not a packed warp message with a known payload makes the
// transaction invalid, as in the reference's intrinsic gas.
func warpPredicatesOf(tx *types.Transaction, granite bool) (txPredicates, error) {
	keys := precompile.WarpPredicateKeys(tx.AccessList())
	p := txPredicates{keys: keys}
	base, chunk, signer := uint64(predicateBaseGas), uint64(predicateChunkGas), uint64(predicateSignerGas)
	if granite {
		base, chunk, signer = predicateBaseGasGranite, predicateChunkGasGranite, predicateSignerGasGranite
	}
	for _, k := range keys {
		b, err := precompile.UnpackPredicate(k)
		if err != nil {
			return txPredicates{}, err
		}
		m, err := warp.ParseMessage(b)
		if err != nil {
			return txPredicates{}, err
		}
		if _, err := payload.Parse(m.Payload); err != nil {
			return txPredicates{}, err
		}
		signers := uint64(0)
		for _, c := range m.Signature.Signers {
			signers += uint64(popCount(c))
		}
		p.gas += base + chunk*uint64(len(k)) + signer*signers
	}
	return p, nil
}

func popCount(b byte) int {
	n := 0
	for ; b != 0; b &= b - 1 {
		n++
	}
	return n
}

// predicateIntrinsic returns the intrinsic gas of a transaction with these fields whose warp
// predicates are p, as the reference counts it (each predicate's gas in place of its tuple's
// access-list cost), and extra, the part go-ethereum does not charge once the predicates'
// storage keys are dropped from the access list it is given: it still charges each tuple's
// address, which the predicate gas replaces too.
func predicateIntrinsic(data []byte, list types.AccessList, auths []types.SetCodeAuthorization, from common.Address, to *common.Address, value *uint256.Int, rules params.Rules, p txPredicates) (need, extra uint64, err error) {
	extra = p.gas - params.TxAccessListAddressGas*uint64(len(p.keys))
	base, err := core.IntrinsicGas(data, accessListWithoutPredicates(list), auths, from, to, value, rules)
	if err != nil {
		return 0, 0, err
	}
	return base + extra, extra, nil
}

// accessListWithoutPredicates returns list with the storage keys of its warp tuples dropped:
// go-ethereum then charges those tuples the address cost alone, and the predicate gas
// stands for the rest (l1-evm.md §5.7). list is not changed.
func accessListWithoutPredicates(list types.AccessList) types.AccessList {
	out := make(types.AccessList, len(list))
	for i, t := range list {
		if t.Address == l1params.WarpAddress {
			t.StorageKeys = nil
		}
		out[i] = t
	}
	return out
}

// warpVerifier verifies the predicates of the transactions of one block being built.
type warpVerifier struct {
	vm                           *VM
	height                       uint64
	quorum                       uint64
	requirePrimaryNetworkSigners bool
}

// newWarpVerifier returns the verifier of a block at time t: the P-Chain's current height and
// the warp config in force; nil when warp is not active or the node has no P-Chain, which
// leaves every predicate unverified.
func (vm *VM) newWarpVerifier(ctx context.Context, t uint64) *warpVerifier {
	if vm.warp.validators == nil {
		return nil
	}
	cfg, ok := vm.warpConfigAt(t)
	if !ok {
		return nil
	}
	height, err := vm.warp.validators.PChainHeight(ctx)
	if err != nil {
		vm.log.Warn("no P-Chain height for warp predicates: they fail", "err", err)
		return nil
	}
	quorum := cfg.QuorumNumerator
	if quorum == 0 {
		quorum = l1params.WarpDefaultQuorumNumerator
	}
	return &warpVerifier{vm: vm, height: height, quorum: quorum, requirePrimaryNetworkSigners: cfg.RequirePrimaryNetworkSigners}
}

// results returns the bitset of the predicates of keys that fail verification.
func (w *warpVerifier) results(ctx context.Context, keys [][]common.Hash) []byte {
	failed := new(big.Int)
	for i, k := range keys {
		if w == nil {
			failed.SetBit(failed, i, 1)
			continue
		}
		if err := w.verify(ctx, k); err != nil {
			w.vm.log.Debug("warp predicate failed verification", "index", i, "err", err)
			failed.SetBit(failed, i, 1)
		}
	}
	return failed.Bytes()
}

// verify checks one predicate: its signature against the source chain's subnet at the
// verifier's P-Chain height, with the chain's quorum. A message from the Primary Network is
// held to this L1's validators when it comes from the P-Chain and requirePrimaryNetworkSigners
// is off (l1-evm.md §5.7, network-consensus-warp.md §4.5).
func (w *warpVerifier) verify(ctx context.Context, keys []common.Hash) error {
	b, err := precompile.UnpackPredicate(keys)
	if err != nil {
		return err
	}
	m, err := warp.ParseMessage(b)
	if err != nil {
		return err
	}
	state := w.vm.warp.validators
	subnetID, err := state.SubnetOf(ctx, m.SourceChainID)
	if err != nil {
		return err
	}
	if subnetID == ids.Empty && m.SourceChainID == ids.Empty && !w.requirePrimaryNetworkSigners {
		subnetID = w.vm.warp.subnetID
	}
	set, err := warp.CanonicalSetAt(ctx, state, subnetID, w.height)
	if err != nil {
		return err
	}
	return m.Signature.Verify(&m.UnsignedMessage, w.vm.warp.networkID, set, w.quorum, l1params.WarpQuorumDenominator)
}

// predicateSets returns the precompile.WarpPredicate list of keys with the failures bits.
func predicateSets(keys [][]common.Hash, bits []byte) []precompile.WarpPredicate {
	failed := new(big.Int).SetBytes(bits)
	out := make([]precompile.WarpPredicate, len(keys))
	for i, k := range keys {
		out[i] = precompile.WarpPredicate{Keys: k, Valid: failed.Bit(i) == 0}
	}
	return out
}

// predicateTail returns what follows the fee part of an Extra, the first prefix bytes (the
// window, or the C-Chain's ACP-176 fee state): the predicate results, empty for a block without
// predicates.
func predicateTail(extra []byte, prefix int) []byte {
	if len(extra) <= prefix {
		return nil
	}
	return extra[prefix:]
}

// feePrefix is the size of the fee part of the Extra of a block at time t, which predicate
// results follow.
func (vm *VM) feePrefix(t uint64) int {
	if vm.acp176At(t) {
		return acp176.StateSize
	}
	return windowSize
}

// cChainWarp is the C-Chain's warp config: active from genesis with the default quorum (67 %).
// The reference's C-Chain enables warp at Durango, which local networks have from genesis, and
// cornice's C-Chain runs the local network's rules (chainrules.go, precompileEnv).
var cChainWarp = &l1params.WarpConfig{Upgrade: l1params.Upgrade{BlockTimestamp: new(uint64)}}

// warpConfigAt returns the warp config in force at time t; false when warp is not active.
func (vm *VM) warpConfigAt(t uint64) (*l1params.WarpConfig, bool) {
	if vm.l1 == nil {
		return cChainWarp, true
	}
	p, ok := vm.l1.ActiveConfig(l1params.WarpKey, t)
	if !ok {
		return nil, false
	}
	return p.(*l1params.WarpConfig), true
}

// graniteAt reports whether Granite's rules hold at time t: on the C-Chain always (as
// precompileEnv says).
func (vm *VM) graniteAt(t uint64) bool { return vm.l1 == nil || vm.l1.IsGranite(t) }

// blockPredicates is the warp predicate state of one block's execution.
type blockPredicates struct {
	granite bool
	// given holds the results to execute with: those the block records, or, while it is
	// built, those its builder just verified (verifyPredicates).
	given predicateResults
	// results are those of the transactions applied so far, which finish writes after the
	// window.
	results predicateResults
}

// recordedPredicateResults returns the predicate results header's Extra carries.
func (vm *VM) recordedPredicateResults(header *types.Header) (predicateResults, error) {
	tail := predicateTail(header.Extra, vm.feePrefix(header.Time))
	if len(tail) == 0 {
		return make(predicateResults), nil
	}
	return parsePredicateResults(tail)
}

// verifyPredicates verifies tx's warp predicates with w's verifier for the block being built,
// so that apply executes it with their results. It does nothing when warp is not active.
func (e *executor) verifyPredicates(ctx context.Context, w func() *warpVerifier, tx *types.Transaction) {
	if e.warp == nil {
		return
	}
	if keys := precompile.WarpPredicateKeys(tx.AccessList()); len(keys) > 0 {
		e.warp.given[tx.Hash()] = w().results(ctx, keys)
	}
}

// predicates readies msg, tx's message, for execution with its warp predicates: it hands
// them with their results to the precompile, drops their storage keys from msg's access list
// and takes their extra intrinsic gas off msg's gas limit. It returns that extra gas, which
// chargePredicates charges after execution, and the results to record (nil without
// predicates).
func (e *executor) predicates(tx *types.Transaction, msg *core.Message) (uint64, []byte, error) {
	if e.warp == nil {
		return 0, nil, nil
	}
	p, err := warpPredicatesOf(tx, e.warp.granite)
	if err != nil {
		return 0, nil, err
	}
	if len(p.keys) == 0 {
		e.rt.SetWarpPredicates(nil)
		return 0, nil, nil
	}
	need, extra, err := predicateIntrinsic(msg.Data, msg.AccessList, msg.SetCodeAuthorizations, msg.From, msg.To, msg.Value, e.rules, p)
	if err != nil {
		return 0, nil, err
	}
	if msg.GasLimit < need {
		return 0, nil, intrinsicGasError(msg.GasLimit, need)
	}
	// go-ethereum checks the balance against the gas limit it is given: check the whole.
	if balance := e.state.GetBalance(msg.From).ToBig(); balance.Cmp(tx.Cost()) < 0 {
		return 0, nil, insufficientFundsError(balance, tx.Cost())
	}
	bits, ok := e.warp.given[tx.Hash()]
	if !ok {
		// Not verified (a block that records no result for it): every predicate fails. A block
		// verified from its bytes is then refused, as finish records results its Extra lacks.
		failed := new(big.Int).Lsh(big.NewInt(1), uint(len(p.keys)))
		bits = failed.Sub(failed, big.NewInt(1)).Bytes()
	}
	if bits == nil {
		bits = []byte{}
	}
	e.rt.SetWarpPredicates(predicateSets(p.keys, bits))
	msg.AccessList, msg.GasLimit = accessListWithoutPredicates(msg.AccessList), msg.GasLimit-extra
	return extra, bits, nil
}

// chargePredicates adds the predicates' extra gas to res and the block's gas pool, and
// charges it to msg's sender at the price msg paid: the base fee part and the tip both go to
// the coinbase, as for the rest of the gas (apply adds the base fee part).
func (e *executor) chargePredicates(msg *core.Message, res *core.ExecutionResult, extra uint64) error {
	if err := e.gp.CheckGasLegacy(extra); err != nil {
		return err
	}
	if err := e.gp.ChargeGasLegacy(0, extra); err != nil {
		return err
	}
	res.UsedGas += extra
	n := uint256.NewInt(extra)
	e.state.SubBalance(msg.From, new(uint256.Int).Mul(n, msg.GasPrice), tracing.BalanceDecreaseGasBuy)
	tip := new(uint256.Int).Sub(msg.GasPrice, uint256.MustFromBig(e.header.BaseFee))
	e.state.AddBalance(e.header.Coinbase, tip.Mul(tip, n), tracing.BalanceIncreaseRewardTransactionFee)
	return nil
}
