package evm

import (
	"context"
	"encoding/binary"
	"fmt"
	"math/big"
	"slices"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/rawdb"
	"github.com/ethereum/go-ethereum/core/state"
	"github.com/ethereum/go-ethereum/core/tracing"
	"github.com/ethereum/go-ethereum/core/types"
	gethvm "github.com/ethereum/go-ethereum/core/vm"
	"github.com/ethereum/go-ethereum/params"
	"github.com/ethereum/go-ethereum/rlp"
	"github.com/ethereum/go-ethereum/trie"
	"github.com/holiman/uint256"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
	"github.com/cornice-node/cornice/vms/evm/acp176"
	"github.com/cornice-node/cornice/vms/evm/atomic"
	"github.com/cornice-node/cornice/vms/evm/l1params"
	"github.com/cornice-node/cornice/vms/evm/precompile"
)

// maxFutureBlockTime is how far ahead of the node's clock a block's time may
// be (l1-evm.md §3.10).
const maxFutureBlockTime = 10 * time.Second

// Block is an EVM block as the acceptance pipeline sees it: its ID is the
// block hash and its bytes are its RLP (DESIGN.md decision 4).
type Block struct {
	vm    *VM
	eth   *types.Block
	bytes []byte
	// result is the block's execution, from BuildBlock or Verify, until
	// Accepted.
	result *execResult
	// built is set on a block this VM built: its header was made by
	// nextHeader on the block it names as parent, so Verify need not check
	// it again while that block is still the last accepted or processing.
	built bool
	// gasCost is the block's block gas cost (l1-evm.md §3.7), set by
	// BuildBlock and Verify; Accept records it.
	gasCost uint64
	// forced is set on a block a developer's mining request built
	// (dev.go): it may be empty and skips the block fee check.
	forced bool
	// deferSync is set on a forced block that is not its request's
	// last: its acceptance need not wait for the disk (DeferSync).
	deferSync bool
	// atomicTxs are the C-Chain atomic txs the block carries after its
	// EVM txs, and extData their batch (atomic.BatchBytes), nil without
	// any; the header's MixDigest commits to it (atomicDigest).
	atomicTxs []*atomic.Tx
	extData   []byte
}

// atomicBlock is the RLP of a block that carries atomic txs: the
// go-ethereum block, then the batch. A block without any is the
// go-ethereum block's RLP alone, as before atomic txs.
type atomicBlock struct {
	Block   *types.Block
	ExtData []byte
}

var _ chains.Block = (*Block)(nil)

// Eth returns the go-ethereum block.
func (b *Block) Eth() *types.Block { return b.eth }

// ID implements chains.Block.
func (b *Block) ID() ids.ID { return ids.ID(b.eth.Hash()) }

// Parent implements chains.Block.
func (b *Block) Parent() ids.ID { return ids.ID(b.eth.ParentHash()) }

// Height implements chains.Block.
func (b *Block) Height() uint64 { return b.eth.NumberU64() }

// TxCount is the number of transactions in the block, for the node's log line of each
// accepted block.
func (b *Block) TxCount() int { return b.eth.Transactions().Len() + len(b.atomicTxs) }

// Timestamp implements chains.Block.
func (b *Block) Timestamp() time.Time { return time.Unix(int64(b.eth.Time()), 0).UTC() }

// Bytes implements chains.Block.
func (b *Block) Bytes() []byte {
	if b.bytes == nil {
		var v any = b.eth
		if b.extData != nil {
			v = &atomicBlock{Block: b.eth, ExtData: b.extData}
		}
		enc, err := rlp.EncodeToBytes(v)
		if err != nil {
			panic(fmt.Sprintf("evm: encode block: %v", err)) // a decoded or built block always encodes
		}
		b.bytes = enc
	}
	return b.bytes
}

// execResult is what executing a block's transactions produced. Accept
// commits state; Accepted hands receipts to the feeds and prunes the
// mempool with senders and nonces, so nothing of it is read back from the
// database.
type execResult struct {
	state *state.StateDB
	// receipts have every derived field (those rawdb.ReadReceipts fills
	// in), their logs included.
	receipts types.Receipts
	// senders holds each transaction's sender, in block order.
	senders []common.Address
	// nonces is each sender's account nonce after the block.
	nonces map[common.Address]uint64
	// wipes: the block wiped a disabled precompile's storage.
	wipes bool
	// extData is the batch of the block's atomic txs, nil without any.
	extData []byte
}

