package chains

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	shared "github.com/cornice-node/cornice/chains/atomic"
	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/crypto/bls"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
	"github.com/cornice-node/cornice/warp"
)

// Indexer adds what an accepted block contributes to the index, inside the
// block's batch (package index implements it). It writes through its own
// view's Wrap(batch) and never commits or closes the batch. block and txs
// are the block's container and, when the block is a TxLister, its
// transactions in the order they were applied; their Bytes belong to the
// block and must not be changed (an Indexer that keeps them copies them,
// the batch copies what is written). Accept is called on the chain's
// engine goroutine, by its Acceptor; different chains call it concurrently.
//
// An error fails the block's acceptance: nothing of the block is written
// and the chain halts.
type Indexer interface {
	Accept(ctx context.Context, batch *storage.Batch, chainID ids.ID, block Container, txs []Container) error
}

// Routes serves a chain's HTTP handlers (the node implements it on
// api.Server). Each handler, by extension ext ("", "/rpc", …), is served at
// /ext/bc/<chainID><ext> and at /ext/<base><ext> for each of aliasBases,
// which are relative to /ext ("bc/X", "bc/avm", "X", "avm"); every handler
// must answer node-api.md §2.3's text/plain 503 while ready reports false
// (api.RequireBootstrapped). ready is cheap and safe for concurrent use.
// The manager calls AddChainRoutes once per chain, and not at all for a VM
// without handlers; the map and slice are the callee's to keep.
type Routes interface {
	AddChainRoutes(chainID ids.ID, handlers map[string]http.Handler, aliasBases []string, ready func() bool) error
}

// ManagerConfig holds the manager's settings.
type ManagerConfig struct {
	// NetworkID is the network the node runs, handed to every VM. Zero is
	// allowed (no network has it, but tests may use it).
	NetworkID uint32
}

// ManagerDeps are the manager's collaborators. All are required except
// Indexer.
type ManagerDeps struct {
	// DB is the node's database: each VM gets a key space in it, the
	// last-accepted pointers live under storage.PrefixChains.
	DB *storage.DB
	// Registry records each chain, its aliases and its state.
	Registry *Registry
	// Routes serves the chains' handlers.
	Routes Routes
	// Indexer indexes the blocks of chains whose Spec.Indexed is set; nil
	// means the node keeps no index.
	Indexer Indexer
	// Engines makes each chain's engine (package chains/engine).
	Engines EngineFactory
	// Clock is the node's clock, handed to VMs and engines.
	Clock clock.Clock
	// Log is the manager's logger; each chain's is derived from it.
	Log *slog.Logger
	// BLSKey, WarpValidators and WarpAggregator are handed to every VM (Context); all may be nil.
	BLSKey         *bls.SecretKey
	WarpValidators warp.ValidatorState
	WarpAggregator WarpAggregator
}

// Spec describes a chain to create.
type Spec struct {
	// Chain is the chain's identity.
	Chain Chain
	// Aliases are given to the chain in the registry, primary first ("X",
	// "avm"); the ID string is added after them. Aliases the node gave
	// with Registry.PreAlias need not be repeated.
	Aliases []string
	// APIAliases are route bases, relative to /ext, under which the
	// chain's handlers are served besides bc/<chainID> and bc/<alias> for
	// each registry alias: "X", "avm" for the X-Chain (node-api.md §2.3).
	APIAliases []string
	// Prefix is the storage prefix of the chain's VM kind:
	// storage.PrefixPlatform, PrefixExchange or PrefixEVM. The VM's key
	// space is that prefix followed by the 32-byte chain ID.
	Prefix storage.Prefix
	// Factory makes the chain's VM.
	Factory Factory
	// Genesis is the chain's genesis, in the VM's own format.
	Genesis []byte
	// Upgrade and Config are the chain's upgrade and config files, handed to the VM as
	// Context.Upgrade and Context.Config; nil when the chain has none.
	Upgrade []byte
	Config  []byte
	// MinBlockGap is the least time between two accepted blocks of the
	// chain. Zero builds a block the moment the VM signals work.
	MinBlockGap time.Duration
	// Indexed makes the accept path call the manager's Indexer for the
	// chain's blocks: the node sets it for the Primary Network chains when
	// indexing is on (subnet chains have no index, node-api.md §2.3).
	Indexed bool
}

