package platform

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"sync"
	"time"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
	"github.com/cornice-node/cornice/vms/address"
	"github.com/cornice-node/cornice/vms/internal/chainstate"
	"github.com/cornice-node/cornice/vms/internal/mempool"
	"github.com/cornice-node/cornice/vms/internal/processing"
	"github.com/cornice-node/cornice/vms/platform/txs"
)

// MaxFutureBlockTime is how far ahead of the node's clock a block's time may be: the reference's
// sync bound (reference/platform-exchange.md §4.1).
const MaxFutureBlockTime = 10 * time.Second

// DefaultStakeDuration is the stake period reported for this node's Primary Network validator
// when Factory.StakeDuration is zero: the local network's initial stake duration (§7.1).
const DefaultStakeDuration = 31_536_000 * time.Second

// AliasLookup resolves a chain alias ("X", "C", an ID's string) to the chain's ID, for the chains
// this node runs. *chains.Registry implements it.
type AliasLookup interface {
	Lookup(alias string) (ids.ID, error)
}

// Factory makes P-Chain VMs. The genesis (an encoded Genesis, §4.6) comes with the
// chains.Context; the fields say who validates the network.
//
// A fresh single-node network's Primary Network validator set is this node alone (issue #5 §2):
// NodeID, Signer and Weight describe it, and the genesis's own validator txs are kept only as
// committed txs (platform.getTx finds them), not as current validators.
type Factory struct {
	// NodeID is this node's ID, the Primary Network's only validator.
	NodeID ids.NodeID
	// Signer is this node's BLS public key and proof of possession; nil reports no signer.
	Signer *txs.ProofOfPossession
	// Weight is this node's Primary Network weight in nAVAX (the node passes
	// config.LocalGenesisStake).
	Weight uint64
	// StakeDuration is the validation period reported from the genesis time (the validator never
	// leaves: there is no reward process yet). Zero means DefaultStakeDuration.
	StakeDuration time.Duration
	// Fees is the dynamic fee configuration (§4.8). The zero value means LocalFeeConfig.
	Fees txs.FeeConfig
	// ValidatorFees is the L1 validators' continuous fee configuration (§4.7). The zero value
	// means LocalValidatorFeeConfig.
	ValidatorFees ValidatorFeeConfig
	// AVAXAssetID is the asset fees are paid in. Zero means the asset of the genesis UTXOs.
	AVAXAssetID ids.ID
	// Aliases resolves chain aliases for platform.getBlockchainStatus and tells which chains this
	// node runs. Nil accepts only chain IDs and reports every chain as "Created".
	Aliases AliasLookup
	// Staking is the Primary Network's staking limits (§4.9). The zero value means
	// LocalStakingConfig.
	Staking StakingConfig
	// Rand is the randomness platform.sampleValidators draws from; the VM serializes its use.
	// Nil means a ChaCha8 source seeded from crypto/rand.
	Rand rand.Source
}

var _ chains.Factory = Factory{}

// New implements chains.Factory.
func (f Factory) New(ctx context.Context, c chains.Context) (chains.VM, error) {
	return New(ctx, f, c)
}

// primaryValidator is this node as the Primary Network's validator.
type primaryValidator struct {
	nodeID     ids.NodeID
	signer     *txs.ProofOfPossession
	weight     uint64
	start, end uint64
}