// noRefundState is the StateDB the EVM sees: it reports an empty refund
// counter, so go-ethereum's ApplyMessage returns only unused gas
// (l1-evm.md §3.9, §7.2: no refunds from SubnetEVM and AP1 on).
type noRefundState struct{ *state.StateDB }

func (noRefundState) GetRefund() uint64 { return 0 }

// executor applies transactions on top of a parent state for one header.
type executor struct {
	vm     *VM
	header *types.Header
	state  *state.StateDB
	evm    *gethvm.EVM
	// rt is evm's precompile runtime.
	rt *precompile.Runtime
	// txAllowList: the transaction allow list is in force, so every
	// sender needs a role in it (l1-evm.md §5.3).
	txAllowList bool
	// wipes: a precompile disable at the block's start wiped an
	// account's storage.
	wipes bool
	gp    *core.GasPool
	// fees are the block's fees: its gas pool holds their capacity, and
	// finish writes the Extra they give (childFees.extra), the target
	// excess moved toward desiredTarget (nil: kept).
	fees          childFees
	desiredTarget *uint64
	rules         params.Rules
	// warp holds the block's warp predicate results; nil when warp is not active in it.
	warp     *blockPredicates
	txs      types.Transactions
	receipts types.Receipts
	senders  []common.Address
	// atomicTxs are the block's atomic txs, applied after its EVM txs,
	// using atomicGas of the block's gas; spent holds their inputs and
	// those of the processing ancestors' atomic txs (atomicInputs).
	atomicTxs []*atomic.Tx
	atomicGas uint64
	spent     map[ids.ID]struct{}
}

// blockContext is the EVM's view of header: PREVRANDAO is hash(1) so the
// post-merge rules (Shanghai, Cancun) apply, DIFFICULTY is 0, the blob base
// fee is 1 wei (l1-evm.md §7.5).
func (vm *VM) blockContext(header *types.Header) gethvm.BlockContext {
	return vm.blockContextWith(header, vm.getHashFn(header.Number.Uint64()))
}

// blockContextWith is blockContext with BLOCKHASH answered by getHash.
func (vm *VM) blockContextWith(header *types.Header, getHash gethvm.GetHashFunc) gethvm.BlockContext {
	random := common.BigToHash(big.NewInt(1))
	return gethvm.BlockContext{
		CanTransfer: core.CanTransfer,
		Transfer:    core.Transfer,
		GetHash:     getHash,
		Coinbase:    header.Coinbase,
		GasLimit:    header.GasLimit,
		BlockNumber: new(big.Int).Set(header.Number),
		Time:        header.Time,
		Difficulty:  new(big.Int),
		BaseFee:     new(big.Int).Set(header.BaseFee),
		BlobBaseFee: big.NewInt(1),
		Random:      &random,
	}
}

// getHashFn answers BLOCKHASH for a block at height number: the canonical
// hashes of the 256 blocks before it.
func (vm *VM) getHashFn(number uint64) gethvm.GetHashFunc {
	return func(n uint64) common.Hash {
		if n >= number || number-n > 256 {
			return common.Hash{}
		}
		return rawdb.ReadCanonicalHash(vm.db, n)
	}
}

// newExecutor returns an executor of header's block on parent's state,
// with what takes effect at the block's start (precompile activations,
// state upgrades, then the EIP-4788 beacon root) already applied.
func (vm *VM) newExecutor(parent, header *types.Header) (*executor, error) {
	root := parent.Root
	if vm.dev != nil {
		root = vm.rootOf(parent.Hash(), root)
	}
	st, err := vm.stateAt(root)
	if err != nil {
		return nil, fmt.Errorf("open parent state %s: %w", root, err)
	}
	return vm.newExecutorOn(parent, st, header, vm.getHashFn(header.Number.Uint64()))
}

