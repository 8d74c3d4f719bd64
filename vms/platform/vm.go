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
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// DefaultStakeDuration is the stake period reported for this node's Primary Network validator
// when Factory.StakeDuration is zero: the local network's initial stake duration (§7.1).
const DefaultStakeDuration = 31_536_000 * time.Second

// AliasLookup resolves a chain alias ("X", "C", an ID's string) to the chain's ID, for the chains
// this node runs. *chains.Registry implements it.
type AliasLookup interface {
	Lookup(alias string) (ids.ID, error)
}

// Uptimes is what the VM asks the node about the Primary Network validators' nodes.
// *node.primaryUptime implements it.
type Uptimes interface {
	// Uptime returns nodeID's measured uptime as a fraction, 0–1, of the time since it started
	// validating; 0 for a node it does not know.
	Uptime(nodeID ids.NodeID) float64
	// IsConnected reports whether nodeID is connected to this node.
	IsConnected(nodeID ids.NodeID) bool
}

// Factory makes P-Chain VMs. The genesis (an encoded Genesis, §4.6) comes with the
// chains.Context; the fields say who validates the network.
//
// As this node runs the network, a fresh single-node network's Primary Network validator set is
// this node alone (issue #5 §2), holding the genesis stake: NodeID, Signer and Weight describe it
// (ValidatorsAt). As the P-Chain records it, the Primary Network's validators are its stakers, the
// genesis's validators among them (RecordedValidatorsAt, PrimaryValidators).
type Factory struct {
	// NodeID is this node's ID, the validator of the network as this node runs it.
	NodeID ids.NodeID
	// Signer is this node's BLS public key and proof of possession; nil reports no signer.
	Signer *txs.ProofOfPossession
	// Weight is this node's Primary Network weight in nAVAX (the node passes
	// config.LocalGenesisStake).
	Weight uint64
	// StakeDuration is the validation period reported from the genesis time (the genesis stake
	// never leaves: it has no staking tx to reward). Zero means DefaultStakeDuration.
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
	// Uptimes measures the Primary Network validators' uptime, which decides their rewards
	// (§4.10), and tells which are connected. Nil counts only this node as up and connected.
	Uptimes Uptimes
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
	uptimes   Uptimes
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

	// Chain holds the last accepted block (with the fee state after it), the processing blocks
	// with the views they leave (processing.go) and the preference, and answers chains.VM's
	// lookups.
	*processing.Chain[*chainBlock, chainView]

	// Intake takes txs in from the API and from peers (IssueTx, GossipTxs) and pushes those the
	// API took in to the peers (builder.go's issue verifies them).
	mempool.Intake[*txs.Tx]

	// side holds the pending txs, the state they leave (a new tx conflicts with it) and the lock
	// that orders issue against Accepted; its lock guards the fields below too. A pending tx may
	// spend the outputs of an earlier one, or name a subnet an earlier one creates.
	side mempool.Side[*txs.Tx, *effects, *overlay]
	// evictTimer wakes the VM when the next L1 validator runs out of balance (§4.7); closed
	// stops it for good.
	evictTimer *time.Timer
	closed     bool

	// nextChangeMemo is acceptedNextChange's, priceMemo issuePrice's.
	nextChangeMemo changeMemo
	priceMemo      priceMemo
}

var _ chains.VM = (*VM)(nil)

// New makes the P-Chain VM of chain c: on an empty key space it writes the genesis (its UTXOs,
// its validator and chain txs as committed, and the genesis block, in one batch of its own);
// otherwise it resumes at the stored last accepted block, after checking that the stored genesis
// block is this genesis's.
func New(_ context.Context, f Factory, c chains.Context) (*VM, error) {
	g, err := chainstate.Genesis(c, txs.ParseGenesis)
	if err != nil {
		return nil, fmt.Errorf("platform: %w", err)
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
		rules:   rules{networkID: c.NetworkID, avaxAssetID: avax, fees: fees, validatorFees: vfees, chains: c.Chains, signers: secp256k1fx.NewSigners(maxRememberedSigners)},
		hrp:     address.HRP(c.NetworkID),
		log:     c.Log,
		clock:   c.Clock,
		state:   newState(c.DB, c.SharedMemory, g.InitialSupply),
		genesis: txs.NewGenesisBlock(c.Genesis),
		validator: primaryValidator{
			nodeID: f.NodeID,
			signer: f.Signer,
			weight: f.Weight,
			start:  g.Timestamp,
			end:    g.Timestamp + uint64(stake/time.Second),
		},
		aliases:       f.Aliases,
		uptimes:       f.Uptimes,
		staking:       staking,
		initialSupply: g.InitialSupply,
		stakerTxIDs:   stakerTxIDs,
		rng:           rand.New(src),
	}
	vm.rules.primary = vm.validator
	vm.rules.staking = staking
	vm.accepted = newState(c.DB.Live(), c.SharedMemory, g.InitialSupply)
	vm.side.Init(newOverlay(vm.state))
	vm.Intake = mempool.NewIntake(txs.ParseTx, vm.issue, func() { vm.Signal() })
	if err := vm.loadOrInit(g); err != nil {
		return nil, err
	}
	vm.handler = vm.newHandler()
	vm.scheduleEviction()
	vm.log.Debug("P-Chain ready", "genesis", vm.genesis.ID().String(), "height", vm.Last().Height(),
		"validator", f.NodeID.String())
	return vm, nil
}