// VM is the P-Chain: UTXOs, subnets, blockchains, subnet validators and L1 conversions (BaseTx,
// CreateSubnetTx, CreateChainTx, AddSubnetValidatorTx, ConvertSubnetToL1Tx) with dynamic fees, and
// the platform API. Its chains.VM methods other than WorkReady, Handlers
// and Close run on the pipeline goroutine; the API runs concurrently with them.
type VM struct {
	rules     rules
	hrp       string
	log       *slog.Logger
	clock     clock.Clock
	state     *state
	genesis   *txs.ApricotCommitBlock
	validator primaryValidator
	aliases   AliasLookup
	work      chan struct{}
	handler   http.Handler
	staking   StakingConfig
	// initialSupply is the genesis's initial AVAX supply; stakerTxIDs are the IDs of the genesis's
	// validator txs, committed at height 0 (§4.6).
	initialSupply uint64
	stakerTxIDs   []ids.ID
	// accepted is state read live (storage.View.Live), without the published snapshot's
	// reference count: for building, verifying and accepting blocks only, which run on the
	// pipeline goroutine, the one goroutine that commits to this key space, so all it can see is
	// durable. Whatever the API answers is read through state.
	accepted *state

	rngMu sync.Mutex // guards rng
	rng   *rand.Rand

	mu sync.Mutex // guards the fields below
	// last is the last accepted block, with the fee state after it.
	last *chainBlock
	// pool holds the pending txs, and poolView the state they leave: they conflict with it. A
	// pending tx may spend the outputs of an earlier one, or name a subnet an earlier one creates.
	pool     *mempool.Pool[*txs.Tx, *effects]
	poolView *overlay
	// proc holds the processing blocks and the preference (processing.go).
	proc processing.Set[*chainBlock]
	// evictTimer wakes the VM when the next L1 validator runs out of balance (§4.7); closed
	// stops it for good.
	evictTimer *time.Timer
	closed     bool
}

var _ chains.VM = (*VM)(nil)

// New makes the P-Chain VM of chain c: on an empty key space it writes the genesis (its UTXOs,
// its validator and chain txs as committed, and the genesis block, in one batch of its own);
// otherwise it resumes at the stored last accepted block, after checking that the stored genesis
// block is this genesis's.
func New(_ context.Context, f Factory, c chains.Context) (*VM, error) {
	if c.DB == nil || c.Log == nil || c.Clock == nil {
		return nil, errors.New("platform: chains.Context needs DB, Log and Clock")
	}
	g, err := txs.ParseGenesis(c.Genesis)
	if err != nil {
		return nil, fmt.Errorf("parse P-Chain genesis: %w", err)
	}
	fees := f.Fees
	if fees == (txs.FeeConfig{}) {
		fees = txs.LocalFeeConfig
	}
	vfees := f.ValidatorFees
	if vfees == (ValidatorFeeConfig{}) {
		vfees = LocalValidatorFeeConfig
	}
	if fees.ExcessConversionConstant == 0 || vfees.ExcessConversionConstant == 0 {
		return nil, errors.New("platform: the fee configs' excess conversion constants must not be zero")
	}
	avax := f.AVAXAssetID
	if avax == ids.Empty && len(g.UTXOs) > 0 {
		avax = g.UTXOs[0].AssetID
	}
	if avax == ids.Empty {
		return nil, errors.New("platform: no AVAX asset ID: the genesis has no UTXOs and the factory names none")
	}
	staking := f.Staking
	if staking == (StakingConfig{}) {
		staking = LocalStakingConfig
	}
	src := f.Rand
	if src == nil {
		if src, err = newSeededSource(); err != nil {
			return nil, err
		}
	}
	stakerTxIDs := make([]ids.ID, len(g.Validators))
	for i, tx := range g.Validators {
		stakerTxIDs[i] = tx.ID()
	}
	stake := f.StakeDuration
	if stake <= 0 {
		stake = DefaultStakeDuration
	}
	vm := &VM{
		rules:   rules{networkID: c.NetworkID, avaxAssetID: avax, fees: fees, validatorFees: vfees},
		hrp:     address.HRP(c.NetworkID),
		log:     c.Log,
		clock:   c.Clock,
		state:   &state{db: c.DB},
		genesis: txs.NewGenesisBlock(c.Genesis),
		validator: primaryValidator{
			nodeID: f.NodeID,
			signer: f.Signer,
			weight: f.Weight,
			start:  g.Timestamp,
			end:    g.Timestamp + uint64(stake/time.Second),
		},
		aliases:       f.Aliases,
		work:          make(chan struct{}, 1),
		staking:       staking,
		initialSupply: g.InitialSupply,
		stakerTxIDs:   stakerTxIDs,
		rng:           rand.New(src),
	}
	vm.rules.primary = vm.validator
	vm.accepted = &state{db: c.DB.Live()}
	vm.poolView = newOverlay(vm.state)
	vm.pool = mempool.New[*txs.Tx](vm.poolView)
	if err := vm.loadOrInit(g); err != nil {
		return nil, err
	}
	vm.handler = vm.newHandler()
	vm.scheduleEviction()
	vm.log.Info("P-Chain ready", "genesis", vm.genesis.ID().String(), "height", vm.last.Height(),
		"validator", f.NodeID.String())
	return vm, nil
}

