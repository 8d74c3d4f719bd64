package evm

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/rawdb"
	"github.com/ethereum/go-ethereum/core/state"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/cornice-node/cornice/storage"
)

// Developer methods (issue #16, devapi.go): a chain whose Config.DevMethods is set keeps a
// devState. Everything that changes the chain (mining on demand, state edits, roll-backs) runs on
// the chain's engine goroutine, at the start of BuildBlock, where no block is in flight: an RPC
// handler queues an operation, signals work and waits for its answer.
//
// State edits (setBalance, setCode, …) change the state after the last accepted block without a
// new block: the edited state is committed to the trie database and its root recorded as the
// block's state root in effect (devRootKey), which every read of the block's state and the next
// block's execution use. Each edit is also appended to the chain's edit log (devLogKey), so a
// later reader can tell why the state changed (docs/decisions.md).

// Keys of the developer methods' records in the VM's key space; go-ethereum's rawdb keys are
// one-letter prefixes or 32-byte hashes and never these.
var (
	// devRootPrefix + block hash → the state root in effect after the block, when edits changed it.
	devRootPrefix = []byte("cornice-dev-root-")
	// devSenderPrefix + transaction hash → the sender of an impersonated (unsigned) transaction.
	devSenderPrefix = []byte("cornice-dev-sender-")
	// devLogPrefix + sequence (8 bytes, big-endian) → one state edit (devEdit, JSON).
	devLogPrefix = []byte("cornice-dev-log-")
)

func devKey(prefix []byte, suffix []byte) []byte {
	return append(append(make([]byte, 0, len(prefix)+len(suffix)), prefix...), suffix...)
}

// DevIDs numbers the snapshots of the node's EVM chains: one source shared by all of them
// (Config.DevIDs), so that a snapshot ID taken on one chain is unknown to every other.
type DevIDs struct{ next atomic.Uint64 }

// take returns the next ID, from 0.
func (d *DevIDs) take() uint64 { return d.next.Add(1) - 1 }

// devOp is an operation queued for the engine goroutine; done receives its result.
type devOp struct {
	fn   func(ctx context.Context) error
	done chan error
}

// mineReq is a request to mine blocks whatever the mempool holds: left more of them, the next at
// time at (0: the usual time), each later one interval seconds after the one before (0: the usual
// time). done receives the result once the last one is accepted.
type mineReq struct {
	left     int
	at       uint64
	interval uint64
	done     chan error
}

// devSnapshot is what evm_snapshot records: the last accepted block, the state root in effect
// after it, and the time offset. The block is kept whole so that a revert need not read it again,
// and with it the VM's shared copy of its header (VM.currentHeader), so that the revert's head
// swap need not copy the header again (about 3 µs, a tenth of a 1-block revert's work before
// its answer).
type devSnapshot struct {
	block  *types.Block
	header *types.Header
	root   common.Hash
	offset int64
}

// devState is a chain's developer-method state. ops, the mining queue and the fields marked so
// are the engine goroutine's; the rest is guarded by mu.
type devState struct {
	vm  *VM
	ids *DevIDs
	// instance identifies this run of the chain (anvil_metadata's instanceId).
	instance common.Hash

	opsMu sync.Mutex
	ops   []*devOp
	// later is what an operation left until its answer (chains.Rewind.Later): runOps runs it
	// once the answer is given (engine goroutine).
	later []func()

	// offset is added to the node's clock for block times, in seconds (evm_increaseTime).
	offset atomic.Int64
	// logging: the chain logs the transactions it takes in (anvil_setLoggingEnabled).
	logging atomic.Bool

	// mines is the queue of mining requests (engine goroutine).
	mines []*mineReq
	// wg counts the interval-mining goroutine, which close waits for.
	wg sync.WaitGroup

	mu sync.Mutex // guards the fields below
	// automine: a block is built as soon as a transaction is executable (the default).
	automine bool
	// nextTime is the next block's time (evm_setNextBlockTimestamp); 0 when unset.
	nextTime uint64
	// tsInterval is the time between blocks (anvil_setBlockTimestampInterval); 0 when unset.
	tsInterval uint64
	coinbase   *common.Address
	// baseFee is the next block's base fee (anvil_setNextBlockBaseFeePerGas).
	baseFee  *big.Int
	gasLimit uint64 // every later block's gas limit (evm_setBlockGasLimit); 0 when unset
	// impersonated are the accounts whose transactions need no signature; auto: every account.
	impersonated map[common.Address]bool
	auto         bool
	// senders are the senders of impersonated transactions (devSenderPrefix).
	senders map[common.Hash]common.Address
	// roots are the state roots in effect after blocks whose state was edited (devRootPrefix).
	roots     map[common.Hash]common.Hash
	snapshots map[uint64]devSnapshot
	logSeq    uint64
	// interval is the time between blocks of interval mining (evm_setIntervalMining), 0 when off;
	// stopInterval stops its goroutine.
	interval     time.Duration
	stopInterval context.CancelFunc
	closed       bool
}