// newExecutorOn is newExecutor on st, parent's state, which the executor takes, with BLOCKHASH
// answered by getHash.
func (vm *VM) newExecutorOn(parent *types.Header, st *state.StateDB, header *types.Header, getHash gethvm.GetHashFunc) (*executor, error) {
	wipes, err := vm.applyUpgrades(st, parent.Time, header)
	if err != nil {
		return nil, fmt.Errorf("block %d upgrades: %w", header.Number, err)
	}
	evm, rt := vm.newEVM(vm.blockContextWith(header, getHash), noRefundState{st}, gethvm.Config{}, nil)
	if root := header.ParentBeaconRoot; root != nil {
		// EIP-4788, from Cancun (Etna): the beacon roots contract records
		// the header's parent beacon root, always zero here (l1-evm.md
		// §3.8, §4.4), keyed by the block's time, in a system call before
		// the first transaction, as the reference does. Without the
		// contract in the state (it is in no genesis unless put in its
		// alloc) the call does nothing.
		core.ProcessBeaconBlockRoot(*root, evm, nil)
	}
	e := &executor{
		vm:          vm,
		header:      header,
		state:       st,
		evm:         evm,
		rt:          rt,
		txAllowList: rt != nil && rt.IsActive(l1params.TxAllowListAddress),
		gp:          core.NewGasPool(header.GasLimit),
		rules:       evm.GetRules(),
		wipes:       wipes,
	}
	if rt != nil && rt.IsActive(l1params.WarpAddress) {
		// The results header's Extra records: none for a block being built (its builder
		// verifies), the block's own for one verified or replayed from its bytes.
		given, err := vm.recordedPredicateResults(header)
		if err != nil {
			e.release()
			return nil, err
		}
		e.warp = &blockPredicates{granite: vm.graniteAt(header.Time), given: given, results: make(predicateResults)}
	}
	return e, nil
}

// release gives the EVM's stack back to go-ethereum's pool (32 KiB that
// would otherwise be garbage with every block); e applies nothing after.
func (e *executor) release() {
	if e.evm != nil {
		e.evm.Release()
		e.evm = nil
	}
}

// apply runs tx; on error the state and gas pool are as before. A sender
// without a role in the transaction allow list, or a transaction that
// invalidated itself in a stateful precompile, is an error: a block
// cannot hold it (l1-evm.md §5.0, §5.3).
func (e *executor) apply(tx *types.Transaction) error {
	msg, err := core.TransactionToMessage(tx, e.vm.signer, e.header.BaseFee)
	if err != nil {
		return err
	}
	if e.txAllowList && !precompile.TxAllowed(e.state, msg.From) {
		return precompile.TxNotAllowedError(msg.From)
	}
	preds, bits, err := e.predicates(tx, msg)
	if err != nil {
		return err
	}
	snap, gp := e.state.Snapshot(), e.gp.Snapshot()
	e.state.SetTxContext(tx.Hash(), len(e.txs), 0)
	res, err := core.ApplyMessage(e.evm, msg, e.gp)
	if err == nil && e.rt != nil && e.rt.Invalidated() {
		err = precompile.ErrDelegateCallInvalidated
	}
	if err == nil && preds > 0 {
		err = e.chargePredicates(msg, res, preds)
	}
	if err != nil {
		e.state.RevertToSnapshot(snap)
		e.gp.Set(gp)
		return err
	}
	if bits != nil {
		e.warp.results[tx.Hash()] = bits
	}
	// ApplyMessage paid the tip to the coinbase and burnt the base fee: the
	// coinbase gets the base fee too, so it has the whole fee (§3.9).
	fee := new(uint256.Int).Mul(uint256.MustFromBig(e.header.BaseFee), uint256.NewInt(res.UsedGas))
	e.state.AddBalance(e.header.Coinbase, fee, tracing.BalanceIncreaseRewardTransactionFee)
	e.state.Finalise(e.rules)
	receipt := core.MakeReceipt(e.evm, res, e.state, e.header.Number, common.Hash{}, e.header.Time, tx, e.gp.CumulativeUsed(), nil)
	// The one derived field MakeReceipt leaves out (rawdb.ReadReceipts
	// sets it), so that the receipts kept in memory equal those read back.
	receipt.EffectiveGasPrice = txGasPrice(tx, e.header.BaseFee)
	if receipt.Logs == nil {
		receipt.Logs = []*types.Log{} // as decoding gives
	}
	e.txs = append(e.txs, tx)
	e.receipts = append(e.receipts, receipt)
	e.senders = append(e.senders, msg.From)
	return nil
}