// loadOrInit reads the last accepted block, or writes the genesis when there is none.
func (vm *VM) loadOrInit(g *txs.Genesis) error {
	rec, found, err := vm.state.lastAccepted()
	if err != nil {
		return fmt.Errorf("read last accepted block: %w", err)
	}
	if !found {
		b := vm.state.db.NewBatch()
		defer b.Close()
		w := writer{b: b}
		for i := range g.UTXOs {
			if err := w.putUTXO(&g.UTXOs[i].UTXO); err != nil {
				return fmt.Errorf("write genesis: %w", err)
			}
		}
		for _, list := range [][]*txs.Tx{g.Validators, g.Chains} {
			for _, tx := range list {
				if err := w.putTx(tx); err != nil {
					return fmt.Errorf("write genesis: %w", err)
				}
			}
		}
		// The fee state starts empty at the genesis time, so the first block refills the
		// capacity (§4.6).
		fees := feeState{time: g.Timestamp}
		if err := w.putBlock(vm.genesis, fees); err != nil {
			return fmt.Errorf("write genesis: %w", err)
		}
		if err := b.Commit(); err != nil {
			return fmt.Errorf("write genesis: %w", err)
		}
		vm.last = &chainBlock{vm: vm, blk: vm.genesis, fees: fees}
		return nil
	}
	genesisID, found, err := vm.state.blockIDAt(0)
	switch {
	case err != nil:
		return fmt.Errorf("read genesis block: %w", err)
	case !found || genesisID != vm.genesis.ID():
		return fmt.Errorf("platform: stored genesis block %s is not this chain's %s", genesisID, vm.genesis.ID())
	}
	last, found, err := vm.state.getBlock(rec.id)
	switch {
	case err != nil:
		return fmt.Errorf("read last accepted block %s: %w", rec.id, err)
	case !found:
		return fmt.Errorf("platform: last accepted block %s is missing", rec.id)
	}
	vm.last = &chainBlock{vm: vm, blk: last, fees: rec.fees}
	return nil
}

// lastAccepted returns the last accepted block.
func (vm *VM) lastAccepted() *chainBlock {
	vm.mu.Lock()
	defer vm.mu.Unlock()
	return vm.last
}

// LastAccepted implements chains.VM.
func (vm *VM) LastAccepted(context.Context) (ids.ID, error) {
	return vm.lastAccepted().ID(), nil
}

// GetBlock implements chains.Getter: a processing or an accepted block.
func (vm *VM) GetBlock(_ context.Context, id ids.ID) (chains.Block, error) {
	if b, ok := vm.processingBlock(id); ok {
		return b, nil
	}
	blk, err := chainstate.Found(vm.state.getBlock(id))
	if err != nil {
		return nil, err
	}
	return &chainBlock{vm: vm, blk: blk}, nil
}

// GetBlockIDAtHeight implements chains.VM.
func (vm *VM) GetBlockIDAtHeight(_ context.Context, height uint64) (ids.ID, error) {
	return chainstate.AcceptedBlockIDAt(vm.state.db, height)
}

// ParseBlock implements chains.Parser; a processing block is returned as it is.
func (vm *VM) ParseBlock(_ context.Context, b []byte) (chains.Block, error) {
	blk, err := txs.ParseBlock(b)
	if err != nil {
		return nil, fmt.Errorf("parse block: %w", err)
	}
	if p, ok := vm.processingBlock(blk.ID()); ok {
		return p, nil
	}
	return &chainBlock{vm: vm, blk: blk}, nil
}

// now returns the node's time in unix seconds.
func (vm *VM) now() uint64 { return uint64(max(vm.clock.Now().Unix(), 0)) }

