package evm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/lru"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/rawdb"
	"github.com/ethereum/go-ethereum/core/state"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethdb"
	"github.com/ethereum/go-ethereum/event"
	"github.com/ethereum/go-ethereum/params"
	"github.com/ethereum/go-ethereum/rlp"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/ethereum/go-ethereum/triedb"
	"github.com/ethereum/go-ethereum/triedb/hashdb"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/config"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
	"github.com/cornice-node/cornice/vms/evm/l1params"
	txgossip "github.com/cornice-node/cornice/vms/internal/mempool"
	"github.com/cornice-node/cornice/vms/internal/txlog"
)

// cleanCacheSize is the trie database's clean-node cache, in bytes. Every
// block's committed trie nodes are written into it, stale ones included, so
// it fills with the number of blocks, not the size of the state: 11–20 MiB of
// resident memory after 100,000 to 200,000 transfers (docs/benchmarks.md,
// C-Chain memory), and the whole cap on a node that runs long. 32 MiB is the
// smallest cap the cache has (512 buckets of one 64 KiB chunk each) and holds
// a development chain's current state many times over; a node reads a node
// it no longer holds from Pebble once, then holds it again.
const cleanCacheSize = 32 << 20

// senderCacheSize is how many transactions' senders the VM remembers: the
// transactions of the last blocks (about ten full C-Chain blocks of
// transfers), so that the RPC answers for recent blocks (receipts and
// transactions carry "from") need no signature recovery. Each entry costs
// about 450 bytes of resident memory once the garbage collector's headroom
// is counted: at 64K entries the cache alone held about 28 MiB of a loaded
// node's 110 (docs/benchmarks.md, C-Chain memory).
const senderCacheSize = 4 << 10

// Factory makes EVM chains. Its Config applies to every chain it makes;
// the genesis (go-ethereum's genesis JSON, ParseGenesis) comes with each
// chain's chains.Context.
type Factory struct {
	Config Config
}

var _ chains.Factory = Factory{}

// New implements chains.Factory.
func (f Factory) New(ctx context.Context, c chains.Context) (chains.VM, error) {
	return New(ctx, f.Config, c)
}

// VM is one EVM chain. See the package doc for its concurrency contract.
type VM struct {
	cfg      Config
	log      *slog.Logger
	clock    clock.Clock
	kv       *kvStore
	db       ethdb.Database
	triedb   *triedb.Database
	statedb  state.Database
	chainCfg *params.ChainConfig
	// l1 is an L1's chain config (l1-evm.md §4); nil on the C-Chain, whose
	// rules are fixed (Config.Fees, Config.Coinbase, no stateful
	// precompiles).
	l1 *l1params.ChainConfig
	// fortuna is the C-Chain's Fortuna time (Config.Upgrades) in unix
	// seconds, from which ACP-176 prices its blocks (cfees.go); unused on
	// L1s.
	fortuna uint64
	// desiredTarget is the ACP-176 target excess the C-Chain blocks this node builds move
	// toward (nil: their parent's), targetStep the most a block may move it (cfees.go).
	desiredTarget *uint64
	targetStep    uint64
	// cChainConfig is eth_getChainConfig's answer on the C-Chain.
	cChainConfig json.RawMessage
	// blockchainID is the chain's Avalanche blockchain ID, which the warp
	// precompile's getBlockchainID returns.
	blockchainID common.Hash
	// warp is the chain's warp identity (warp.go).
	warp    warpBackend
	signer  types.Signer
	genesis *types.Block
	pool    *mempool
	// issued logs each transaction eth_sendRawTransaction takes in.
	issued *txlog.Logger
	// push, when the node runs among peers, gossips each transaction the API takes in (gossip.go).
	push  txgossip.Gossip
	work  chan struct{}
	rpc   *rpc.Server
	feeds *feeds
	// senders maps a transaction hash to its sender: filled at acceptance
	// and by every recovery (senderOf).
	senders *lru.Cache[common.Hash, common.Address]
	// built is the last block BuildBlock made, until it is accepted or
	// another is built: ParseBlock of its bytes returns it, so that it is
	// not executed a second time.
	built atomic.Pointer[Block]
	// childRulesCache is the childRules of the last block asked for
	// (nearly always the head): block building, checks and admission all
	// ask for the head's.
	childRulesCache atomic.Pointer[childRules]
	// headCache keeps what reads of the head's state found (statecache.go).
	headCache atomic.Pointer[stateCache]
	// lastCallBase is the context of the block of the last call without overrides
	// (callBaseOf).
	lastCallBase atomic.Pointer[callBase]
	// stopped is set when Close stops the rpc server: serveCall then
	// leaves every call to it, as it answers none.
	stopped atomic.Bool
	// proc holds the processing blocks and the preference (processing.go).
	proc processingSet
	// atomic is the C-Chain's atomic-tx side (atomicvm.go); nil on L1s and
	// on a C-Chain made without Config.Atomic or shared memory.
	atomic *atomicSide
	// dev is the developer methods' state (dev.go); nil when they are off.
	dev *devState
	// rewind rolls the chain back (chains.Context.Rewind), for dev.
	rewind func(context.Context, chains.Rewind) error
	// purge removes what roll-backs left behind (chains.Context.Purge; rewind.go).
	purge func(context.Context, func(*storage.Batch) ([]ids.ID, error)) error
	// sweeping is set while a roll-back's record says that leftovers wait for the sweep
	// (rewind.go); it spares BuildBlock and a roll-back of a few blocks a read of the record.
	// Set before the record is committed, cleared once the sweep has removed it or given up.
	sweeping atomic.Bool
	// rollBackBuf is the roll-backs' write buffer, reused (rollBackBatch): the engine
	// goroutine's, as every roll-back runs there.
	rollBackBuf *kvBatch
	// atomicTop is the height of the highest accepted block that carries atomic txs, 0 when
	// none does (the genesis never does): a roll-back to a height below it is refused, and this
	// spares every roll-back a walk over the atomic records (rewind.go). Read at start from the
	// records, raised when such a block is accepted; a roll-back never lowers it, as it never
	// drops such a block.
	atomicTop atomic.Uint64

	retryMu sync.Mutex // guards the fields below
	// retry is the timer that signals work again once the block gas cost
	// has come down (retryBuildAt); retryStopped: Close stopped it for good.
	retry        *time.Timer
	retryStopped bool

	mu sync.RWMutex // guards the fields below
	// head is the last accepted block.
	head *types.Block
	// headHeader is a copy of head's header made once, shared read-only
	// by block building, transaction checks and the newHeads feed.
	headHeader *types.Header
	closed     bool
}