// price sets the block's fees: its gas pool is their capacity, and finish
// writes their Extra with the target excess moved toward desired.
func (e *executor) price(f childFees, desired *uint64) {
	e.fees, e.desiredTarget = f, desired
	e.gp = core.NewGasPool(f.capacity())
}

// finish seals the header and returns the block.
func (e *executor) finish() (*types.Block, *execResult, error) {
	e.header.GasUsed = e.gp.CumulativeUsed()
	extra, err := e.fees.extra(e.header.GasUsed+e.atomicGas, e.desiredTarget)
	if err != nil {
		return nil, nil, err
	}
	if e.warp != nil && len(e.warp.results) > 0 {
		extra = append(slices.Clip(extra), e.warp.results.bytes()...)
	}
	e.header.Extra = extra
	var extData []byte
	if len(e.atomicTxs) > 0 {
		if extData, err = atomic.BatchBytes(e.atomicTxs); err != nil {
			return nil, nil, err
		}
	}
	e.header.MixDigest = atomicDigest(extData)
	e.header.Root = e.state.IntermediateRoot(e.rules)
	body := &types.Body{Transactions: e.txs}
	if e.rules.IsShanghai {
		body.Withdrawals = []*types.Withdrawal{} // sets the empty withdrawals hash
	}
	blk := types.NewBlock(e.header, body, e.receipts, trie.NewStackTrie(nil))
	hash := blk.Hash()
	for _, r := range e.receipts {
		r.BlockHash = hash
		for _, l := range r.Logs {
			l.BlockHash = hash
		}
	}
	// The senders' objects are in the state's memory: no trie reads.
	nonces := make(map[common.Address]uint64, len(e.senders))
	for _, from := range e.senders {
		if _, ok := nonces[from]; !ok {
			nonces[from] = e.state.GetNonce(from)
		}
	}
	return blk, &execResult{state: e.state, receipts: e.receipts, senders: e.senders, nonces: nonces, wipes: e.wipes, extData: extData}, nil
}

// txGasPrice is the price per gas tx pays in a block with base fee
// baseFee: its gas price for the legacy and access-list kinds, min(fee
// cap, base fee + tip cap) for the others.
func txGasPrice(tx *types.Transaction, baseFee *big.Int) *big.Int {
	switch tx.Type() {
	case types.LegacyTxType, types.AccessListTxType:
		return tx.GasPrice()
	default:
		return effectiveGasPrice(tx, baseFee)
	}
}

// nextHeader returns the header of a block at time t on parent, whose
// rules are r, and its fees, without the fields execution fills in (gas
// used, roots, and the Extra finish writes). The Cancun fields are there
// from Cancun on (l1-evm.md §3.8); the withdrawals hash, which
// go-ethereum's header needs from Shanghai on, is set by types.NewBlock.
func (vm *VM) nextHeader(parent *types.Header, r *childRules, t uint64) (*types.Header, childFees, error) {
	if t < parent.Time {
		t = parent.Time
	}
	f, err := vm.childFees(parent, r, t)
	if err != nil {
		return nil, childFees{}, err
	}
	h := &types.Header{
		ParentHash: r.parent,
		Coinbase:   r.coinbase,
		Difficulty: big.NewInt(1),
		Number:     new(big.Int).Add(parent.Number, common.Big1),
		GasLimit:   f.gasLimit,
		Time:       t,
		Extra:      f.window,
		BaseFee:    f.baseFee,
	}
	if vm.chainCfg.IsCancun(h.Number, t) {
		zero := uint64(0)
		h.BlobGasUsed, h.ExcessBlobGas, h.ParentBeaconRoot = &zero, new(uint64), &common.Hash{}
	}
	return h, f, nil
}