// verifyTx checks tx for inclusion on src at chain time now and gas price: not twice in seen
// (the block's txs so far, recorded here), syntactic and semantic checks, and not in known
// already (committed, or in a processing ancestor).
func (vm *VM) verifyTx(tx *txs.Tx, src utxoSource, known chainView, now, price, accrued uint64, seen map[ids.ID]struct{}) (*effects, error) {
	if _, dup := seen[tx.ID()]; dup {
		return nil, ErrDuplicateTx
	}
	seen[tx.ID()] = struct{}{}
	if err := vm.rules.syntactic(tx); err != nil {
		return nil, err
	}
	eff, err := vm.rules.semantic(tx, src, now, price, accrued)
	if err != nil {
		// A committed tx issued again fails here, on its spent inputs, as in the reference.
		return nil, executionError(tx.ID(), err)
	}
	committed, err := known.hasTx(tx.ID())
	switch {
	case err != nil:
		return nil, err
	case committed:
		return nil, ErrDuplicateTx
	}
	return eff, nil
}

// IssueTx verifies tx against the accepted state advanced to the node's clock and the pending
// txs, and adds it to the mempool; the pipeline builds a block with it at once. It fails if tx is
// pending or committed already, too large, invalid, or conflicts with a pending tx.
func (vm *VM) IssueTx(tx *txs.Tx) error {
	if tx.Size() > MaxTxSize {
		return fmt.Errorf("%w: %s size (%d) > max size (%d)", ErrTxTooLarge, tx.ID(), tx.Size(), MaxTxSize)
	}
	if err := vm.issue(tx); err != nil {
		return err
	}
	vm.signal()
	return nil
}

func (vm *VM) issue(tx *txs.Tx) error {
	vm.mu.Lock()
	defer vm.mu.Unlock()
	if vm.pool.Has(tx.ID()) {
		return ErrDuplicateTx
	}
	if vm.pool.Size()+tx.Size() > MaxMempoolSize {
		return ErrMempoolFull
	}
	// The accepted state is read under the lock that Accepted takes: a block's spends are
	// either in the state read here or still pending in the mempool's view.
	t, err := vm.blockTime(vm.state, vm.last.fees)
	if err != nil {
		return err
	}
	fees, _, err := vm.advance(vm.state, vm.last.fees, t)
	if err != nil {
		return err
	}
	eff, err := vm.verifyTx(tx, vm.poolView, vm.state, t, fees.price(&vm.rules.fees), fees.accrued, make(map[ids.ID]struct{}, 1))
	if err != nil {
		return err
	}
	vm.pool.Add(tx, eff)
	return nil
}

// pending reports whether tx is in the mempool.
func (vm *VM) pending(id ids.ID) bool {
	vm.mu.Lock()
	defer vm.mu.Unlock()
	return vm.pool.Has(id)
}

// BuildBlock implements chains.Builder: a Banff standard block on the preferred block at the later
// of now and the parent's time, with the pending txs in arrival order up to about 128 KiB and
// the fee state's capacity (§4.1). A pending tx that no longer verifies is dropped from the
// mempool; one that does not fit waits for the next block.
func (vm *VM) BuildBlock(context.Context) (chains.Block, error) {
	vm.mu.Lock()
	parent, view, ok := vm.preferredLocked()
	if !ok { // none, or it was accepted since
		parent, view = vm.last, vm.accepted
	}
	t, err := vm.blockTime(view, parent.fees)
	if err != nil {
		vm.mu.Unlock()
		return nil, err
	}
	fees, evicted, err := vm.advance(view, parent.fees, t)
	if err != nil {
		vm.mu.Unlock()
		return nil, err
	}
	price := fees.price(&vm.rules.fees)
	ov := newOverlay(view)
	ov.Apply(&effects{l1Validators: evicted})
	pview, _ := view.(*blockView)
	seen := make(map[ids.ID]struct{})
	var (
		picked []*txs.Tx
		effs   []*effects
		size   int
		gas    uint64
		drop   = make(map[ids.ID]struct{})
	)
	for tx := range vm.pool.Txs() {
		if len(picked) > 0 && size+tx.Size() > targetBlockSize {
			break
		}
		if pview.inProcessing(tx.ID()) {
			continue // it leaves the mempool when its block is accepted
		}
		eff, err := vm.verifyTx(tx, ov, view, t, price, fees.accrued, seen)
		if err != nil {
			vm.log.Debug("pending tx dropped", "txID", tx.ID().String(), "err", err)
			drop[tx.ID()] = struct{}{}
			continue
		}
		if gas+eff.gas > fees.capacity {
			break
		}
		ov.Apply(eff)
		picked = append(picked, tx)
		effs = append(effs, eff)
		size += tx.Size()
		gas += eff.gas
	}
	vm.pool.Remove(drop)
	vm.mu.Unlock()
	// A block without txs is built only to deactivate the validators that ran out (§4.7).
	if len(picked) == 0 && len(evicted) == 0 {
		return nil, chains.ErrNoWork
	}
	after, _ := fees.consume(gas)
	blk, err := txs.NewStandardBlock(parent.ID(), parent.Height()+1, t, picked)
	if err != nil {
		return nil, fmt.Errorf("build block: %w", err)
	}
	return &chainBlock{vm: vm, blk: blk, effs: effs, evicted: evicted, fees: after, verifiedOn: parent.ID(), built: ov}, nil
}