// validate reports every problem of s at once.
func (s *Spec) validate() error {
	var errs []error
	if s.Factory == nil {
		errs = append(errs, invalidSpecError("chain "+s.Chain.ID.String()+": no Factory"))
	}
	switch s.Prefix {
	case 0, storage.PrefixMeta, storage.PrefixChains, storage.PrefixIndex, storage.PrefixAtomic:
		errs = append(errs, invalidSpecError(fmt.Sprintf("chain %s: Prefix %q is no VM's", s.Chain.ID, byte(s.Prefix))))
	}
	if s.MinBlockGap < 0 {
		errs = append(errs, invalidSpecError(fmt.Sprintf("chain %s: negative MinBlockGap %s", s.Chain.ID, s.MinBlockGap)))
	}
	return errors.Join(errs...)
}

// Manager creates the node's chains and runs each chain's engine, with the
// chain's Acceptor. Build it with NewManager and stop it with Close. It is
// safe for concurrent use.
type Manager struct {
	cfg      ManagerConfig
	db       *storage.DB
	store    *storage.View // storage.PrefixChains: the last-accepted pointers
	shared   *shared.Memory
	registry *Registry
	routes   Routes
	indexer  Indexer
	engines  EngineFactory
	clock    clock.Clock
	log      *slog.Logger
	// blsKey, warpValidators and warpAggregator are ManagerDeps', for every VM's Context.
	blsKey         *bls.SecretKey
	warpValidators warp.ValidatorState
	warpAggregator WarpAggregator
	// commit commits a batch of the accept path (a block, a roll-back, a purge), waiting for
	// the disk if synced (storage.Batch.Commit) or not (CommitUnsynced): the one seam through
	// which every such write goes, which tests replace to make it fail.
	commit func(b *storage.Batch, synced bool) error
	// stage stages a roll-back's batch to be applied after its answer
	// (storage.Batch.CommitDeferred) and returns what applies it: the seam tests replace to
	// make the application fail.
	stage func(b *storage.Batch) (apply func() error, err error)
	// syncMu guards syncArmed, whether the background sync of unsynced roll-backs
	// (Rewind.Unsynced, syncSoon) is due, and applies, the staged roll-backs' applications it
	// runs first.
	syncMu    sync.Mutex
	syncArmed bool
	applies   []func()

	// wg counts the engine goroutines.
	wg sync.WaitGroup

	mu sync.Mutex // guards the fields below
	// chains holds every chain created, and nil for one being created.
	chains map[ids.ID]*chain
	// order lists the created chains in creation order.
	order  []ids.ID
	closed bool

	subsMu sync.Mutex // guards subs
	// subs holds each chain's subscribers. A slice stored here is never
	// changed (copy on write), so an Acceptor may range over it unlocked.
	subs map[ids.ID][]*subscriber
}

// subscriber is one Subscribe call.
type subscriber struct {
	fn  func(Block)
	off atomic.Bool
}