// now returns the node's time in whole seconds, moved by the developer
// methods' offset (evm_increaseTime) when they are on.
func (vm *VM) now() uint64 {
	t := vm.clock.Now().Unix()
	if vm.dev != nil {
		t += vm.dev.offset.Load()
	}
	return uint64(max(t, 0))
}

// BuildBlock implements chains.Builder: on the preferred block, every executable transaction that fits
// goes in, highest effective tip first, each sender's in nonce order.
// Transactions that fail go out of the mempool; a block is never empty.
//
// With developer methods on (dev.go), their queued operations run first;
// with automine off a block is built only for a mining request, which
// builds one even when it is empty.
func (vm *VM) BuildBlock(ctx context.Context) (chains.Block, error) {
	forced := false
	if d := vm.dev; d != nil {
		d.runOps(ctx)
	}
	// What roll-backs left behind goes a chunk at a time, here where no block is in flight.
	vm.sweepStep(ctx)
	if d := vm.dev; d != nil {
		build, f := d.building()
		if !build {
			return nil, chains.ErrNoWork
		}
		forced = f
	}
	b, err := vm.buildBlock(ctx, !forced, forced)
	if err != nil {
		if forced && ctx.Err() == nil {
			vm.dev.failMine(err)
		}
		return nil, err
	}
	b.forced = forced
	b.deferSync = forced && vm.dev.moreToMine()
	vm.built.Store(b)
	return b, nil
}

// DeferSync implements solo.SyncDeferrer: a block of a request to mine many, other than its
// last, is accepted without waiting for the disk; the request is answered once its last
// block's synced acceptance has made them all durable (docs/decisions.md).
func (b *Block) DeferSync() bool { return b.deferSync }

// buildBlock builds a block as BuildBlock says; without checkFee it skips
// the block fee check (tests make invalid blocks with it); with force it
// builds a block even when no transaction goes in.
func (vm *VM) buildBlock(ctx context.Context, checkFee, force bool) (*Block, error) {
	// Nothing to build from: spare the opening of the parent's state. An automining chain
	// tries after each block and each developer method, whose next call waits for the CPU.
	if !force && vm.pool.len() == 0 && (vm.atomic == nil || vm.atomic.pool.len() == 0) {
		return nil, chains.ErrNoWork
	}
	parent, proc := vm.preferredParent()
	r, err := vm.childRulesFor(parent, proc)
	if err != nil {
		return nil, err
	}
	t := vm.now()
	if vm.dev != nil {
		t = vm.dev.blockTime(parent.Header())
	}
	header, fees, err := vm.nextHeader(parent.Header(), r, t)
	if err != nil {
		return nil, err
	}
	if vm.dev != nil {
		vm.dev.adjust(header)
	}
	e, err := vm.executorFor(parent.Header(), proc, header)
	if err != nil {
		return nil, err
	}
	defer e.release()
	e.price(fees, vm.desiredTarget) // this node's preferred target (cfees.go)
	if vm.dev != nil {
		if gl := vm.dev.gasLimitOverride(); gl != 0 {
			e.gp = core.NewGasPool(gl)
		}
	}
	short := false // a transaction waits for the capacity to refill
	pending := vm.pool.executable(e.state.GetNonce)
	if len(pending) == 0 && !force && (vm.atomic == nil || vm.atomic.pool.len() == 0) {
		return nil, chains.ErrNoWork
	}
	q := newTxQueue(pending, header.BaseFee)
	// Read the P-Chain only for a block with predicates.
	warpVerifier := sync.OnceValue(func() *warpVerifier { return vm.newWarpVerifier(ctx, header.Time) })
	for ptx := q.peek(); ptx != nil; ptx = q.peek() {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		tx := ptx.tx
		if tx.GasFeeCap().Cmp(header.BaseFee) < 0 {
			q.pop() // waits for a lower base fee
			continue
		}
		if tx.Gas() > e.gp.Available(false) {
			q.pop() // does not fit: the next block
			short = true
			continue
		}
		e.verifyPredicates(ctx, warpVerifier, tx)
		if err := e.apply(tx); err != nil {
			vm.log.Debug("transaction dropped", "tx", tx.Hash(), "err", err)
			vm.pool.remove(tx.Hash())
			q.pop()
			continue
		}
		q.shift()
	}
	if vm.atomic != nil {
		if err := e.pickAtomic(proc); err != nil {
			return nil, err
		}
	}
	if len(e.txs)+len(e.atomicTxs) == 0 && !force {
		if short && fees.state != nil {
			// ACP-176's capacity refills by twice the target each
			// second: try again in the next one.
			vm.retryBuildAt(header.Time + 1)
		}
		return nil, chains.ErrNoWork
	}
	cost := vm.childGasCost(r, header.Time)
	if cost > 0 && checkFee {
		fee, err := blockFee(header.BaseFee, e.txs, e.receipts)
		if err != nil {
			return nil, err
		}
		if fee.Cmp(new(big.Int).SetUint64(cost)) < 0 {
			// Too soon for these tips: the cost falls by blockGasCostStep
			// a second past targetBlockRate, so try again when it is
			// covered (a new transaction signals sooner).
			at, ok := vm.gasCostReadyAt(r, header.Time, satUint64(fee))
			if ok {
				vm.retryBuildAt(at)
			}
			vm.log.Debug("block fee below the block gas cost, waiting", "cost", cost, "fee", fee, "retryAt", at, "retry", ok)
			return nil, chains.ErrNoWork
		}
	}
	blk, res, err := e.finish()
	if err != nil {
		return nil, err
	}
	return &Block{vm: vm, eth: blk, result: res, built: true, gasCost: cost, atomicTxs: e.atomicTxs, extData: res.extData}, nil
}