// blockTime returns the time of a block on a parent with the fee state parent: the node's time,
// but no earlier than the parent's and no later than when the next L1 validator runs out
// (§4.1, §4.7).
func (vm *VM) blockTime(view chainView, parent feeState) (uint64, error) {
	t := max(vm.now(), parent.time)
	next, ok, err := vm.nextEviction(view, parent)
	if err != nil || !ok {
		return t, err
	}
	return min(t, next), nil
}

// maxEvictionWait bounds how far ahead nextEviction looks, in seconds.
const maxEvictionWait = 1 << 32

// nextEviction returns the chain time at which the first active L1 validator of view, whose
// fee state is parent, runs out of balance; ok is false when none is active (§4.7).
func (vm *VM) nextEviction(view chainView, parent feeState) (t uint64, ok bool, err error) {
	active, err := view.activeL1Validators()
	if err != nil || len(active) == 0 {
		return 0, false, err
	}
	if active[0].endFee <= parent.accrued {
		return parent.time, true, nil
	}
	s := vm.rules.validatorFees.secondsUntil(uint64(len(active)), parent.validatorExcess,
		active[0].endFee-parent.accrued, maxEvictionWait)
	return satAdd(parent.time, s), true, nil
}

// advance returns the fee state parent (view's) advanced to time t ≥ parent.time:
// the dynamic fee state (§4.8) and the continuous fee, which every active L1 validator pays for
// each second; and the active validators that ran out by then, deactivated (§4.7).
func (vm *VM) advance(view chainView, parent feeState, t uint64) (feeState, []*l1Validator, error) {
	fees := parent.advance(&vm.rules.fees, t)
	if t <= parent.time {
		return fees, nil, nil
	}
	active, err := view.activeL1Validators()
	if err != nil {
		return fees, nil, err
	}
	cost, excess := vm.rules.validatorFees.cost(uint64(len(active)), parent.validatorExcess, t-parent.time)
	fees.validatorExcess = excess
	fees.accrued = satAdd(parent.accrued, cost)
	var evicted []*l1Validator
	for _, a := range active {
		if a.endFee > fees.accrued {
			break
		}
		v, found, err := view.l1Validator(a.validationID)
		switch {
		case err != nil:
			return fees, nil, err
		case !found:
			return fees, nil, fmt.Errorf("platform: active L1 validator %s is missing", a.validationID)
		}
		v.endFee = 0
		evicted = append(evicted, v)
	}
	return fees, evicted, nil
}

// evictionPoll bounds the eviction timer's wait, so that a clock that jumps (a fake one in
// tests, or a system clock set forward) is noticed within it.
const evictionPoll = time.Second

// scheduleEviction signals WorkReady when the next L1 validator runs out of balance by the
// node's clock, so that the pipeline builds the block that deactivates it (§4.7).
func (vm *VM) scheduleEviction() {
	vm.mu.Lock()
	defer vm.mu.Unlock()
	if vm.closed {
		return
	}
	if vm.evictTimer != nil {
		vm.evictTimer.Stop()
		vm.evictTimer = nil
	}
	next, ok, err := vm.nextEviction(vm.state, vm.last.fees)
	switch {
	case err != nil:
		vm.log.Error("next L1 validator eviction", "err", err)
		return
	case !ok:
		return
	}
	if now := vm.now(); next <= now {
		vm.signal()
		return
	} else if d := time.Duration(next-now) * time.Second; d < evictionPoll {
		vm.evictTimer = vm.clock.AfterFunc(d, vm.scheduleEviction)
		return
	}
	vm.evictTimer = vm.clock.AfterFunc(evictionPoll, vm.scheduleEviction)
}