var _ chains.VM = (*VM)(nil)

// New makes the VM of chain c, the C-Chain or any chain with a
// go-ethereum genesis (ParseGenesis), whose config.json (c.Config: gas-target,
// rpc-gas-cap and api-max-blocks-per-request, with coreth's meanings)
// overrides cfg: on an empty key space it writes the genesis (in one batch
// of its own), otherwise it resumes at the stored head.
func New(ctx context.Context, cfg Config, c chains.Context) (*VM, error) {
	file, err := readChainFile(c, cChainFileKeys)
	if err != nil {
		return nil, err
	}
	cfg = file.apply(cfg).withDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	g, err := ParseGenesis(c.Genesis, *cfg.Fees)
	if err != nil {
		return nil, err
	}
	upgrades := config.UpgradesFor(c.NetworkID)
	if cfg.Upgrades != nil {
		upgrades = *cfg.Upgrades
	}
	chainConfig, err := cChainConfig(c.Genesis, g.Config.ChainID, upgrades)
	if err != nil {
		return nil, err
	}
	return newVM(cfg, c, g.Config, nil, func(vm *VM) error {
		vm.fortuna, vm.cChainConfig = unixSeconds(upgrades.FortunaTime), chainConfig
		vm.setTargetRule(cfg)
		if cfg.Atomic != nil && c.SharedMemory != nil {
			vm.atomic = newAtomicSide(c.NetworkID, c.Chain.ID, cfg.Atomic, c.SharedMemory)
		}
		return vm.loadOrInit(g)
	})
}

// unixSeconds is t in unix seconds, 0 before 1970.
func unixSeconds(t time.Time) uint64 { return uint64(max(t.Unix(), 0)) }