// verifyOnHead is Verify of a block whose parent is the last accepted block.
func (b *Block) verifyOnHead(ctx context.Context) error {
	vm := b.vm
	head := vm.currentHead()
	r, err := vm.childRulesOf(head)
	if err != nil {
		return err
	}
	cost := vm.childGasCost(r, b.eth.Time())
	if b.built && b.eth.ParentHash() == head.Hash() && b.gasCost != cost {
		// Only a built block claims a cost: the bytes carry none, so a
		// block from elsewhere is held to the recomputed one.
		return blockGasCostError(b.gasCost, cost)
	}
	if b.built && b.result != nil && b.eth.ParentHash() == head.Hash() {
		return nil
	}
	parent, h := vm.currentHeader(), b.eth.Header()
	fees, desired, err := vm.verifyHeader(parent, r, h, b)
	if err != nil {
		return err
	}
	if b.result != nil {
		return nil
	}
	e, err := vm.newExecutor(parent, types.CopyHeader(h))
	if err != nil {
		return err
	}
	return b.execute(ctx, e, cost, fees, desired)
}

// execute runs the block's transactions with e, which it releases, priced by fees and desired
// (verifyHeader's), and checks that they give the block's header and pay its block gas cost
// cost; the result is kept for Accept.
func (b *Block) execute(ctx context.Context, e *executor, cost uint64, fees childFees, desired *uint64) error {
	defer e.release()
	e.price(fees, desired)
	h := b.eth.Header()
	for i, tx := range b.eth.Transactions() {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := e.apply(tx); err != nil {
			return fmt.Errorf("transaction %d (%s): %w", i, tx.Hash(), err)
		}
	}
	if err := e.applyAtomic(b); err != nil {
		return err
	}
	if err := verifyBlockFee(h.BaseFee, cost, e.txs, e.receipts); err != nil {
		return err
	}
	blk, res, err := e.finish()
	if err != nil {
		return err
	}
	if got := blk.Header(); got.Hash() != h.Hash() {
		switch {
		case got.Root != h.Root:
			return headerError("state root", h.Root, got.Root)
		case got.GasUsed != h.GasUsed:
			return headerError("gas used", h.GasUsed, got.GasUsed)
		case got.ReceiptHash != h.ReceiptHash:
			return headerError("receipts root", h.ReceiptHash, got.ReceiptHash)
		default:
			return headerError("block hash", h.Hash(), got.Hash())
		}
	}
	b.result, b.gasCost = res, cost
	return nil
}