// NewManager returns a manager with no chains.
func NewManager(cfg ManagerConfig, deps ManagerDeps) (*Manager, error) {
	var errs []error
	if deps.DB == nil {
		errs = append(errs, invalidSpecError("no DB"))
	}
	if deps.Registry == nil {
		errs = append(errs, invalidSpecError("no Registry"))
	}
	if deps.Routes == nil {
		errs = append(errs, invalidSpecError("no Routes"))
	}
	if deps.Engines == nil {
		errs = append(errs, invalidSpecError("no Engines"))
	}
	if deps.Clock == nil {
		errs = append(errs, invalidSpecError("no Clock"))
	}
	if deps.Log == nil {
		errs = append(errs, invalidSpecError("no Log"))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return &Manager{
		cfg:      cfg,
		db:       deps.DB,
		store:    deps.DB.Prefixed(storage.PrefixChains),
		shared:   shared.New(deps.DB.Prefixed(storage.PrefixAtomic)),
		registry: deps.Registry,
		routes:   deps.Routes,
		indexer:  deps.Indexer,
		engines:  deps.Engines,

		blsKey:         deps.BLSKey,
		warpValidators: deps.WarpValidators,
		warpAggregator: deps.WarpAggregator,
		clock:          deps.Clock,
		log:            deps.Log,
		commit:         commitBatch,
		stage:          stageBatch,
		chains:         make(map[ids.ID]*chain),
		subs:           make(map[ids.ID][]*subscriber),
	}, nil
}

// commitBatch is Manager.commit outside tests.
func commitBatch(b *storage.Batch, synced bool) error {
	if synced {
		return b.Commit()
	}
	return b.CommitUnsynced()
}

// stageBatch is Manager.stage outside tests.
func stageBatch(b *storage.Batch) (func() error, error) {
	d, err := b.CommitDeferred()
	if err != nil {
		return nil, err
	}
	return d.Apply, nil
}

// chain is one created chain: its VM, its accept path and its engine.
type chain struct {
	id       ids.ID
	vm       VM
	acceptor *Acceptor
	engine   Engine
	// cancel stops the engine's Run; set before Run starts.
	cancel context.CancelFunc
}

// Create makes the chain's VM and engine and starts the engine:
//
//  1. the VM is made by spec.Factory over its own key space;
//  2. recovery: the chain's stored last-accepted pointer must name the
//     VM's last accepted block (after Recoverer.Recover, for a VM that has
//     it); without a pointer, the VM must be at its genesis block (height
//     0). Otherwise Create fails with ErrRecovery;
//  3. the chain is registered with its aliases, in state Created;
//  4. its handlers are given to Routes, answering 503 until it is in
//     NormalOperation;
//  5. its engine is made (ManagerDeps.Engines) and started
//     (Engine.Start), which moves the chain to Bootstrapping, and to
//     NormalOperation when it has nothing to catch up;
//  6. the engine's Run goroutine starts.
//
// ctx bounds the steps above, not the engine's Run, which lasts until
// Close. On error the VM is closed; a chain that failed after step 3 stays
// registered (in the state it reached, its routes answering 503 unless it
// reached NormalOperation), and a second Create for it fails with
// ErrRegistered.
func (m *Manager) Create(ctx context.Context, spec Spec) error {
	if err := spec.validate(); err != nil {
		return err
	}
	id := spec.Chain.ID
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return ErrManagerClosed
	}
	if _, ok := m.chains[id]; ok {
		m.mu.Unlock()
		return createdError(id)
	}
	m.chains[id] = nil // reserved while it is being created
	m.mu.Unlock()

	c, err := m.create(ctx, spec)

	m.mu.Lock()
	defer m.mu.Unlock()
	if err == nil && m.closed {
		err = errors.Join(ErrManagerClosed, closeVM(c.vm, id))
	}
	if err != nil {
		delete(m.chains, id)
		return err
	}
	m.chains[id] = c
	m.order = append(m.order, id)
	runCtx, cancel := context.WithCancel(context.Background())
	c.cancel = cancel
	m.wg.Go(func() {
		if err := c.engine.Run(runCtx); err != nil {
			c.acceptor.halt(err)
		}
	})
	return nil
}

