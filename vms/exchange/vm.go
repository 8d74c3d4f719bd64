package exchange

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
	"github.com/cornice-node/cornice/vms/address"
	"github.com/cornice-node/cornice/vms/exchange/txs"
	"github.com/cornice-node/cornice/vms/internal/chainstate"
	"github.com/cornice-node/cornice/vms/internal/mempool"
	"github.com/cornice-node/cornice/vms/internal/processing"
)

// feeAssetAlias is the alias of the genesis asset that pays the fees: AVAX (§6.3, §6.4).
const feeAssetAlias = "AVAX"

// chainAlias is the X-Chain's primary alias, which its API addresses start with (§2.4).
const chainAlias = "X"

// Factory makes X-Chain VMs. Its fields are the network's X-Chain parameters; the genesis (an
// encoded Genesis, §6.4) comes with the chains.Context. The zero Factory charges no fees and
// puts the genesis block at the Unix epoch.
type Factory struct {
	// CortinaTime is the network's Cortina upgrade time: the genesis block's timestamp (§6.1).
	// The node passes config.UpgradesFor(network).CortinaTime.
	CortinaTime time.Time
	// StopVertexID is the network's configured X-Chain stop vertex (the genesis block's
	// parent). Zero means none is configured, as on local and custom networks: the stop vertex
	// built on an empty DAG (EmptyStopVertexID of the chain).
	StopVertexID ids.ID
	// TxFee is the fee of a BaseTx, in nAVAX (§6.3); zero charges none.
	TxFee uint64
	// CreateAssetTxFee is the fee of a CreateAssetTx, in nAVAX (§6.3); zero charges none.
	CreateAssetTxFee uint64
}

var _ chains.Factory = Factory{}

// stopVertex returns the stop vertex of chain chainID: the configured one, else the one built on
// an empty DAG.
func (f Factory) stopVertex(chainID ids.ID) ids.ID {
	if f.StopVertexID != ids.Empty {
		return f.StopVertexID
	}
	return txs.EmptyStopVertexID(chainID)
}

// New implements chains.Factory.
func (f Factory) New(ctx context.Context, c chains.Context) (chains.VM, error) {
	return New(ctx, f, c)
}

// VM is the X-Chain: assets, UTXOs, BaseTx and CreateAssetTx, and the avm API. Its chains.VM
// methods other than WorkReady, Handlers and Close run on the pipeline goroutine; the API runs
// concurrently with them.
type VM struct {
	rules   rules
	hrp     string
	log     *slog.Logger
	clock   clock.Clock
	state   *state
	genesis *txs.StandardBlock
	// assetAliases maps the genesis assets' aliases to their IDs, and assetNames the reverse.
	assetAliases map[string]ids.ID
	assetNames   map[ids.ID]string
	handler      http.Handler
	// Chain holds the last accepted block, the processing blocks with the views they leave
	// (processing.go) and the preference, and answers chains.VM's lookups.
	*processing.Chain[*Block, chainView]

	// Intake takes txs in from the API and from peers (IssueTx, GossipTxs) and pushes those the
	// API took in to the peers (builder.go's issue verifies them).
	mempool.Intake[*txs.Tx]

	// side holds the pending txs, the UTXOs they leave (a new tx conflicts with them) and the
	// lock that orders issue against Accepted.
	side mempool.Side[*txs.Tx, *effects, *overlay]
}

var _ chains.VM = (*VM)(nil)

