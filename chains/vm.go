package chains

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"time"

	"github.com/cornice-node/cornice/chains/atomic"
	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/crypto/bls"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
	"github.com/cornice-node/cornice/warp"
)

// Errors a VM returns to the engines and the accept path.
var (
	// ErrNoWork is returned by VM.BuildBlock when nothing is pending.
	ErrNoWork = errors.New("no pending work to build a block from")
	// ErrBlockNotFound is returned by VM.GetBlock and VM.GetBlockIDAtHeight for an unknown block.
	ErrBlockNotFound = errors.New("block not found")
)

// Block is one block of a chain as the engines and the accept path see it.
//
// A block's life: it is built (Builder.BuildBlock) or parsed (Parser.ParseBlock), then verified;
// once Verify succeeded it is processing until it is accepted (Accept, then VM.Accepted) or
// rejected (Reject). An engine verifies a block only once its parent is the last accepted block
// or processing, accepts blocks in height order, each extending the last accepted one, and
// rejects a block before its descendants. A Block is used by one goroutine at a time: its
// chain's engine's.
type Block interface {
	// ID is the block's ID: the SHA-256 of its bytes for P and X blocks, the block hash for EVM
	// blocks (DESIGN.md decision 4).
	ID() ids.ID
	// Parent is the ID of the block this one builds on.
	Parent() ids.ID
	// Height is the block's height; the genesis block has height 0.
	Height() uint64
	// Timestamp is the block's own time (not the node's acceptance time).
	Timestamp() time.Time
	// TxCount is the number of transactions the block holds, for its log line.
	TxCount() int
	// Bytes is the block's canonical encoding: the container bytes of the index. The caller must
	// not modify it.
	Bytes() []byte
	// Verify checks the block against its parent, which is the last accepted block or a
	// processing block: on the state the parent leaves, not only the accepted state. On success
	// the block is processing: GetBlock finds it, and a child may be verified on it. A block
	// that fails is dropped; a VM should leave out of the blocks it builds what would fail.
	Verify(ctx context.Context) error
	// Accept stages every change the block makes to the VM's persistent state into batch,
	// without committing it (a VM writes under its own storage.View, with View.Wrap(batch)). It
	// is called by the accept path only, on a verified block whose parent is the last accepted
	// block. The accept path adds the index entries and the last-accepted pointer to the same
	// batch and commits it atomically; only after the commit does it call VM.Accepted. If the
	// commit fails, the block is not accepted and the VM's memory must still describe the
	// previous state.
	Accept(ctx context.Context, batch *storage.Batch) error
	// Reject tells the VM that the processing block will never be accepted (a sibling was): it
	// forgets the block and what the block's verification left, and keeps the block's
	// transactions that are still valid for later blocks. It writes nothing to disk. An engine
	// rejects a block's processing descendants after the block.
	Reject(ctx context.Context) error
}

// Container is an indexed item: a block, or a transaction inside a block.
type Container struct {
	ID    ids.ID
	Bytes []byte
}

// TxLister is implemented by blocks whose transactions also have an index of their own (the
// X-Chain's /ext/index/X/tx). Txs lists them in the order they were applied.
type TxLister interface {
	Txs() []Container
}

// Getter gets the blocks a VM knows: what an engine asks before it fetches, verifies or votes,
// and what the Get and GetAncestors messages of other nodes are answered from.
type Getter interface {
	// LastAccepted returns the ID of the last accepted block: the genesis block on a new chain.
	LastAccepted(ctx context.Context) (ids.ID, error)
	// GetBlock returns an accepted or a processing block, or ErrBlockNotFound.
	GetBlock(ctx context.Context, id ids.ID) (Block, error)
	// GetBlockIDAtHeight returns the ID of the accepted block at height, or ErrBlockNotFound.
	GetBlockIDAtHeight(ctx context.Context, height uint64) (ids.ID, error)
}

// Parser decodes blocks that arrive as bytes (from peers, or from the index).
type Parser interface {
	// ParseBlock decodes a block from its bytes, without verifying it. A block the VM already
	// holds as processing is returned as that block, so that it is not verified twice.
	ParseBlock(ctx context.Context, b []byte) (Block, error)
}

// Builder builds the blocks of a chain from its VM's pending work.
type Builder interface {
	// BuildBlock builds a block on the preferred block from the pending work, or returns
	// ErrNoWork. It does not verify the block: the engine does.
	BuildBlock(ctx context.Context) (Block, error)
	// SetPreference names the block that BuildBlock builds on next: the last accepted block
	// or a processing one. Until it is called, and once the preferred block is accepted (or
	// rejected), the VM builds on its last accepted block.
	SetPreference(ctx context.Context, id ids.ID) error
	// WorkReady returns a channel that receives a value whenever the VM has new work to build a
	// block from (a transaction arrived, or a timed event is due). It is never closed. The VM
	// sends without blocking (a buffer of one and a send in a select with a default case), so
	// signals coalesce: after each one the engine builds until BuildBlock returns ErrNoWork. A
	// VM with work pending when it is made need not signal: the engine tries once when it
	// starts.
	WorkReady() <-chan struct{}
}