// create does Create's steps 1 to 5.
func (m *Manager) create(ctx context.Context, spec Spec) (_ *chain, err error) {
	id := spec.Chain.ID
	log := m.log.With("chainID", id.String(), "chain", spec.Chain.Name)
	// The VM may ask for a roll-back once its engine runs; the acceptor is made below.
	var acc atomic.Pointer[Acceptor]
	running := func() (*Acceptor, error) {
		a := acc.Load()
		if a == nil {
			return nil, fmt.Errorf("chain %s: not running yet", id)
		}
		return a, nil
	}
	rewind := func(ctx context.Context, r Rewind) error {
		a, err := running()
		if err != nil {
			return err
		}
		return a.Rewind(ctx, r)
	}
	purge := func(ctx context.Context, stage func(*storage.Batch) ([]ids.ID, error)) error {
		a, err := running()
		if err != nil {
			return err
		}
		return a.Purge(ctx, stage)
	}
	vm, err := spec.Factory.New(ctx, Context{
		NetworkID:      m.cfg.NetworkID,
		Chain:          spec.Chain,
		Genesis:        spec.Genesis,
		Upgrade:        spec.Upgrade,
		Config:         spec.Config,
		DB:             m.db.Prefixed(spec.Prefix).Prefixed(id[:]),
		Log:            log,
		Clock:          m.clock,
		SharedMemory:   m.shared.For(id),
		Chains:         m.registry,
		Rewind:         rewind,
		Purge:          purge,
		BLSKey:         m.blsKey,
		WarpValidators: m.warpValidators,
		WarpAggregator: m.warpAggregator,
	})
	if err != nil {
		return nil, fmt.Errorf("make VM of chain %s: %w", id, err)
	}
	defer func() {
		if err != nil {
			err = errors.Join(err, closeVM(vm, id))
		}
	}()

	last, err := m.checkRecovery(ctx, id, vm)
	if err != nil {
		return nil, err
	}
	handlers, err := vm.Handlers(ctx)
	if err != nil {
		return nil, fmt.Errorf("get handlers of chain %s: %w", id, err)
	}

	if err := m.registry.Register(spec.Chain, spec.Aliases...); err != nil {
		return nil, fmt.Errorf("register chain %s: %w", id, err)
	}
	aliases, err := m.registry.Aliases(id)
	if err != nil {
		return nil, fmt.Errorf("aliases of chain %s: %w", id, err)
	}
	if len(handlers) > 0 {
		bases := routeBases(id, aliases, spec.APIAliases)
		if err := m.routes.AddChainRoutes(id, handlers, bases, m.ready(id)); err != nil {
			return nil, fmt.Errorf("serve routes of chain %s: %w", id, err)
		}
	}
	log = log.With("alias", aliases[0])
	acceptor := &Acceptor{
		m:        m,
		chainID:  id,
		vm:       vm,
		indexed:  spec.Indexed && m.indexer != nil,
		log:      log,
		lastID:   last.ID(),
		height:   last.Height(),
		lastTime: last.Timestamp(),
	}
	acc.Store(acceptor)
	engine, err := m.engines.NewEngine(ctx, EngineContext{
		Chain:       spec.Chain,
		VM:          vm,
		Acceptor:    acceptor,
		SetState:    func(s State) error { return m.registry.SetState(id, s) },
		MinBlockGap: spec.MinBlockGap,
		Log:         log,
		Clock:       m.clock,
	})
	if err != nil {
		return nil, fmt.Errorf("make engine of chain %s: %w", id, err)
	}
	if err := engine.Start(ctx); err != nil {
		return nil, fmt.Errorf("start engine of chain %s: %w", id, err)
	}
	// The one line per chain at info: the registry's own events are at debug.
	log.Info("chain created", "vmID", spec.Chain.VMID.String(), "lastAccepted", last.ID().String(), "height", last.Height(), "routes", len(handlers))
	return &chain{id: id, vm: vm, acceptor: acceptor, engine: engine}, nil
}