// New makes the VM of chain c: on an empty key space it writes the genesis (the genesis assets'
// txs and UTXOs and the genesis block, in one batch of its own); otherwise it resumes at the
// stored last accepted block, after checking that the stored genesis block is this chain's.
func New(_ context.Context, f Factory, c chains.Context) (*VM, error) {
	g, err := chainstate.Genesis(c, txs.ParseGenesis)
	if err != nil {
		return nil, fmt.Errorf("exchange: %w", err)
	}
	vm := &VM{
		rules: rules{
			networkID:        c.NetworkID,
			chainID:          c.Chain.ID,
			subnetID:         c.Chain.SubnetID,
			chains:           c.Chains,
			txFee:            f.TxFee,
			createAssetTxFee: f.CreateAssetTxFee,
		},
		hrp:          address.HRP(c.NetworkID),
		log:          c.Log,
		clock:        c.Clock,
		state:        newState(c.DB, c.SharedMemory),
		genesis:      txs.NewGenesisBlock(f.stopVertex(c.Chain.ID), uint64(f.CortinaTime.Unix())),
		assetAliases: make(map[string]ids.ID),
		assetNames:   make(map[ids.ID]string),
	}
	vm.side.Init(newOverlay(vm.state))
	vm.Intake = mempool.NewIntake(txs.ParseTx, vm.issue, func() { vm.Signal() })
	assets := make([]*txs.Tx, len(g.Txs))
	for i := range g.Txs {
		a := &g.Txs[i]
		tx, err := a.Tx()
		if err != nil {
			return nil, fmt.Errorf("genesis asset %q: %w", a.Alias, err)
		}
		assets[i] = tx
		if a.Alias != "" {
			vm.assetAliases[a.Alias] = tx.ID()
			vm.assetNames[tx.ID()] = a.Alias
		}
	}
	feeAsset, ok := vm.assetAliases[feeAssetAlias]
	if !ok {
		return nil, fmt.Errorf("exchange: the genesis has no asset aliased %q to pay fees with", feeAssetAlias)
	}
	vm.rules.feeAssetID = feeAsset
	if err := vm.loadOrInit(assets); err != nil {
		return nil, err
	}
	vm.handler = vm.newHandler()
	vm.log.Debug("X-Chain ready", "genesis", vm.genesis.ID().String(), "height", vm.Last().Height(),
		"feeAsset", feeAsset.String())
	return vm, nil
}

// loadOrInit reads the last accepted block, or writes the genesis when there is none.
func (vm *VM) loadOrInit(assets []*txs.Tx) error {
	last, _, found, err := vm.state.Resume(vm.genesis.ID())
	switch {
	case err != nil:
		return fmt.Errorf("exchange: %w", err)
	case !found:
		last = vm.genesis
		err := chainstate.Commit(vm.state.DB(), func(b *storage.Batch) error {
			w := writer{b: b}
			for _, tx := range assets {
				if err := w.putTx(tx); err != nil {
					return err
				}
				utxos := tx.UTXOs()
				for i := range utxos {
					if err := w.putUTXO(&utxos[i]); err != nil {
						return err
					}
				}
			}
			return w.putBlock(vm.genesis)
		})
		if err != nil {
			return fmt.Errorf("write genesis: %w", err)
		}
	}
	vm.Chain = processing.NewChain(vm.store(), &Block{vm: vm, blk: last}, chainView(vm.state))
	return nil
}

// now returns the node's time in unix seconds.
func (vm *VM) now() uint64 { return uint64(vm.clock.Now().Unix()) }

// Accepted implements chains.VM: blk's batch is committed. The block becomes the last accepted
// one, and its txs, and any pending tx spending what they spent, leave the mempool.
func (vm *VM) Accepted(_ context.Context, cb chains.Block) error {
	b, ok := cb.(*Block)
	if !ok {
		return fmt.Errorf("exchange: accepted block of type %T", cb)
	}
	if vm.side.Accepted(b.Effs, func() { vm.MarkAccepted(b, func(v chainView) { v.(*blockView).rebase(vm.state) }) }) > 0 {
		vm.Signal()
	}
	return nil
}

// Handlers implements chains.VM: the avm API at the chain's base path.
func (vm *VM) Handlers(context.Context) (map[string]http.Handler, error) {
	return map[string]http.Handler{"": vm.handler}, nil
}

// Close implements chains.VM. The VM holds no resources of its own.
func (vm *VM) Close() error { return nil }

// store is how the Chain reads accepted blocks and parses blocks.
func (vm *VM) store() processing.Store[*Block] {
	return processing.NewStore(vm.state.Block, vm.state.BlockIDAt, txs.ParseBlock,
		func(blk *txs.StandardBlock) *Block { return &Block{vm: vm, blk: blk} })
}