// Lifecycle is what the node and the accept path need of a VM besides its blocks.
type Lifecycle interface {
	// Accepted tells the VM that blk's batch has been committed: it updates its memory
	// (last accepted block, mempool, caches, subscriptions).
	Accepted(ctx context.Context, blk Block) error
	// Handlers returns the chain's HTTP handlers by extension: "" for the chain's base path,
	// "/rpc", "/ws", "/validators", …, served at /ext/bc/<chain><ext>.
	Handlers(ctx context.Context) (map[string]http.Handler, error)
	// Close releases the VM's resources; it is called once, after the chain's engine stopped.
	Close() error
}

// VM is one chain's virtual machine. It is made by a Factory from the chain's genesis and
// database, ready to use. Apart from WorkReady, Handlers and Close, its methods and its blocks'
// are called by the chain's engine goroutine only (and, before that goroutine starts, by
// Manager.Create); handlers it serves may run concurrently with it, so a VM guards the state
// they share.
type VM interface {
	Getter
	Parser
	Builder
	Lifecycle
}

// Context is what a Factory needs to make a VM.
type Context struct {
	// NetworkID is the network the node runs.
	NetworkID uint32
	// Chain is the chain the VM runs.
	Chain Chain
	// Genesis is the chain's genesis, in the VM's own format.
	Genesis []byte
	// Upgrade is the chain's upgrade file (<chain-config-dir>/<chain>/upgrade.json,
	// l1-evm.md §4.5), in the VM's own format; nil when there is none.
	Upgrade []byte
	// Config is the chain's config file (<chain-config-dir>/<chain>/config.json), in the VM's
	// own format; nil when there is none.
	Config []byte
	// DB is the VM's own key space; it writes nothing outside it.
	DB *storage.View
	// Log is the VM's logger, already tagged with the chain.
	Log *slog.Logger
	// Clock is the node's clock.
	Clock clock.Clock
	// SharedMemory is the chain's handle on the node's shared memory (package chains/atomic):
	// the atomic UTXOs other chains exported to it, and how its accepted blocks export and
	// import them, inside the batch Block.Accept is given.
	SharedMemory *atomic.SharedMemory
	// Chains finds the node's other chains (the Registry): to resolve a chain an API names by
	// alias (getUTXOs' sourceChain) and to check an atomic tx's peer (atomic.VerifyPeer).
	Chains ChainLookup
	// Rewind rolls the chain back (Acceptor.Rewind); only a VM that serves developer methods
	// (evm_revert) calls it, from its engine's goroutine, between blocks. Nil outside a Manager.
	Rewind func(ctx context.Context, r Rewind) error
	// Purge removes what roll-backs left behind (Acceptor.Purge), from the same goroutine as
	// Rewind. Nil outside a Manager.
	Purge func(ctx context.Context, stage func(batch *storage.Batch) (dropped []ids.ID, err error)) error
	// BLSKey is the node's BLS key, with which a VM signs its chain's warp messages; nil on a
	// node built without one (tests).
	BLSKey *bls.SecretKey
	// WarpValidators answers the P-Chain's validator sets, against which warp messages are
	// verified and signatures aggregated; nil when the node runs no P-Chain.
	WarpValidators warp.ValidatorState
	// WarpAggregator gathers signatures of the chain's warp messages from a subnet's validators
	// over the network (the node's ACP-118 aggregator); nil outside a node.
	WarpAggregator WarpAggregator
}

// WarpAggregator gathers the signatures of a warp message by the validators of subnetID at the
// P-Chain's current height until quorum percent signed, and returns whatever signed, nil when
// nobody did (*acp118.Aggregator's Gather).
type WarpAggregator interface {
	Gather(ctx context.Context, msg *warp.UnsignedMessage, justification []byte, subnetID ids.ID, quorum uint64) (*warp.Message, error)
}

// ChainLookup finds the node's chains; *Registry implements it.
type ChainLookup interface {
	// Lookup returns the ID that alias (an alias or an ID string) names, or fails with
	// `there is no ID with alias: <alias>`.
	Lookup(alias string) (ids.ID, error)
	// Chain returns the registered chain id, and false if there is none.
	Chain(id ids.ID) (Chain, bool)
}

// Factory makes the VM of a chain.
type Factory interface {
	New(ctx context.Context, c Context) (VM, error)
}

// FactoryFunc adapts a function to a Factory, as http.HandlerFunc does for handlers.
type FactoryFunc func(ctx context.Context, c Context) (VM, error)

// New calls f.
func (f FactoryFunc) New(ctx context.Context, c Context) (VM, error) { return f(ctx, c) }

// Recoverer is implemented by a VM part of whose state is written by a library by itself, outside
// the block's batch (go-ethereum's trie database). Such a VM stages in Block.Accept what it needs
// to redo the block (the block itself, as its intent record) and lets the library write in
// VM.Accepted, after the commit. A crash in between leaves the batch committed and the library's
// writes missing or partial; a crash before the commit may leave library writes for a block that
// was never accepted.
//
// At start-up, when the chain has a stored last-accepted pointer, the manager calls Recover with
// it before comparing it with LastAccepted: the VM completes (redoes) or discards what its library
// wrote so that its state ends exactly at that block.
type Recoverer interface {
	Recover(ctx context.Context, lastAccepted ids.ID, height uint64) error
}

// Wrapper is implemented by a VM that is a layer around a chain's own VM (vms/proposervm): its
// blocks wrap the inner VM's. Manager.VM returns the innermost VM.
type Wrapper interface {
	Unwrap() VM
}