// checkRecovery checks, at start-up, that the VM's last accepted block is the
// one the accept path last committed, and returns it.
func (m *Manager) checkRecovery(ctx context.Context, id ids.ID, vm VM) (Block, error) {
	storedID, storedHeight, stored, err := m.loadPointer(id)
	if err != nil {
		return nil, err
	}
	if r, ok := vm.(Recoverer); ok && stored {
		if err := r.Recover(ctx, storedID, storedHeight); err != nil {
			return nil, fmt.Errorf("recover chain %s to block %s at height %d: %w", id, storedID, storedHeight, err)
		}
	}
	lastID, err := vm.LastAccepted(ctx)
	if err != nil {
		return nil, fmt.Errorf("last accepted block of chain %s: %w", id, err)
	}
	blk, err := vm.GetBlock(ctx, lastID)
	if err != nil {
		return nil, fmt.Errorf("get last accepted block %s of chain %s: %w", lastID, id, err)
	}
	height := blk.Height()
	switch {
	case !stored && height != 0:
		return nil, newChainRecoveryError(id, lastID, height)
	case stored && (lastID != storedID || height != storedHeight):
		return nil, recoveryError(id, storedID, storedHeight, lastID, height)
	}
	return blk, nil
}

// loadPointer reads chain id's last-accepted pointer; ok is false if the
// chain has accepted no block yet.
func (m *Manager) loadPointer(id ids.ID) (blkID ids.ID, height uint64, ok bool, err error) {
	b, err := m.store.Get(lastAcceptedKey(id))
	if errors.Is(err, storage.ErrNotFound) {
		return ids.ID{}, 0, false, nil
	}
	if err != nil {
		return ids.ID{}, 0, false, fmt.Errorf("read last accepted block of chain %s: %w", id, err)
	}
	blkID, height, err = decodePointer(b)
	if err != nil {
		return ids.ID{}, 0, false, fmt.Errorf("read last accepted block of chain %s: %w", id, err)
	}
	return blkID, height, true, nil
}

// ready reports whether chain id is in NormalOperation, for its routes.
func (m *Manager) ready(id ids.ID) func() bool {
	return func() bool {
		s, ok := m.registry.State(id)
		return ok && s == NormalOperation
	}
}

// routeBases returns the route bases, relative to /ext, of a chain besides
// bc/<chainID>: bc/<alias> for each registry alias (aliases, primary first,
// less the ID string), then apiAliases, without duplicates.
func routeBases(id ids.ID, aliases, apiAliases []string) []string {
	idStr := id.String()
	bases := make([]string, 0, len(aliases)+len(apiAliases))
	for _, a := range aliases {
		if a != idStr {
			bases = append(bases, "bc/"+a)
		}
	}
	for _, a := range apiAliases {
		if !slices.Contains(bases, a) {
			bases = append(bases, a)
		}
	}
	return bases
}

// VM returns chain chainID's own VM, beneath any layer wrapped around it (a Wrapper: the
// proposer windows), since callers ask it for the capabilities of its kind (warp signing, the
// P-Chain's validator sets); false if the chain was not created.
func (m *Manager) VM(chainID ids.ID) (VM, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	c := m.chains[chainID]
	if c == nil {
		return nil, false
	}
	vm := c.vm
	for {
		w, ok := vm.(Wrapper)
		if !ok {
			return vm, true
		}
		vm = w.Unwrap()
	}
}

// LastAccepted returns the ID and height of chain chainID's last accepted
// block, as committed, and false if the chain was not created.
func (m *Manager) LastAccepted(chainID ids.ID) (ids.ID, uint64, bool) {
	c := m.chain(chainID)
	if c == nil {
		return ids.ID{}, 0, false
	}
	id, height := c.acceptor.LastAccepted()
	return id, height, true
}

// LastAcceptedTime returns the timestamp of chain chainID's last accepted block, as committed,
// and false if the chain was not created.
func (m *Manager) LastAcceptedTime(chainID ids.ID) (time.Time, bool) {
	c := m.chain(chainID)
	if c == nil {
		return time.Time{}, false
	}
	return c.acceptor.LastAcceptedTime(), true
}

