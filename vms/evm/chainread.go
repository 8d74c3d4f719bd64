package evm

import (
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/rawdb"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethdb"
	"github.com/ethereum/go-ethereum/rpc"
)

// One answer, one state (storage package doc): go-ethereum's readers answer from several keys
// (a canonical hash, then the header and body it names; a transaction lookup, then its block,
// then the receipts), and a developer's roll-back deletes them in one batch, which a following
// block can replace at the same heights. Read one key at a time from the published state, an
// answer could mix the two: null for a block whose canonical hash it has just read, a receipt
// of a dropped block, an error for a receipt missing. So every answer made of several reads
// takes them from one chainReader, pinned to the state published when it began (pinChain).

// chainReader reads accepted blocks, their receipts and transaction lookups from one database
// state, up to the VM's head when it was made.
type chainReader struct {
	vm *VM
	db ethdb.Database
	// top is the VM's head when the reader was made, read before its state was pinned: a block
	// is published before the VM takes it as its head (Accepted), and no answer shows a block,
	// a receipt or a transaction above the head that eth_blockNumber and the latest state give.
	top *types.Block
}

// pinChain returns a chainReader whose reads all see the state published now, and its release,
// which the caller must call once done.
func (vm *VM) pinChain() (chainReader, func()) {
	top := vm.currentHead()
	v, release := vm.kv.view.Pin()
	return chainReader{vm: vm, db: rawdb.NewDatabase(newKVStore(v)), top: top}, release
}

// blockByHash returns the accepted block with hash h, or nil: the reads of one block are taken
// from one state.
func (vm *VM) blockByHash(h common.Hash) *types.Block {
	c, release := vm.pinChain()
	defer release()
	return c.blockByHash(h)
}

// blockByNumber returns the accepted block at height n, or nil, read from one state. A height
// past the VM's head answers nil with no read (a client waiting for the next block asks for it).
func (vm *VM) blockByNumber(n uint64) *types.Block {
	if n > vm.currentHead().NumberU64() {
		return nil
	}
	c, release := vm.pinChain()
	defer release()
	return c.blockByNumber(n)
}

// isHeadTag reports whether n names the last accepted block (blocktag.go).
func isHeadTag(n rpc.BlockNumber) bool {
	switch n {
	case rpc.LatestBlockNumber, rpc.PendingBlockNumber, rpc.SafeBlockNumber, rpc.FinalizedBlockNumber:
		return true
	}
	return false
}

// blockByTag returns the accepted block n names, nil for a number past the last accepted
// block. The head tags answer the head the VM holds, with no read: a block on its own is a
// whole answer. An answer that also reads what the database holds of the block (its receipts)
// resolves the tag with chainReader.blockByTag instead.
func (vm *VM) blockByTag(n rpc.BlockNumber) (*types.Block, error) {
	switch {
	case n >= 0:
		return vm.blockByNumber(uint64(n)), nil
	case isHeadTag(n):
		return vm.currentHead(), nil
	case n == rpc.EarliestBlockNumber:
		return vm.genesis, nil
	}
	return nil, errUnknownBlock
}

// resolve returns the accepted block a tag, number or hash names, as chainReader.resolve; the
// head tags answer the VM's head with no read (blockByTag).
func (vm *VM) resolve(bnh rpc.BlockNumberOrHash) (*types.Block, error) {
	if n, ok := bnh.Number(); ok && isHeadTag(n) {
		return vm.currentHead(), nil
	}
	c, release := vm.pinChain()
	defer release()
	return c.resolve(bnh)
}

// canonicalTx returns the accepted transaction h with its block and index, all read from one
// state, or a nil tx.
func (vm *VM) canonicalTx(h common.Hash) (tx *types.Transaction, blk *types.Block, index uint64) {
	c, release := vm.pinChain()
	defer release()
	return c.canonicalTx(h)
}