// newDevState loads the chain's records of earlier runs.
func newDevState(vm *VM, ids *DevIDs) (*devState, error) {
	if ids == nil {
		ids = new(DevIDs)
	}
	d := &devState{
		vm:           vm,
		ids:          ids,
		automine:     true,
		impersonated: make(map[common.Address]bool),
		senders:      make(map[common.Hash]common.Address),
		roots:        make(map[common.Hash]common.Hash),
		snapshots:    make(map[uint64]devSnapshot),
	}
	d.logging.Store(true)
	if _, err := rand.Read(d.instance[:]); err != nil {
		return nil, err
	}
	load := func(prefix []byte, fn func(k, v []byte) error) error {
		it, err := vm.kv.view.NewIterator(prefix, nil)
		if err != nil {
			return err
		}
		for it.Next() {
			if err := fn(it.Key()[len(prefix):], it.Value()); err != nil {
				return errors.Join(err, it.Close())
			}
		}
		return errors.Join(it.Err(), it.Close())
	}
	err := errors.Join(
		load(devRootPrefix, func(k, v []byte) error {
			d.roots[common.BytesToHash(k)] = common.BytesToHash(v)
			return nil
		}),
		load(devSenderPrefix, func(k, v []byte) error {
			d.senders[common.BytesToHash(k)] = common.BytesToAddress(v)
			return nil
		}),
		load(devLogPrefix, func(k, _ []byte) error {
			d.logSeq = binary.BigEndian.Uint64(k) + 1
			return nil
		}),
	)
	if err != nil {
		return nil, fmt.Errorf("load developer-method records: %w", err)
	}
	return d, nil
}

// rootOf returns the state root in effect after block hash, whose header's root is root: the
// root its edits left, if any.
func (vm *VM) rootOf(hash, root common.Hash) common.Hash {
	if vm.dev == nil {
		return root
	}
	vm.dev.mu.Lock()
	defer vm.dev.mu.Unlock()
	if r, ok := vm.dev.roots[hash]; ok {
		return r
	}
	return root
}

// stateOfBlock opens the state after blk, its edits included; the head's through its cache.
func (vm *VM) stateOfBlock(blk *types.Block) (*state.StateDB, error) {
	st, _, err := vm.blockState(blk)
	return st, err
}

// blockState is stateOfBlock with, for the head's state, the cache it was opened through
// (headState); nil for another block's.
func (vm *VM) blockState(blk *types.Block) (*state.StateDB, *stateCache, error) {
	root := vm.rootOf(blk.Hash(), blk.Root())
	if blk.Hash() == vm.currentHead().Hash() {
		return vm.headState(root)
	}
	st, err := vm.stateAt(root)
	return st, nil, err
}