// Status is the details of a chain's health check.
type Status struct {
	// LastAccepted is the ID of the chain's last accepted block.
	LastAccepted ids.ID `json:"lastAccepted"`
	// Height is its height.
	Height uint64 `json:"height"`
	// Bootstrapping is how far bootstrapping has come, while the chain bootstraps and its
	// engine tells (Progresser); absent otherwise.
	Bootstrapping any `json:"bootstrapping,omitempty"`
}

// Health is chain chainID's health check, in the shape the node's health
// checker takes (api/health.Check, once given the chain ID): the details
// are its Status, and the error, wrapping ErrHalted, says why the chain
// halted, or, wrapping ErrBootstrapping, that it is not in normal operation
// yet. A chain not created fails with ErrNoChain.
func (m *Manager) Health(ctx context.Context, chainID ids.ID) (any, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	c := m.chain(chainID)
	if c == nil {
		return nil, noChainError(chainID.String())
	}
	id, height, halted := c.acceptor.status()
	st := Status{LastAccepted: id, Height: height}
	if halted != nil {
		return st, fmt.Errorf("%w: %w", ErrHalted, halted)
	}
	if s, _ := m.registry.State(chainID); s != NormalOperation {
		if p, ok := c.engine.(Progresser); ok {
			st.Bootstrapping, _ = p.Progress()
		}
		return st, ErrBootstrapping
	}
	return st, nil
}

func (m *Manager) chain(chainID ids.ID) *chain {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.chains[chainID]
}

// Subscribe calls fn with every block of chain chainID accepted from now
// on, after its batch is committed and VM.Accepted returned, in height
// order. fn runs on the chain's engine goroutine, which waits for it: it
// must be quick and must not call Close. The chain need not exist yet.
// After unsubscribe returns, fn is not called again (except a call already
// running); unsubscribe may be called from fn and more than once.
func (m *Manager) Subscribe(chainID ids.ID, fn func(Block)) (unsubscribe func()) {
	s := &subscriber{fn: fn}
	m.subsMu.Lock()
	m.subs[chainID] = append(slices.Clip(m.subs[chainID]), s)
	m.subsMu.Unlock()
	return func() {
		if s.off.Swap(true) {
			return
		}
		m.subsMu.Lock()
		defer m.subsMu.Unlock()
		subs := slices.DeleteFunc(slices.Clone(m.subs[chainID]), func(x *subscriber) bool { return x == s })
		if len(subs) == 0 {
			delete(m.subs, chainID)
			return
		}
		m.subs[chainID] = subs
	}
}

// subscribers returns chain chainID's subscribers; the caller must not
// change the slice.
func (m *Manager) subscribers(chainID ids.ID) []*subscriber {
	m.subsMu.Lock()
	defer m.subsMu.Unlock()
	return m.subs[chainID]
}

// Close stops every engine and waits for it: a block being committed is
// committed, and its subscribers called, before its engine stops. Then it
// closes the VMs, in creation order. Create fails with ErrManagerClosed
// afterwards. Close does not close the database. A second call returns nil.
func (m *Manager) Close() error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil
	}
	m.closed = true
	var running []*chain
	for _, id := range m.order {
		running = append(running, m.chains[id])
	}
	m.mu.Unlock()

	for _, c := range running {
		c.cancel()
	}
	m.wg.Wait()
	var errs []error
	for _, c := range running {
		errs = append(errs, closeVM(c.vm, c.id))
	}
	m.log.Info("chains stopped", "count", len(running))
	return errors.Join(errs...)
}

// closeVM closes vm, naming its chain in the error.
func closeVM(vm VM, id ids.ID) error {
	if err := vm.Close(); err != nil {
		return fmt.Errorf("close VM of chain %s: %w", id, err)
	}
	return nil
}