// resolve returns the accepted block a tag, number or hash names. latest, pending, safe,
// finalized and accepted (read as finalized, blocktag.go) are the last accepted block
// (l1-evm.md §1.1). Every stored block is canonical, so a hash's requireCanonical always holds.
func (c chainReader) resolve(bnh rpc.BlockNumberOrHash) (*types.Block, error) {
	if h, ok := bnh.Hash(); ok {
		blk := c.blockByHash(h)
		if blk == nil {
			return nil, errHashNotFound
		}
		return blk, nil
	}
	n, _ := bnh.Number()
	blk, err := c.blockByTag(n)
	if err != nil {
		return nil, err
	}
	if blk == nil {
		// Past the last accepted block (l1-evm.md §1.1).
		return nil, errUnfinalized
	}
	return blk, nil
}

// blockByTag returns the accepted block n names in c's state, nil for a number past the last
// accepted block.
func (c chainReader) blockByTag(n rpc.BlockNumber) (*types.Block, error) {
	switch {
	case isHeadTag(n):
		return c.head(), nil
	case n == rpc.EarliestBlockNumber:
		return c.vm.genesis, nil
	case n < 0:
		return nil, errUnknownBlock
	}
	return c.blockByNumber(uint64(n)), nil
}

// head returns the last accepted block of c's state. It is c.top, checked with one read: a
// roll-back's batch is visible a moment before the VM moves its head back (dev.go rollBack), so
// the state may no longer hold c.top; then the state's own head pointer names its head, which is
// below c.top.
func (c chainReader) head() *types.Block {
	if rawdb.ReadCanonicalHash(c.db, c.top.NumberU64()) == c.top.Hash() {
		return c.top
	}
	h := rawdb.ReadHeadBlockHash(c.db)
	n, ok := rawdb.ReadHeaderNumber(c.db, h)
	if !ok {
		return c.top // a state without head pointers is a corrupt database's
	}
	if blk := rawdb.ReadBlock(c.db, h, n); blk != nil {
		return blk
	}
	return c.top
}

// blockByHash returns the accepted block with hash h, or nil. A dropped block's body and
// hash → height entry may outlive its roll-back until the sweep (rewind.go): only a block
// canonical in c's state counts. The canonical hashes of a state are those of its blocks up to
// its head (a roll-back's batch deletes those above), and c reads none above c.top.
func (c chainReader) blockByHash(h common.Hash) *types.Block {
	n, ok := rawdb.ReadHeaderNumber(c.db, h)
	if !ok || n > c.top.NumberU64() || rawdb.ReadCanonicalHash(c.db, n) != h {
		return nil
	}
	return rawdb.ReadBlock(c.db, h, n)
}

// blockByNumber returns the accepted block at height n, or nil.
func (c chainReader) blockByNumber(n uint64) *types.Block {
	if n > c.top.NumberU64() {
		return nil
	}
	h := rawdb.ReadCanonicalHash(c.db, n)
	if h == (common.Hash{}) {
		return nil
	}
	return rawdb.ReadBlock(c.db, h, n)
}

// canonicalTx returns the accepted transaction h with its block and index, or a nil tx. The
// lookup of a transaction of a dropped block may outlive its roll-back until the sweep
// (rewind.go): the block at that height must hold it.
func (c chainReader) canonicalTx(h common.Hash) (tx *types.Transaction, blk *types.Block, index uint64) {
	n := rawdb.ReadTxLookupEntry(c.db, h)
	if n == nil {
		return nil, nil, 0
	}
	blk = c.blockByNumber(*n)
	if blk == nil {
		return nil, nil, 0
	}
	for i, t := range blk.Transactions() {
		if t.Hash() == h {
			return t, blk, uint64(i)
		}
	}
	return nil, nil, 0
}

// receipts returns the receipts of blk, an accepted block of c's state, with every derived
// field.
func (c chainReader) receipts(blk *types.Block) types.Receipts {
	return rawdb.ReadReceipts(c.db, blk.Hash(), blk.NumberU64(), blk.Time(), c.vm.chainCfg)
}