// newVM makes a VM with the EVM config chainCfg and, for an L1, its chain
// config l1; load writes the genesis or resumes at the stored head.
func newVM(cfg Config, c chains.Context, chainCfg *params.ChainConfig, l1 *l1params.ChainConfig, load func(*VM) error) (*VM, error) {
	if c.DB == nil || c.Log == nil || c.Clock == nil {
		return nil, errors.New("evm: chains.Context needs DB, Log and Clock")
	}
	kv := newKVStore(c.DB)
	db := rawdb.NewDatabase(kv)
	// With developer methods on, the trie records its keys' preimages, which anvil_dumpState
	// needs to name accounts and slots.
	tdb := triedb.NewDatabase(db, &triedb.Config{Preimages: cfg.DevMethods, HashDB: &hashdb.Config{CleanCacheSize: cleanCacheSize}})
	vm := &VM{
		cfg:          cfg,
		log:          c.Log,
		clock:        c.Clock,
		kv:           kv,
		db:           db,
		triedb:       tdb,
		statedb:      newHashStateDB(tdb, db),
		chainCfg:     chainCfg,
		l1:           l1,
		blockchainID: common.Hash(c.Chain.ID),
		warp:         newWarpBackend(c),
		signer:       types.LatestSignerForChainID(chainCfg.ChainID),
		pool:         newMempool(cfg.MempoolAccountSlots, cfg.MempoolGlobalSlots),
		issued:       txlog.New(c.Log, c.Clock, txlog.DefaultPerSecond),
		work:         make(chan struct{}, 1),
		feeds:        newFeeds(),
		senders:      lru.NewCache[common.Hash, common.Address](senderCacheSize),
		purge:        c.Purge,
	}
	if cfg.DevMethods {
		dev, err := newDevState(vm, cfg.DevIDs)
		if err != nil {
			return nil, errors.Join(err, tdb.Close())
		}
		vm.dev, vm.rewind = dev, c.Rewind
		// Impersonated transactions carry no signature: their senders are recorded.
		vm.signer = devSigner{Signer: vm.signer, dev: dev}
	}
	if err := load(vm); err != nil {
		return nil, errors.Join(err, tdb.Close())
	}
	// A roll-back's leftovers wait for the sweep: the engine's first BuildBlock resumes it.
	_, _, pending, err := vm.droppedHeights()
	if err != nil {
		return nil, errors.Join(err, tdb.Close())
	}
	vm.sweeping.Store(pending)
	if err := vm.loadAtomicTop(); err != nil {
		return nil, errors.Join(err, tdb.Close())
	}
	srv, err := vm.newRPCServer()
	if err != nil {
		return nil, errors.Join(err, tdb.Close())
	}
	vm.rpc = srv
	vm.log.Debug("EVM chain ready", "evmChainID", chainCfg.ChainID, "l1", l1 != nil, "genesis", vm.genesis.Hash(), "height", vm.head.NumberU64())
	return vm, nil
}

// loadOrInit reads the stored head, or writes the genesis when there is
// none. A stored genesis must be g's.
func (vm *VM) loadOrInit(g *core.Genesis) error {
	want := g.ToBlock()
	headHash := rawdb.ReadHeadBlockHash(vm.db)
	if headHash == (common.Hash{}) {
		b := vm.kv.view.NewBatch()
		defer b.Close()
		vm.kv.setSink(b)
		blk, err := g.Commit(vm.db, vm.triedb, nil)
		vm.triedb.WritePreimages() // into b; a no-op unless developer methods are on
		vm.kv.clearSink()
		if err != nil {
			return fmt.Errorf("write genesis: %w", err)
		}
		if err := b.Commit(); err != nil {
			return fmt.Errorf("write genesis: %w", err)
		}
		vm.genesis = blk
		vm.setHead(blk)
		return nil
	}
	stored := rawdb.ReadCanonicalHash(vm.db, 0)
	if stored != want.Hash() {
		return fmt.Errorf("evm: stored genesis %s is not this chain's %s", stored, want.Hash())
	}
	vm.genesis = rawdb.ReadBlock(vm.db, stored, 0)
	n, ok := rawdb.ReadHeaderNumber(vm.db, headHash)
	if !ok {
		return fmt.Errorf("evm: head block %s has no number", headHash)
	}
	head := rawdb.ReadBlock(vm.db, headHash, n)
	if head == nil || vm.genesis == nil {
		return fmt.Errorf("evm: head block %s or genesis missing", headHash)
	}
	vm.setHead(head)
	return nil
}

// ChainID returns the chain's EIP-155 chain ID.
func (vm *VM) ChainID() *big.Int { return new(big.Int).Set(vm.chainCfg.ChainID) }

// currentHead returns the last accepted block.
func (vm *VM) currentHead() *types.Block {
	vm.mu.RLock()
	defer vm.mu.RUnlock()
	return vm.head
}

// currentHeader returns the last accepted block's header. It is shared:
// the caller must not modify it.
func (vm *VM) currentHeader() *types.Header {
	vm.mu.RLock()
	defer vm.mu.RUnlock()
	return vm.headHeader
}

// currentHeadAndHeader returns the last accepted block and its shared
// header (currentHeader), consistently.
func (vm *VM) currentHeadAndHeader() (*types.Block, *types.Header) {
	vm.mu.RLock()
	defer vm.mu.RUnlock()
	return vm.head, vm.headHeader
}

