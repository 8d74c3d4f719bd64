package evm

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/rawdb"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethdb"
	"github.com/ethereum/go-ethereum/rlp"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
)

// A roll-back (a developer's evm_revert or anvil_reset, dev.go) costs the same however many
// blocks it drops (docs/decisions.md, "Roll-back"). Its one batch moves the head pointers,
// removes the dropped heights' headers, canonical hashes and receipts with range deletions
// (go-ethereum keys them by height first), and records the heights whose block bodies may be
// dropped ones (droppedKey). What a range cannot reach, because it is keyed by hash, is left
// behind: the bodies, the hash → height entries, the transaction lookups, the block gas costs
// and the index's ID entries of the dropped blocks. Every reader already ignores them (a block
// or transaction counts only when it is canonical at or below the head: blockByHash,
// canonicalTx; the index checks its entries), and the sweep removes them later, a chunk at a
// time, on the engine goroutine, resumed after a restart from the record. A roll-back of a few
// blocks removes them key by key in its own batch instead, and leaves nothing behind.

// droppedKey holds the heights [lo, hi] (two u64, big-endian) whose block bodies may belong to
// dropped blocks, until the sweep has been through them; absent when there is nothing to sweep.
var droppedKey = []byte("cornice-dropped-heights")

const (
	// inlineDrop is the most blocks a roll-back sweeps in its own batch: a bounded cost, and
	// the common revert of one test's few blocks then leaves nothing behind.
	inlineDrop = 64
	// sweepChunk is about how many dropped blocks one sweep batch removes: small enough that
	// a block waiting behind it on the engine goroutine waits little.
	sweepChunk = 1024
)

// heightKey returns prefix followed by n as go-ethereum encodes block numbers in its keys.
func heightKey(prefix byte, n uint64) []byte {
	return binary.BigEndian.AppendUint64([]byte{prefix}, n)
}

// heightKeyed are the prefixes of go-ethereum's records keyed by height first whose dropped
// heights a large roll-back removes with range deletions: headers with their canonical hashes
// ("h"), and receipts ("r"). Bodies ("b") stay for the sweep, which finds the dropped blocks'
// transactions in them.
var heightKeyed = []byte{'h', 'r'}

// stageRollBack writes into batch the roll-back of the chain from its head, head, to blk, whose
// state root in effect is root (recorded: blk has a root record, devRootPrefix), and returns the IDs of the dropped blocks it removed in the same
// batch. It refuses to drop a block that carries atomic txs.
//
// A roll-back of at most inlineDrop blocks while the sweep is idle removes them key by key
// (Pebble's range deletions cost every later read a little until they are compacted away, and a
// test suite reverts after every test); a larger one removes their height-keyed records with
// range deletions and leaves the rest to the sweep.
func (vm *VM) stageRollBack(batch *storage.Batch, blk, head *types.Block, root common.Hash, recorded bool) ([]ids.ID, error) {
	height, hash, top := blk.NumberU64(), blk.Hash(), head.NumberU64()
	if err := vm.checkNoAtomicAbove(height); err != nil {
		return nil, err
	}
	w := vm.kv.view.Wrap(batch)
	// rawdb's writers end the process on a write error; a buffer cannot fail. It is sized for the
	// inline removal of the blocks dropped, so that it grows not once on a small one (growing
	// it took about a twentieth of a 1-block revert's work before its answer).
	eb := vm.rollBackBatch(top - height)
	// The head block's hash is the only head record read (vm.go, loadOrInit).
	rawdb.WriteHeadBlockHash(eb, hash)
	// Pebble's memtable insert costs about 2 µs a key, a sixth of a 1-block revert's commit
	// for these three: the root record of blk is written only when it changes (recorded: blk
	// has one now; devState.roots mirrors the records).
	var err error
	switch {
	case root != blk.Root():
		err = eb.Put(devKey(devRootPrefix, hash[:]), root[:])
	case recorded:
		err = eb.Delete(devKey(devRootPrefix, hash[:]))
	}
	if err != nil {
		return nil, err
	}
	// A small roll-back reads the record only while the sweep has work (vm.sweeping): the read
	// of a key that is absent looks through Pebble's tables, about a third of a 1-block
	// revert's work before. A record the sweep gave up on until a restart (sweeping false) is
	// left as it is: the inline removal finds its blocks by height, not by the bodies.
	var (
		lo, hi  uint64
		pending bool
	)
	if vm.sweeping.Load() || top-height > inlineDrop {
		if lo, hi, pending, err = vm.droppedHeights(); err != nil {
			return nil, err
		}
	}
	if !pending && top-height <= inlineDrop {
		// The inline removal finds the dropped blocks by height (their canonical hashes), so
		// what earlier roll-backs left behind, if anything, stays for the sweep.
		dropped, err := vm.dropCanonical(eb, height+1, head)
		if err != nil {
			return nil, err
		}
		return dropped, eb.Replay(w)
	}
	for _, p := range heightKeyed {
		if err := w.DeleteRange(heightKey(p, height+1), heightKey(p, top+1)); err != nil {
			return nil, err
		}
	}
	if pending {
		lo, hi = min(lo, height+1), max(hi, top)
	} else {
		lo, hi = height+1, top
	}
	if err := eb.Put(droppedKey, encodeHeights(lo, hi)); err != nil {
		return nil, err
	}
	vm.sweeping.Store(true)
	return nil, eb.Replay(w)
}