// WorkReady implements chains.VM.
func (vm *VM) WorkReady() <-chan struct{} { return vm.work }

// signal tells the pipeline there are txs to build a block from.
func (vm *VM) signal() {
	select {
	case vm.work <- struct{}{}:
	default:
	}
}

// Accepted implements chains.VM: blk's batch is committed. The block becomes the last accepted
// one, and its txs, and any pending tx spending what they spent, leave the mempool.
func (vm *VM) Accepted(_ context.Context, cb chains.Block) error {
	b, ok := cb.(*chainBlock)
	if !ok {
		return fmt.Errorf("platform: accepted block of type %T", cb)
	}
	vm.mu.Lock()
	vm.acceptedLocked(b)
	vm.last = b
	vm.pool.Accepted(b.effs)
	pending := vm.pool.Len()
	vm.mu.Unlock()
	if pending > 0 {
		vm.signal()
	}
	vm.scheduleEviction()
	return nil
}

// Handlers implements chains.VM: the platform API at the chain's base path.
func (vm *VM) Handlers(context.Context) (map[string]http.Handler, error) {
	return map[string]http.Handler{"": vm.handler}, nil
}

// Close implements chains.VM: it stops the eviction timer.
func (vm *VM) Close() error {
	vm.mu.Lock()
	defer vm.mu.Unlock()
	vm.closed = true
	if vm.evictTimer != nil {
		vm.evictTimer.Stop()
		vm.evictTimer = nil
	}
	return nil
}

// chainBlock is a P-Chain block as the acceptance pipeline sees it. It is used by the pipeline
// goroutine only, and is immutable once accepted.
type chainBlock struct {
	vm  *VM
	blk txs.Block
	// effs are the effects of the block's txs, in order, and fees the fee state after the block,
	// once verified against the last accepted block verifiedOn (the builder verifies the blocks
	// it builds). For an accepted block loaded from the state only fees is set, and only for the
	// last one.
	effs []*effects
	// evicted are the L1 validators that ran out of balance by the block's time, deactivated
	// (§4.7), once verified.
	evicted    []*l1Validator
	fees       feeState
	verifiedOn ids.ID
	// view is the state the block leaves while it is processing (processing.go), nil otherwise;
	// built is the builder's overlay of a built block until it is verified.
	view  *blockView
	built *overlay
}

var _ chains.Block = (*chainBlock)(nil)

// ID implements chains.Block: sha256 of the block bytes.
func (b *chainBlock) ID() ids.ID { return b.blk.ID() }

// Parent implements chains.Block.
func (b *chainBlock) Parent() ids.ID { return b.blk.Parent() }

// Height implements chains.Block.
func (b *chainBlock) Height() uint64 { return b.blk.Height() }

// Timestamp implements chains.Block: the block's time; the genesis block, which has none, is at
// the genesis time.
func (b *chainBlock) Timestamp() time.Time {
	if sb, ok := b.blk.(*txs.StandardBlock); ok {
		return time.Unix(int64(sb.Time()), 0).UTC()
	}
	return time.Unix(int64(b.vm.validator.start), 0).UTC()
}

// Bytes implements chains.Block. The caller must not modify them.
func (b *chainBlock) Bytes() []byte { return b.blk.Bytes() }