// loadOrInit reads the last accepted block, or writes the genesis when there is none.
func (vm *VM) loadOrInit(g *txs.Genesis) error {
	last, rest, found, err := vm.state.Resume(vm.genesis.ID())
	var fees feeState
	switch {
	case err != nil:
		return fmt.Errorf("platform: %w", err)
	case found:
		fees = parseFeeState(rest)
	default:
		last = vm.genesis
		// The fee state starts empty at the genesis time, so the first block refills the
		// capacity (§4.6).
		fees = feeState{time: g.Timestamp}
		err := chainstate.Commit(vm.state.DB(), func(b *storage.Batch) error {
			w := writer{b: b}
			for i := range g.UTXOs {
				if err := w.putUTXO(&g.UTXOs[i].UTXO); err != nil {
					return err
				}
			}
			for _, list := range [][]*txs.Tx{g.Validators, g.Chains} {
				for _, tx := range list {
					if err := w.putTx(tx); err != nil {
						return err
					}
				}
			}
			if err := w.putStakers(vm.state, []*effects{vm.genesisStakers(g)}); err != nil {
				return fmt.Errorf("stakers: %w", err)
			}
			return w.putBlock(vm.genesis, fees)
		})
		if err != nil {
			return fmt.Errorf("write genesis: %w", err)
		}
	}
	vm.Chain = processing.NewChain(vm.store(), &chainBlock{vm: vm, blk: last, fees: fees}, chainView(vm.accepted))
	return nil
}

// genesisStakers returns the genesis's validators as current stakers (§4.6): each from its
// tx's start to its end, its potential reward fixed on the supply the stakers before it (in the
// genesis's order) left, as the reference's genesis does; from then on they are stakers like
// any other, rewarded at their end (proposal.go).
func (vm *VM) genesisStakers(g *txs.Genesis) *effects {
	eff := &effects{}
	supply := g.InitialSupply
	for _, tx := range g.Validators {
		u, ok := tx.Unsigned().(*txs.AddPermissionlessValidatorTx)
		if !ok {
			continue // a pre-Durango AddValidatorTx, which this VM does not execute, stays a committed tx only
		}
		v := &u.Validator
		reward := vm.staking.Reward.potentialReward(stakingPeriod(v.Start, v.End), v.Weight, supply)
		supply += reward
		eff.supplyAdded += reward
		eff.stakers = append(eff.stakers, &staker{
			txID: tx.ID(), nodeID: v.NodeID, start: v.Start, end: v.End, weight: v.Weight, potentialReward: reward,
		})
	}
	return eff
}

// now returns the node's time in unix seconds.
func (vm *VM) now() uint64 { return uint64(max(vm.clock.Now().Unix(), 0)) }

// Accepted implements chains.VM: blk's batch is committed. The block becomes the last accepted
// one, and its txs, and any pending tx spending what they spent, leave the mempool.
func (vm *VM) Accepted(_ context.Context, cb chains.Block) error {
	b, ok := cb.(*chainBlock)
	if !ok {
		return fmt.Errorf("platform: accepted block of type %T", cb)
	}
	pending := vm.side.Accepted(b.Effs, func() { vm.MarkAccepted(b, func(v chainView) { v.(*blockView).rebase(vm.accepted) }) })
	if _, proposal := b.blk.(*txs.ProposalBlock); pending > 0 || proposal {
		vm.Signal() // a proposal block's option is due at once
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
	vm.side.Mu.Lock()
	defer vm.side.Mu.Unlock()
	vm.closed = true
	if vm.evictTimer != nil {
		vm.evictTimer.Stop()
		vm.evictTimer = nil
	}
	return nil
}

// store is how the Chain reads accepted blocks and parses blocks.
func (vm *VM) store() processing.Store[*chainBlock] {
	return processing.NewStore(vm.state.Block, vm.state.BlockIDAt, txs.ParseBlock,
		func(blk txs.Block) *chainBlock { return &chainBlock{vm: vm, blk: blk} })
}