// Per block removed inline (dropCanonical, without transactions): its canonical hash, its
// body, header, hash → height entry, receipts, access list and gas cost record; with their key
// bytes, rounded up. Each transaction adds its lookup.
const (
	dropOpsPerBlock   = 8
	dropBytesPerBlock = 320
)

// rollBackBatch returns the buffer of a roll-back that drops blocks blocks, empty, with room
// for the head and root records and for the blocks' inline removal when there is one. It is
// VM.rollBackBuf, reused (a roll-back replays it into its batch, which copies, before it
// returns), grown when too small: a 1-block revert allocates none.
func (vm *VM) rollBackBatch(blocks uint64) *kvBatch {
	if blocks > inlineDrop {
		blocks = 0 // recorded for the sweep, not removed inline
	}
	n := int(blocks)
	ops, size := 2+dropOpsPerBlock*n, 128+dropBytesPerBlock*n
	b := vm.rollBackBuf
	if b == nil || cap(b.ops) < ops || cap(b.data) < size {
		b = vm.kv.newBatchFor(ops, size)
		vm.rollBackBuf = b
	}
	b.ops, b.data, b.size = b.ops[:0], b.data[:0], 0
	return b
}

// encodeHeights is droppedKey's value.
func encodeHeights(lo, hi uint64) []byte {
	return binary.BigEndian.AppendUint64(binary.BigEndian.AppendUint64(make([]byte, 0, 16), lo), hi)
}

// droppedHeights reads droppedKey; pending is false when there is nothing to sweep.
func (vm *VM) droppedHeights() (lo, hi uint64, pending bool, err error) {
	v, err := vm.kv.view.Get(droppedKey)
	switch {
	case errors.Is(err, storage.ErrNotFound):
		return 0, 0, false, nil
	case err != nil:
		return 0, 0, false, fmt.Errorf("read dropped heights: %w", err)
	case len(v) != 16:
		return 0, 0, false, fmt.Errorf("read dropped heights: %d bytes", len(v))
	}
	return binary.BigEndian.Uint64(v), binary.BigEndian.Uint64(v[8:]), true, nil
}

// checkNoAtomicAbove refuses a roll-back below a block that carries atomic txs: what they did to
// the other chains' shared memory is not rolled back with it. The highest such block's height is
// in memory (VM.atomicTop); only a roll-back refused reads the records, to name the lowest one
// it would drop.
func (vm *VM) checkNoAtomicAbove(height uint64) error {
	if vm.atomicTop.Load() <= height {
		return nil
	}
	lowest, _, err := vm.atomicHeightsAbove(height)
	if err != nil {
		return err
	}
	return rewindAtomicError(lowest)
}

// loadAtomicTop sets VM.atomicTop from the atomic records, at start.
func (vm *VM) loadAtomicTop() error {
	if vm.atomic == nil {
		return nil
	}
	_, highest, err := vm.atomicHeightsAbove(0)
	vm.atomicTop.Store(highest)
	return err
}

// atomicHeightsAbove returns the lowest and the highest height above height of the blocks that
// carry atomic txs (0, 0 when there is none). Only accepted blocks have atomic records and a
// roll-back never drops one, so the records are few and all canonical.
func (vm *VM) atomicHeightsAbove(height uint64) (lowest, highest uint64, err error) {
	it, err := vm.kv.view.NewIterator(atomicBlockPrefix, nil)
	if err != nil {
		return 0, 0, err
	}
	for it.Next() {
		n, ok := rawdb.ReadHeaderNumber(vm.db, common.BytesToHash(it.Key()[len(atomicBlockPrefix):]))
		if ok && n > height {
			if lowest == 0 || n < lowest {
				lowest = n
			}
			highest = max(highest, n)
		}
	}
	return lowest, highest, errors.Join(it.Err(), it.Close())
}