// setHead makes blk the last accepted block.
func (vm *VM) setHead(blk *types.Block) { vm.setHeadHeader(blk, blk.Header()) }

// setHeadHeader makes blk the last accepted block, with h a copy of its header that nothing
// modifies (currentHeader shares it).
func (vm *VM) setHeadHeader(blk *types.Block, h *types.Header) {
	vm.mu.Lock()
	defer vm.mu.Unlock()
	vm.head, vm.headHeader = blk, h
}

// LastAccepted implements chains.VM.
func (vm *VM) LastAccepted(context.Context) (ids.ID, error) {
	return ids.ID(vm.currentHead().Hash()), nil
}

// GetBlock implements chains.Getter: a processing or an accepted (canonical) block.
func (vm *VM) GetBlock(_ context.Context, id ids.ID) (chains.Block, error) {
	if b, ok := vm.processingBlock(common.Hash(id)); ok {
		return b, nil
	}
	blk := vm.blockByHash(common.Hash(id))
	if blk == nil {
		return nil, chains.ErrBlockNotFound
	}
	return vm.wrap(blk), nil
}

// GetBlockIDAtHeight implements chains.VM.
func (vm *VM) GetBlockIDAtHeight(_ context.Context, height uint64) (ids.ID, error) {
	if height > vm.currentHead().NumberU64() {
		return ids.ID{}, chains.ErrBlockNotFound
	}
	h := rawdb.ReadCanonicalHash(vm.db, height)
	if h == (common.Hash{}) {
		return ids.ID{}, chains.ErrBlockNotFound
	}
	return ids.ID(h), nil
}

// ParseBlock implements chains.Parser: b is the block's RLP. The bytes of a
// processing block, or of the block this VM built last, give that very
// block, already executed; any other block is verified in full.
func (vm *VM) ParseBlock(_ context.Context, b []byte) (chains.Block, error) {
	blk, extData, err := decodeBlock(b)
	if err != nil {
		return nil, err
	}
	if p, ok := vm.processingBlock(blk.Hash()); ok {
		return p, nil
	}
	if built := vm.built.Load(); built != nil && built.eth.Hash() == blk.Hash() {
		return built, nil
	}
	atomicTxs, err := parseAtomicBatch(extData)
	if err != nil {
		return nil, err
	}
	return &Block{vm: vm, eth: blk, bytes: append([]byte(nil), b...), atomicTxs: atomicTxs, extData: extData}, nil
}

// decodeBlock decodes a block's RLP, refusing trailing bytes: a go-ethereum
// block, or one with the batch of its atomic txs (atomicBlock).
func decodeBlock(b []byte) (*types.Block, []byte, error) {
	blk := new(types.Block)
	err := rlp.DecodeBytes(b, blk)
	if err == nil {
		return blk, nil, nil
	}
	var ab atomicBlock
	if rlp.DecodeBytes(b, &ab) != nil || len(ab.ExtData) == 0 {
		return nil, nil, fmt.Errorf("decode block: %w", err)
	}
	return ab.Block, ab.ExtData, nil
}

// wrap makes a chains.Block of an accepted block, with its atomic txs.
func (vm *VM) wrap(blk *types.Block) *Block {
	b := &Block{vm: vm, eth: blk}
	if blk.MixDigest() == (common.Hash{}) {
		return b
	}
	extData, err := vm.kv.Get(atomicBlockKey(blk.Hash()))
	if err != nil {
		// Accept wrote both in one batch: only a corrupt database
		// lacks it.
		vm.log.Error("accepted block's atomic txs missing", "block", blk.Hash(), "err", err)
		return b
	}
	if b.atomicTxs, err = parseAtomicBatch(extData); err != nil {
		vm.log.Error("accepted block's atomic txs unreadable", "block", blk.Hash(), "err", err)
		return b
	}
	b.extData = extData
	return b
}

// WorkReady implements chains.VM.
func (vm *VM) WorkReady() <-chan struct{} { return vm.work }

// signal tells the pipeline there may be a block to build.
func (vm *VM) signal() {
	select {
	case vm.work <- struct{}{}:
	default:
	}
}