// Verify implements chains.Block: a Banff standard block that extends the last accepted block or
// a processing one by one height, at a time no earlier than its parent's and at most MaxFutureBlockTime ahead of the
// node's clock and no later than the next L1 validator eviction, with at least one tx unless it
// deactivates validators that ran out (§4.1, §4.7). The fee state is advanced to the block's time,
// the continuous fee charged and the validators that ran out deactivated; every
// tx is verified in order on the UTXOs the earlier ones leave (so a UTXO is spent at most once in
// a block and across blocks) and pays gas × the advanced state's price, and the block's gas must
// fit the capacity (§4.8).
func (b *chainBlock) Verify(ctx context.Context) error {
	vm := b.vm
	sb, ok := b.blk.(*txs.StandardBlock)
	if !ok {
		return fmt.Errorf("%w: %T", txs.ErrWrongBlockType, b.blk)
	}
	parent, view, ok := vm.parent(sb.Parent())
	if !ok {
		last := vm.lastAccepted()
		return fmt.Errorf("%w: block %s at height %d on %s, last accepted %s at height %d",
			ErrWrongParent, sb.ID(), sb.Height(), sb.Parent(), last.ID(), last.Height())
	}
	now := vm.clock.Now()
	switch {
	case sb.Height() != parent.Height()+1:
		return fmt.Errorf("%w: block %s at height %d on %s at height %d",
			ErrWrongParent, sb.ID(), sb.Height(), sb.Parent(), parent.Height())
	case sb.Time() < parent.fees.time || sb.Time() > uint64(now.Add(MaxFutureBlockTime).Unix()):
		return fmt.Errorf("%w: %d, parent %d, now %d", ErrBlockTime, sb.Time(), parent.fees.time, now.Unix())
	}
	if b.effs != nil && b.verifiedOn == parent.ID() && b.built != nil {
		// Built on parent, and verified by the builder.
		vm.processed(b, view, b.built)
		b.built = nil
		return nil
	}
	if next, ok, err := vm.nextEviction(view, parent.fees); err != nil {
		return err
	} else if ok && sb.Time() > next {
		return fmt.Errorf("%w: %d, after the next L1 validator eviction at %d", ErrBlockTime, sb.Time(), next)
	}
	fees, evicted, err := vm.advance(view, parent.fees, sb.Time())
	if err != nil {
		return err
	}
	if len(sb.Txs()) == 0 && len(evicted) == 0 {
		return ErrNoTxs
	}
	price := fees.price(&vm.rules.fees)
	ov := newOverlay(view)
	ov.Apply(&effects{l1Validators: evicted})
	seen := make(map[ids.ID]struct{}, len(sb.Txs()))
	effs := make([]*effects, 0, len(sb.Txs()))
	var gas uint64
	for _, tx := range sb.Txs() {
		if err := ctx.Err(); err != nil {
			return err
		}
		eff, err := vm.verifyTx(tx, ov, view, sb.Time(), price, fees.accrued, seen)
		if err != nil {
			return fmt.Errorf("tx %s: %w", tx.ID(), err)
		}
		ov.Apply(eff)
		effs = append(effs, eff)
		gas = satAdd(gas, eff.gas)
	}
	after, ok := fees.consume(gas)
	if !ok {
		return fmt.Errorf("%w: block gas %d > capacity %d", ErrInsufficientCapacity, gas, fees.capacity)
	}
	b.effs, b.evicted, b.fees, b.verifiedOn = effs, evicted, after, parent.ID()
	vm.processed(b, view, ov)
	return nil
}

// Accept implements chains.Block: it stages the block's txs (and the subnets and chains they
// create), the UTXOs they spend (deleted) and create (written, unless a later tx of the block
// spends them), the block itself and the fee state after it into batch.
func (b *chainBlock) Accept(ctx context.Context, batch *storage.Batch) error {
	if b.effs == nil || b.verifiedOn != b.blk.Parent() {
		if err := b.Verify(ctx); err != nil {
			return err
		}
	}
	w := writer{b: b.vm.accepted.db.Wrap(batch), s: b.vm.accepted, written: make(map[ids.ID]*l1Validator), height: b.Height()}
	for _, v := range b.evicted {
		if err := w.putL1Validator(v); err != nil {
			return err
		}
	}
	created := make(map[ids.ID]struct{})
	var order []*txs.UTXO
	for i, tx := range b.blk.Txs() {
		if err := w.putTx(tx); err != nil {
			return err
		}
		eff := b.effs[i]
		if err := w.putL1(eff); err != nil {
			return err
		}
		for _, ux := range eff.consumed {
			id := ux.InputID()
			if _, ok := created[id]; ok {
				delete(created, id)
				continue
			}
			if err := w.deleteUTXO(ux); err != nil {
				return err
			}
		}
		for j := range eff.produced {
			ux := &eff.produced[j]
			created[ux.InputID()] = struct{}{}
			order = append(order, ux)
		}
	}
	for _, ux := range order {
		if _, ok := created[ux.InputID()]; !ok {
			continue
		}
		if err := w.putUTXO(ux); err != nil {
			return err
		}
	}
	return w.putBlock(b.blk, b.fees)
}