// sweep writes into w the removal of what dropped blocks left behind at heights from to to: of
// each block body there that is not canonical at or below head, the block (body, header,
// receipts, hash → height entry), its gas cost record, and the lookups of its transactions that
// still name its height while the canonical block there does not hold them. It stops at the
// first height after it has removed limit blocks, and returns the IDs of the blocks it removed
// and the last height it went through.
func (vm *VM) sweep(w ethdb.KeyValueWriter, from, to, head, limit uint64) (dropped []ids.ID, last uint64, err error) {
	it := vm.db.NewIterator([]byte("b"), binary.BigEndian.AppendUint64(nil, from))
	defer it.Release()
	var (
		at        uint64 // the height in hand
		started   bool
		canonical common.Hash          // the canonical block at that height, zero above head
		holds     map[common.Hash]bool // that block's transactions, read when needed
	)
	for it.Next() {
		k := it.Key()
		if len(k) != 1+8+common.HashLength {
			continue // not a body key: go-ethereum's bodies are "b" ‖ height ‖ hash
		}
		n, hash := binary.BigEndian.Uint64(k[1:9]), common.BytesToHash(k[9:])
		if n > to {
			break
		}
		if !started || n != at {
			if uint64(len(dropped)) >= limit {
				return dropped, at, it.Error()
			}
			at, started, canonical, holds = n, true, common.Hash{}, nil
			if n <= head {
				canonical = rawdb.ReadCanonicalHash(vm.db, n)
			}
		}
		if hash == canonical {
			continue // a live block
		}
		// A transaction of the canonical block at the same height was accepted again there.
		live := func(tx common.Hash) bool {
			if canonical == (common.Hash{}) {
				return false
			}
			if holds == nil {
				holds = make(map[common.Hash]bool)
				if body := rawdb.ReadBody(vm.db, canonical, n); body != nil {
					for _, t := range body.Transactions {
						holds[t.Hash()] = true
					}
				}
			}
			return holds[tx]
		}
		txs, err := bodyTxHashes(it.Value())
		if err != nil {
			return nil, 0, fmt.Errorf("decode body at height %d: %w", n, err)
		}
		if err := vm.removeBlock(w, hash, n, txs, live); err != nil {
			return nil, 0, err
		}
		dropped = append(dropped, ids.ID(hash))
	}
	return dropped, to, it.Error()
}

// dropCanonical writes into w the removal of the canonical blocks at heights from to the head's,
// head included, which are above the new head, with what the sweep removes of a dropped block
// (removeBlock) and their canonical hashes, and returns their IDs. It finds them by height, with point reads: the sweep,
// which must also find blocks that are no longer canonical, walks the bodies with an iterator,
// which steps over the deleted bodies of every earlier roll-back at these heights (a test suite
// reverts to the same height after each test) until a compaction drops them. The head, in
// memory, is not read: the whole of a 1-block revert's drop is then writes and the lookups of
// its transactions.
func (vm *VM) dropCanonical(w ethdb.KeyValueWriter, from uint64, head *types.Block) ([]ids.ID, error) {
	to := head.NumberU64()
	dropped := make([]ids.ID, 0, to-from+1)
	for n := from; n <= to; n++ {
		var (
			hash common.Hash
			txs  []common.Hash
		)
		if n == to {
			hash = head.Hash()
			for _, tx := range head.Transactions() {
				txs = append(txs, tx.Hash())
			}
		} else {
			if hash = rawdb.ReadCanonicalHash(vm.db, n); hash == (common.Hash{}) {
				return nil, fmt.Errorf("no canonical block at height %d", n)
			}
			var err error
			if txs, err = bodyTxHashes(rawdb.ReadBodyRLP(vm.db, hash, n)); err != nil {
				return nil, fmt.Errorf("decode body at height %d: %w", n, err)
			}
		}
		rawdb.DeleteCanonicalHash(w, n)
		if err := vm.removeBlock(w, hash, n, txs, func(common.Hash) bool { return false }); err != nil {
			return nil, err
		}
		dropped = append(dropped, ids.ID(hash))
	}
	return dropped, nil
}