// verifyHeader checks h's fields that do not need execution against
// parent, whose children's rules are r, and returns the block's fees and
// the target excess its builder moved toward (ACP-176 lets it move by at
// most 2^15; nil without ACP-176), for its execution.
func (vm *VM) verifyHeader(parent *types.Header, r *childRules, h *types.Header, b *Block) (childFees, *uint64, error) {
	// childFees fails only for a time before the parent's, which
	// verifyHeaderFields reports first.
	f, ferr := vm.childFees(parent, r, h.Time)
	if err := vm.verifyHeaderFields(parent, h, f.gasLimit, b, r); err != nil {
		return childFees{}, nil, err
	}
	if ferr != nil {
		return childFees{}, nil, ferr
	}
	var atomicGas uint64
	for _, tx := range b.atomicTxs {
		atomicGas += tx.GasUsed()
	}
	desired, err := vm.verifyFees(f, h, atomicGas)
	if err != nil {
		return childFees{}, nil, err
	}
	return f, desired, nil
}

// verifyHeaderFields checks h's fields, those of b, other than its base fee
// and Extra; gasLimit is the one its fees give.
func (vm *VM) verifyHeaderFields(parent, h *types.Header, gasLimit uint64, b *Block, r *childRules) error {
	shanghai, cancun := vm.chainCfg.IsShanghai(h.Number, h.Time), vm.chainCfg.IsCancun(h.Number, h.Time)
	switch {
	case h.ParentHash != r.parent:
		return headerError("parent", h.ParentHash, r.parent)
	case h.Number.Uint64() != parent.Number.Uint64()+1:
		return headerError("number", h.Number, parent.Number.Uint64()+1)
	case h.Time < parent.Time:
		return timestampError(h.Time, parent.Time)
	case h.Time > vm.now()+uint64(maxFutureBlockTime/time.Second):
		return headerError("timestamp", h.Time, "at most 10 s ahead")
	case h.GasLimit != gasLimit:
		if vm.l1 != nil {
			return l1GasLimitError(gasLimit, h.GasLimit)
		}
		return headerError("gas limit", h.GasLimit, gasLimit)
	case !r.anyCoinbase && h.Coinbase != r.coinbase:
		if vm.l1 != nil {
			return l1CoinbaseError(h.Coinbase, r.coinbase)
		}
		return headerError("coinbase", h.Coinbase, r.coinbase)
	case h.Difficulty == nil || h.Difficulty.Cmp(common.Big1) != 0:
		return headerError("difficulty", h.Difficulty, 1)
	case h.Nonce != (types.BlockNonce{}):
		return headerError("nonce", h.Nonce, "zero")
	case h.MixDigest != atomicDigest(b.extData):
		return errAtomicBlock
	case h.UncleHash != types.EmptyUncleHash:
		return headerError("uncles", h.UncleHash, types.EmptyUncleHash)
	case shanghai && (h.WithdrawalsHash == nil || *h.WithdrawalsHash != types.EmptyWithdrawalsHash):
		return headerError("withdrawals", h.WithdrawalsHash, types.EmptyWithdrawalsHash)
	case !shanghai && h.WithdrawalsHash != nil:
		return headerError("withdrawals", h.WithdrawalsHash, "absent before Shanghai")
	case cancun && (h.BlobGasUsed == nil || *h.BlobGasUsed != 0 || h.ExcessBlobGas == nil || *h.ExcessBlobGas != 0):
		return headerError("blob gas", h.BlobGasUsed, 0)
	case cancun && (h.ParentBeaconRoot == nil || *h.ParentBeaconRoot != (common.Hash{})):
		return headerError("parent beacon root", h.ParentBeaconRoot, common.Hash{})
	case !cancun && (h.BlobGasUsed != nil || h.ExcessBlobGas != nil || h.ParentBeaconRoot != nil):
		return headerError("Cancun fields", "set", "absent before Cancun")
	case h.RequestsHash != nil || h.BlockAccessListHash != nil || h.SlotNumber != nil:
		return headerError("post-Cancun fields", "set", "absent")
	case len(b.eth.Transactions())+len(b.atomicTxs) == 0:
		return errEmptyBlock
	}
	return nil
}