// do runs fn on the engine goroutine and returns its result; ctx bounds the wait.
func (d *devState) do(ctx context.Context, fn func(ctx context.Context) error) error {
	op := &devOp{fn: fn, done: make(chan error, 1)}
	d.opsMu.Lock()
	d.ops = append(d.ops, op)
	d.opsMu.Unlock()
	d.vm.signal()
	select {
	case err := <-op.done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// runOps runs the queued operations; BuildBlock calls it on the engine goroutine.
func (d *devState) runOps(ctx context.Context) {
	d.opsMu.Lock()
	ops := d.ops
	d.ops = nil
	d.opsMu.Unlock()
	for _, op := range ops {
		op.done <- op.fn(ctx)
		handOff()
		for _, f := range d.later {
			f()
		}
		clear(d.later) // the funcs go, the room stays
		d.later = d.later[:0]
	}
}

// handOff lets the goroutine just given an answer (an RPC handler waiting in do or mine) run
// at once, before the engine goroutine goes on. The answer made it runnable on this
// goroutine's processor, where it would otherwise wait until another processor's thread
// woke to take it or this goroutine blocked: 50-100 µs of a developer method's round trip on
// a loaded machine (docs/benchmarks.md). The engine goroutine's next work (building a block,
// the rest of an acceptance) has no client waiting on it.
func handOff() { runtime.Gosched() }

// mine queues a request for n blocks and waits until they are accepted.
func (d *devState) mine(ctx context.Context, n int, at, interval uint64) error {
	if n <= 0 {
		return nil
	}
	req := &mineReq{left: n, at: at, interval: interval, done: make(chan error, 1)}
	err := d.do(ctx, func(context.Context) error {
		if err := ctx.Err(); err != nil {
			return err // the requester gave up (interval mining stopped) before the engine came
		}
		d.mines = append(d.mines, req)
		return nil
	})
	if err != nil {
		return err
	}
	select {
	case err := <-req.done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// building reports, on the engine goroutine, whether BuildBlock builds now, and whether the
// block is forced (built even when empty: a mining request).
func (d *devState) building() (build, forced bool) {
	if len(d.mines) > 0 {
		return true, true
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.automine, false
}

// moreToMine reports, on the engine goroutine, whether the mining request being served wants
// more blocks after the one being built.
func (d *devState) moreToMine() bool { return len(d.mines) > 0 && d.mines[0].left > 1 }

// blockTime returns the time of the next block on parent: a mining request's, the one
// evm_setNextBlockTimestamp set, the parent's plus the timestamp interval, or the node's clock
// moved by the offset; never before the parent's.
func (d *devState) blockTime(parent *types.Header) uint64 {
	t := d.vm.now()
	if len(d.mines) > 0 && d.mines[0].at != 0 {
		t = d.mines[0].at
	}
	d.mu.Lock()
	switch {
	case d.nextTime != 0:
		t = d.nextTime
	case d.tsInterval != 0:
		t = parent.Time + d.tsInterval
	}
	d.mu.Unlock()
	return max(t, parent.Time)
}

// adjust applies the header overrides to a block being built.
func (d *devState) adjust(h *types.Header) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.coinbase != nil {
		h.Coinbase = *d.coinbase
	}
	if d.baseFee != nil {
		h.BaseFee = new(big.Int).Set(d.baseFee)
	}
	if d.gasLimit != 0 {
		h.GasLimit = d.gasLimit
	}
}

// nextBaseFee returns anvil_setNextBlockBaseFeePerGas's base fee, nil when unset.
func (d *devState) nextBaseFee() *big.Int {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.baseFee == nil {
		return nil
	}
	return new(big.Int).Set(d.baseFee)
}

// gasLimitOverride returns evm_setBlockGasLimit's limit, 0 when unset.
func (d *devState) gasLimitOverride() uint64 {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.gasLimit
}

// accepted updates the state after block b is accepted: one-block overrides are spent, a time
// set explicitly moves the clock offset to it, and a mining request counts the block.
func (d *devState) accepted(b *types.Block, forced bool) {
	d.mu.Lock()
	explicit := d.nextTime != 0
	d.nextTime, d.baseFee = 0, nil
	d.mu.Unlock()
	var m *mineReq
	if forced && len(d.mines) > 0 {
		m = d.mines[0]
		explicit = explicit || m.at != 0
	}
	if explicit {
		// Time goes on from the block's time; set before the mining request is answered, so
		// that a call after it (evm_increaseTime) moves time from there.
		d.offset.Store(int64(b.Time()) - d.vm.clock.Now().Unix())
	}
	if m == nil {
		return
	}
	if m.at != 0 && m.interval != 0 {
		m.at += m.interval
	} else {
		m.at = 0
	}
	if m.left--; m.left == 0 {
		d.mines = d.mines[1:]
		m.done <- nil
		handOff()
	}
}

// failMine answers the current mining request with err: its block could not be built.
func (d *devState) failMine(err error) {
	if len(d.mines) == 0 {
		return
	}
	m := d.mines[0]
	d.mines = d.mines[1:]
	m.done <- err
}

// devEdit is one record of the edit log.
type devEdit struct {
	Method    string      `json:"method"`
	Params    any         `json:"params"`
	Block     uint64      `json:"block"`
	BlockHash common.Hash `json:"blockHash"`
	From      common.Hash `json:"fromRoot"`
	To        common.Hash `json:"toRoot"`
	Time      time.Time   `json:"time"`
}

// edit runs on the engine goroutine: it applies fn to the state after the last accepted block,
// commits the result, records its root as the block's root in effect and appends the edit to
// the log, all in one batch.
func (d *devState) edit(method string, params any, fn func(*state.StateDB) error) error {
	vm := d.vm
	head := vm.currentHead()
	from := vm.rootOf(head.Hash(), head.Root())
	st, err := vm.stateAt(from)
	if err != nil {
		return err
	}
	if err := fn(st); err != nil {
		return err
	}
	batch := vm.kv.view.NewBatch()
	defer batch.Close()
	vm.kv.setSink(batch)
	defer vm.kv.clearSink()
	rules := vm.chainCfg.Rules(head.Number(), true, head.Time())
	rules.IsCancun = false // an edit may replace an account's storage (setCode, loadState)
	// An edit keeps the accounts it makes even when they look empty (no nonce, balance or code):
	// anvil_setStorageAt on a fresh address must leave its slot there, as anvil's does. EIP-158
	// deletes such an account only when a transaction touches it.
	rules.IsEIP158 = false
	to, err := st.Commit(rules, head.NumberU64())
	if err != nil {
		return fmt.Errorf("%s: commit state: %w", method, err)
	}
	if err := vm.triedb.Commit(to, false); err != nil {
		return fmt.Errorf("%s: commit trie: %w", method, err)
	}
	vm.triedb.WritePreimages()
	rec := devEdit{Method: method, Params: params, Block: head.NumberU64(), BlockHash: head.Hash(), From: from, To: to, Time: vm.clock.Now().UTC()}
	if err := d.commitRoot(batch, head.Hash(), head.Root(), to, &rec); err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	vm.childRulesCache.Store(nil)
	if d.logging.Load() {
		vm.log.Info("state edited by a developer method", "method", method, "block", head.NumberU64(), "fromRoot", from, "toRoot", to)
	}
	return nil
}

// commitRoot records into batch root as the state root in effect after block hash (whose header
// root is header), with rec appended to the edit log when not nil, commits batch and then
// updates the memory.
func (d *devState) commitRoot(batch *storage.Batch, hash, header, root common.Hash, rec *devEdit) error {
	var err error
	if root == header {
		err = batch.Delete(devKey(devRootPrefix, hash[:]))
	} else {
		err = batch.Put(devKey(devRootPrefix, hash[:]), root[:])
	}
	if err != nil {
		return err
	}
	d.mu.Lock()
	seq := d.logSeq
	d.mu.Unlock()
	if rec != nil {
		b, err := json.Marshal(rec)
		if err != nil {
			return err
		}
		if err := batch.Put(devKey(devLogPrefix, binary.BigEndian.AppendUint64(nil, seq)), b); err != nil {
			return err
		}
	}
	if err := batch.Commit(); err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if root == header {
		delete(d.roots, hash)
	} else {
		d.roots[hash] = root
	}
	if rec != nil {
		d.logSeq++
	}
	return nil
}

// snapshot records the chain's head and returns its ID.
func (d *devState) snapshot() uint64 {
	head, header := d.vm.currentHeadAndHeader()
	id := d.ids.take()
	s := devSnapshot{block: head, header: header, root: d.vm.rootOf(head.Hash(), head.Root()), offset: d.offset.Load()}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.snapshots[id] = s
	return id
}

// revert runs on the engine goroutine: it rolls the chain back to snapshot id and forgets it and
// every later one. An unknown ID gives false.
func (d *devState) revert(ctx context.Context, id uint64) (bool, error) {
	d.mu.Lock()
	s, ok := d.snapshots[id]
	if ok {
		for k := range d.snapshots {
			if k >= id {
				delete(d.snapshots, k)
			}
		}
	}
	d.mu.Unlock()
	if !ok {
		return false, nil
	}
	if err := d.rollBack(ctx, s.block, s.header, s.root); err != nil {
		return false, err
	}
	d.offset.Store(s.offset)
	return true, nil
}

// reset runs on the engine goroutine: the chain goes back to its genesis, its pool, snapshots,
// impersonations and overrides are dropped (anvil_reset).
func (d *devState) reset(ctx context.Context) error {
	g := d.vm.genesis
	if err := d.rollBack(ctx, g, g.Header(), g.Root()); err != nil {
		return err
	}
	d.vm.pool.clear()
	d.offset.Store(0)
	d.mu.Lock()
	defer d.mu.Unlock()
	d.snapshots = make(map[uint64]devSnapshot)
	d.impersonated = make(map[common.Address]bool)
	d.auto = false
	d.nextTime, d.tsInterval, d.coinbase, d.baseFee, d.gasLimit = 0, 0, nil, nil, 0
	return nil
}

// rollBack makes blk, a block on the chain (canonical at or below the head), the last accepted
// one, with header a copy of its header that nothing modifies (shared from then on, as
// VM.currentHeader's) and root the state root in effect after it: the blocks above it are dropped with their
// receipts and transaction lookups (through the chain's Rewind, which truncates the index in the
// same batch; rewind.go). blk is the genesis or a live snapshot's block, which is on the chain
// without a read to check it: a snapshot records the head, on the engine goroutine as every
// roll-back; accepting a block only extends the chain; a revert forgets its snapshot and every
// later one (taken at or above it) and reset forgets them all, so a live snapshot's block is an
// ancestor of the head or the head (TestDevSnapshotCanonical).
func (d *devState) rollBack(ctx context.Context, blk *types.Block, header *types.Header, root common.Hash) error {
	vm := d.vm
	head := vm.currentHead()
	height, hash := blk.NumberU64(), blk.Hash()
	if head.NumberU64() > height {
		if vm.rewind == nil {
			return errors.New("roll back: the chain cannot be rewound")
		}
		// The dropped blocks whose state was edited: few, as edits are.
		var edited []common.Hash
		d.mu.Lock()
		_, recorded := d.roots[hash]
		for h := range d.roots {
			if n, ok := rawdb.ReadHeaderNumber(vm.db, h); ok && n > height {
				edited = append(edited, h)
			}
		}
		d.mu.Unlock()
		if err := vm.rollBackChain(ctx, blk, root, recorded, edited); err != nil {
			return err
		}
		d.mu.Lock()
		for _, h := range edited {
			delete(d.roots, h)
		}
		if root == blk.Root() {
			delete(d.roots, hash)
		} else {
			d.roots[hash] = root
		}
		d.mu.Unlock()
		vm.setHeadHeader(blk, header)
		vm.built.Store(nil)
	} else {
		batch := vm.kv.view.NewBatch()
		defer batch.Close()
		if err := d.commitRoot(batch, hash, blk.Root(), root, nil); err != nil {
			return err
		}
	}
	vm.childRulesCache.Store(nil)
	return nil
}

// setAutomine turns automine on or off; on stops interval mining.
func (d *devState) setAutomine(on bool) {
	d.mu.Lock()
	d.automine = on
	if on {
		d.stopIntervalLocked()
	}
	d.mu.Unlock()
	if on {
		d.vm.signal() // the pool may hold transactions that waited
	}
}

// setInterval starts interval mining, a block every every (automine goes off), or stops it
// when every is 0.
func (d *devState) setInterval(every time.Duration) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.stopIntervalLocked()
	if every <= 0 || d.closed {
		return
	}
	d.automine = false
	d.interval = every
	ctx, cancel := context.WithCancel(context.Background())
	d.stopInterval = cancel
	d.wg.Go(func() { d.mineEvery(ctx, every) })
}

func (d *devState) stopIntervalLocked() {
	if d.stopInterval != nil {
		d.stopInterval()
		d.stopInterval, d.interval = nil, 0
	}
}

// mineEvery mines a block every every until ctx is done.
func (d *devState) mineEvery(ctx context.Context, every time.Duration) {
	for {
		t := d.vm.clock.NewTimer(every)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
		if err := d.mine(ctx, 1, 0, 0); err != nil && ctx.Err() == nil {
			d.vm.log.Warn("interval mining failed", "err", err)
		}
	}
}

// close stops interval mining and waits for it.
func (d *devState) close() {
	d.mu.Lock()
	d.closed = true
	d.stopIntervalLocked()
	d.mu.Unlock()
	d.wg.Wait()
}

// devSigner is the chain's signer with developer methods on: the sender of an impersonated
// transaction, which carries no valid signature, is the one recorded for it.
type devSigner struct {
	types.Signer
	dev *devState
}

// Sender implements types.Signer.
func (s devSigner) Sender(tx *types.Transaction) (common.Address, error) {
	s.dev.mu.Lock()
	from, ok := s.dev.senders[tx.Hash()]
	s.dev.mu.Unlock()
	if ok {
		return from, nil
	}
	return s.Signer.Sender(tx)
}

// Equal implements types.Signer: go-ethereum caches a transaction's sender per signer.
func (s devSigner) Equal(o types.Signer) bool {
	d, ok := o.(devSigner)
	return ok && d.dev == s.dev && s.Signer.Equal(d.Signer)
}