// removeBlock writes into w the removal of the dropped block hash at height n, whose
// transactions are txs: the block (body, header, receipts, hash → height entry), its gas cost
// record, and the lookups of its transactions that still name height n, but those live says were
// accepted again there.
func (vm *VM) removeBlock(w ethdb.KeyValueWriter, hash common.Hash, n uint64, txs []common.Hash, live func(common.Hash) bool) error {
	for _, tx := range txs {
		if l := rawdb.ReadTxLookupEntry(vm.db, tx); l == nil || *l != n || live(tx) {
			continue // no lookup, the transaction's block now is at another height, or it is live
		}
		rawdb.DeleteTxLookupEntry(w, tx)
	}
	rawdb.DeleteBlock(w, hash, n)
	return w.Delete(gasCostKey(hash))
}

// bodyTxHashes returns the hashes of the transactions of a stored block body.
func bodyTxHashes(body []byte) ([]common.Hash, error) {
	var b struct {
		Transactions []*types.Transaction
		Rest         []rlp.RawValue `rlp:"tail"`
	}
	if err := rlp.DecodeBytes(body, &b); err != nil {
		return nil, err
	}
	out := make([]common.Hash, len(b.Transactions))
	for i, tx := range b.Transactions {
		out[i] = tx.Hash()
	}
	return out, nil
}

// sweepStep runs on the engine goroutine (BuildBlock): it removes one chunk of what roll-backs
// left behind, in one batch with the index's entries of the same blocks, and signals work again
// while some is left.
func (vm *VM) sweepStep(ctx context.Context) {
	if vm.purge == nil || !vm.sweeping.Load() {
		return
	}
	more := false
	err := vm.purge(ctx, func(batch *storage.Batch) ([]ids.ID, error) {
		lo, hi, pending, err := vm.droppedHeights()
		if err != nil || !pending {
			return nil, err
		}
		eb := vm.db.NewBatch()
		dropped, last, err := vm.sweep(eb, lo, hi, vm.currentHead().NumberU64(), sweepChunk)
		if err == nil && last < hi {
			more = true
			err = eb.Put(droppedKey, encodeHeights(last+1, hi))
		} else if err == nil {
			err = eb.Delete(droppedKey)
		}
		if err != nil {
			return nil, err
		}
		return dropped, eb.Replay(vm.kv.view.Wrap(batch))
	})
	if err != nil {
		vm.sweeping.Store(false)
		vm.log.Warn("removing what a roll-back left behind failed; it is retried after a restart", "err", err)
		return
	}
	vm.sweeping.Store(more)
	if more {
		vm.signal()
	}
}

// rollBackChain makes blk the last accepted block through the chain's Rewind, with root the
// state root in effect after it (recorded: blk has a root record now); edited are the dropped blocks that have a root in effect of
// their own, whose records go in the same batch.
func (vm *VM) rollBackChain(ctx context.Context, blk *types.Block, root common.Hash, recorded bool, edited []common.Hash) error {
	height := blk.NumberU64()
	head := vm.currentHead()
	top := head.NumberU64()
	// The first dropped block is the head itself in the common revert of one block: no read.
	first := head.Hash()
	if top > height+1 {
		first = rawdb.ReadCanonicalHash(vm.db, height+1)
	}
	// Unsynced: a roll-back is a developer method's, on a chain whose developer methods are on,
	// answered once staged: the next read or commit of the database applies it (the next
	// block's, say), the background sync within chains.RewindSyncDelay at the latest, which
	// also syncs it (docs/decisions.md, "A roll-back answers before its commit" and "A
	// roll-back answers before its sync").
	// Later: the timer that applies and syncs it is armed once the roll-back is answered
	// (devState.runOps), as a roll-back runs as a developer's operation, on the engine goroutine.
	d := vm.dev
	return vm.rewind(ctx, chains.Rewind{To: vm.wrap(blk), FirstDropped: ids.ID(first), Unsynced: true, Later: func(arm func()) { d.later = append(d.later, arm) }, Stage: func(batch *storage.Batch) ([]ids.ID, error) {
		w := vm.kv.view.Wrap(batch)
		for _, h := range edited {
			if err := w.Delete(devKey(devRootPrefix, h[:])); err != nil {
				return nil, err
			}
		}
		return vm.stageRollBack(batch, blk, head, root, recorded)
	}})
}