// Accepted implements chains.VM: the block's batch is committed.
func (vm *VM) Accepted(_ context.Context, cb chains.Block) error {
	b, ok := cb.(*Block)
	if !ok {
		return fmt.Errorf("evm: accepted block of type %T", cb)
	}
	vm.setHead(b.eth)
	if vm.dev != nil {
		vm.dev.accepted(b.eth, b.forced)
	}
	vm.decided(b)
	vm.built.CompareAndSwap(b, nil)
	res := b.result
	b.result = nil // the state is committed; release it
	if res == nil {
		// Not executed by this VM since it was made: derive from the
		// database what the execution would have given.
		var err error
		if res, err = vm.acceptedResult(b.eth); err != nil {
			return err
		}
	}
	txs := b.eth.Transactions()
	for i, from := range res.senders {
		vm.senders.Add(txs[i].Hash(), from)
	}
	// The block's transactions go with the pruning: each one's nonce is
	// below its sender's new nonce.
	vm.pool.prune(res.nonces)
	if vm.atomic != nil {
		if len(b.atomicTxs) > 0 {
			vm.atomicTop.Store(max(vm.atomicTop.Load(), b.eth.NumberU64()))
		}
		vm.atomic.pool.remove(b.atomicTxs)
		if vm.atomic.pool.len() > 0 {
			vm.signal()
		}
	}
	vm.feeds.sendHead(b.eth, vm.currentHeader(), res.receipts)
	if vm.pool.len() > 0 {
		vm.signal()
	}
	return nil
}

// acceptedResult reads back what Accepted needs of an accepted block that
// carries no execution result: its receipts, senders and the senders' new
// nonces. It runs on the engine goroutine, which makes every write to the
// chain's keys: nothing can change them between its reads, and they need no pin.
func (vm *VM) acceptedResult(blk *types.Block) (*execResult, error) {
	st, err := vm.stateOfBlock(blk)
	if err != nil {
		return nil, fmt.Errorf("open state of accepted block %s: %w", blk.Hash(), err)
	}
	res := &execResult{receipts: chainReader{vm: vm, db: vm.db, top: blk}.receipts(blk), nonces: make(map[common.Address]uint64)}
	for _, tx := range blk.Transactions() {
		from, err := vm.senderOf(tx)
		if err != nil {
			return nil, fmt.Errorf("sender of accepted transaction %s: %w", tx.Hash(), err)
		}
		res.senders = append(res.senders, from)
		res.nonces[from] = st.GetNonce(from)
	}
	return res, nil
}

// senderOf returns tx's sender, from the cache or recovered (and then
// cached).
func (vm *VM) senderOf(tx *types.Transaction) (common.Address, error) {
	h := tx.Hash()
	if from, ok := vm.senders.Get(h); ok {
		return from, nil
	}
	from, err := types.Sender(vm.signer, tx)
	if err != nil {
		return common.Address{}, err
	}
	vm.senders.Add(h, from)
	return from, nil
}

// stateAt opens the state at root for reading.
func (vm *VM) stateAt(root common.Hash) (*state.StateDB, error) {
	return state.New(root, vm.statedb)
}

// Handlers implements chains.VM: "/rpc" (HTTP, rpcHandler) and "/ws"
// (websocket), both served by one go-ethereum rpc server, and on the
// C-Chain "/avax", its atomic txs (avaxapi.go).
func (vm *VM) Handlers(context.Context) (map[string]http.Handler, error) {
	h := map[string]http.Handler{
		"/rpc": vm.rpcHandler(),
		"/ws":  vm.rpc.WebsocketHandler([]string{"*"}),
	}
	if vm.atomic != nil {
		h["/avax"] = vm.avaxHandler()
	}
	return h, nil
}

// Close implements chains.VM.
func (vm *VM) Close() error {
	vm.mu.Lock()
	if vm.closed {
		vm.mu.Unlock()
		return nil
	}
	vm.closed = true
	vm.mu.Unlock()
	vm.stopped.Store(true)
	vm.stopRetry()
	if vm.dev != nil {
		vm.dev.close()
	}
	vm.rpc.Stop()
	vm.feeds.close()
	return vm.triedb.Close()
}

// DialInProc returns a client of the chain's JSON-RPC server within this process: the eth_*
// methods and subscriptions without HTTP, for the node's own services (the relay). It stops
// answering when the VM closes.
func (vm *VM) DialInProc() *rpc.Client { return rpc.DialInProc(vm.rpc) }

// SubscribeHeads sends ch the header of each block accepted from now on (shared: never
// modify it), as eth_subscribe("newHeads") does, without its JSON: for the node's own services
// (the relay). The accept path waits until ch has taken each head, so ch's reader must take
// them at once.
func (vm *VM) SubscribeHeads(ch chan<- *types.Header) event.Subscription {
	return vm.feeds.heads.Subscribe(ch)
}