// verifyFees checks h's base fee and Extra against its fees f, the block's
// EVM txs and its atomic txs (atomicGas) consuming gas as its builder counted
// them, and returns the target excess h's builder moved toward.
func (vm *VM) verifyFees(f childFees, h *types.Header, atomicGas uint64) (*uint64, error) {
	if h.BaseFee == nil || h.BaseFee.Cmp(f.baseFee) != 0 {
		return nil, headerError("base fee", h.BaseFee, f.baseFee)
	}
	var desired *uint64
	if f.state != nil {
		if claimed, err := acp176.ParseState(h.Extra); err == nil {
			desired = &claimed.TargetExcess
		}
	}
	extra, err := f.extra(h.GasUsed+atomicGas, desired)
	if err != nil {
		return nil, err
	}
	// Predicate results may follow the window or the fee state (predicates.go); executing the
	// block checks them, as finish writes them again.
	got := h.Extra[:len(h.Extra)-len(predicateTail(h.Extra, vm.feePrefix(h.Time)))]
	if string(got) != string(extra) {
		return nil, headerError("extra", common.Bytes2Hex(h.Extra), common.Bytes2Hex(extra))
	}
	return desired, nil
}

// Accept implements chains.Block: the block, its receipts, its transaction
// lookups, the canonical and head pointers, its contract code and its trie
// nodes all go into batch, through the ethdb adapter's sink.
func (b *Block) Accept(_ context.Context, batch *storage.Batch) error {
	if b.result == nil {
		return errNotVerified
	}
	vm := b.vm
	vm.kv.setSink(batch)
	defer vm.kv.clearSink()

	blk := b.eth
	hash, number := blk.Hash(), blk.NumberU64()
	// rawdb's writers end the process (log.Crit) on a write error: they
	// write into a buffer that cannot fail, and Write reports the sink's
	// error instead.
	eb := vm.db.NewBatch()
	rawdb.WriteBlock(eb, blk)
	rawdb.WriteReceipts(eb, hash, number, b.result.receipts)
	rawdb.WriteCanonicalHash(eb, hash, number)
	rawdb.WriteTxLookupEntriesByBlock(eb, blk)
	// Only the head block's hash: go-ethereum's head header and fast-sync head records are
	// read by nothing here (its BlockChain is not used), and each key costs the commit about
	// 2 µs in Pebble's memtable.
	rawdb.WriteHeadBlockHash(eb, hash)
	if vm.hasGasCostRecord(number, blk.Time()) {
		if err := eb.Put(gasCostKey(hash), binary.BigEndian.AppendUint64(nil, b.gasCost)); err != nil {
			return fmt.Errorf("write block %s: %w", hash, err)
		}
	}
	if err := writeSentWarpMessages(eb, b.result.receipts); err != nil {
		return fmt.Errorf("write block %s: %w", hash, err)
	}
	if vm.atomic != nil {
		if err := vm.atomic.acceptAtomic(batch, eb.Put, b); err != nil {
			return fmt.Errorf("write block %s: %w", hash, err)
		}
	}
	if err := eb.Write(); err != nil {
		return fmt.Errorf("write block %s: %w", hash, err)
	}
	rules := vm.chainCfg.Rules(blk.Number(), true, blk.Time())
	if b.result.wipes {
		// go-ethereum refuses to wipe an existing account's storage under
		// Cancun (EIP-6780 leaves no way to); a precompile disable does
		// (l1-evm.md §5.0). The flag only guards that; the hash scheme
		// ignores the storage key format it also selects.
		rules.IsCancun = false
	}
	root, err := b.result.state.Commit(rules, number)
	if err != nil {
		return fmt.Errorf("commit state of block %s: %w", hash, err)
	}
	if root != blk.Root() {
		return headerError("state root", blk.Root(), root)
	}
	if err := vm.triedb.Commit(root, false); err != nil {
		return fmt.Errorf("commit trie of block %s: %w", hash, err)
	}
	vm.triedb.WritePreimages() // into batch; a no-op unless developer methods are on
	return nil
}
