package evm

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/rawdb"
	"github.com/ethereum/go-ethereum/core/state"
	"github.com/ethereum/go-ethereum/core/tracing"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/params"
	"github.com/ethereum/go-ethereum/trie"
	"github.com/holiman/uint256"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/vms/evm/l1params"
	"github.com/cornice-node/cornice/vms/evm/precompile"
)

// l1ChainConfigKey holds, in the VM's key space, the JSON of the L1 chain
// config (l1params.ChainConfig, upgrades included) the chain last started
// with, against which a changed upgrade file is checked at the next start.
// go-ethereum's rawdb keys are one-letter prefixes or 32-byte hashes and
// never this.
var l1ChainConfigKey = []byte("cornice-l1-chain-config")

// L1Factory makes the VMs of L1 EVM chains (Subnet-EVM's VM): each
// chains.Context brings the chain's Subnet-EVM genesis and its upgrade file
// (l1-evm.md §4). Its Config applies to every chain it makes; Config.Fees
// is not used (an L1's fee config is its genesis's) and Config.Coinbase is
// the node's fee recipient.
type L1Factory struct {
	Config Config
}

var _ chains.Factory = L1Factory{}

// New implements chains.Factory.
func (f L1Factory) New(ctx context.Context, c chains.Context) (chains.VM, error) {
	return NewL1(ctx, f.Config, c)
}

// NewL1 makes the VM of the L1 EVM chain c: its genesis is parsed with
// l1params.ParseGenesis (c.Genesis, c.Upgrade, c.NetworkID), and its
// config.json (c.Config: feeRecipient, rpc-gas-cap and
// api-max-blocks-per-request, with Subnet-EVM's meanings) overrides cfg. On an empty key
// space it writes the genesis block (precompile activations, then the
// alloc, l1-evm.md §4.1) and the chain config in one batch of its own.
// Otherwise it checks the chain config against the one stored at the
// previous start (l1params.CheckCompatible at the head's time), refusing
// to start on an incompatible change, and resumes at the stored head.
func NewL1(_ context.Context, cfg Config, c chains.Context) (*VM, error) {
	file, err := readChainFile(c, l1FileKeys)
	if err != nil {
		return nil, err
	}
	cfg = file.apply(cfg).withDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	g, err := l1params.ParseGenesis(c.Genesis, c.Upgrade, c.NetworkID)
	if err != nil {
		return nil, err
	}
	if g.Eth.Number != 0 {
		return nil, errGenesisNumber
	}
	if g.Config.ChainID == nil || g.Config.ChainID.Sign() <= 0 {
		return nil, errNoChainID
	}
	return newVM(cfg, c, g.Eth.Config, g.Config, func(vm *VM) error { return vm.loadOrInitL1(g) })
}

// loadOrInitL1 is loadOrInit for an L1 genesis g.
func (vm *VM) loadOrInitL1(g *l1params.Genesis) error {
	cfgJSON, err := json.Marshal(g.Config)
	if err != nil {
		return fmt.Errorf("encode chain config: %w", err)
	}
	headHash := rawdb.ReadHeadBlockHash(vm.db)
	if headHash == (common.Hash{}) {
		blk, st, err := vm.l1Genesis(g)
		if err != nil {
			return err
		}
		if err := vm.writeBatch(func() error { return vm.writeL1Genesis(blk, st, cfgJSON) }); err != nil {
			return fmt.Errorf("write genesis: %w", err)
		}
		vm.genesis = blk
		vm.setHead(blk)
		return nil
	}
	head, err := vm.loadHead(headHash)
	if err != nil {
		return err
	}
	stored, err := vm.kv.Get(l1ChainConfigKey)
	if err != nil {
		return fmt.Errorf("evm: read stored chain config: %w", err)
	}
	var old l1params.ChainConfig
	if err := json.Unmarshal(stored, &old); err != nil {
		return fmt.Errorf("evm: decode stored chain config: %w", err)
	}
	// Upgrades already in force at the head cannot change (l1-evm.md
	// §4.4, §4.5); this also covers every fork the genesis block depends on.
	if err := l1params.CheckCompatible(&old, g.Config, head.Time()); err != nil {
		return fmt.Errorf("evm: incompatible chain config: %w", err)
	}
	want, _, err := vm.l1Genesis(g)
	if err != nil {
		return err
	}
	if stored := rawdb.ReadCanonicalHash(vm.db, 0); stored != want.Hash() {
		return fmt.Errorf("evm: stored genesis %s is not this chain's %s", stored, want.Hash())
	}
	vm.genesis = rawdb.ReadBlock(vm.db, want.Hash(), 0)
	if vm.genesis == nil {
		return fmt.Errorf("evm: genesis %s missing", want.Hash())
	}
	vm.setHead(head)
	if !bytes.Equal(stored, cfgJSON) {
		// A compatible change (future upgrades): the next start checks
		// against this one.
		if err := vm.writeBatch(func() error { return vm.kv.Put(l1ChainConfigKey, cfgJSON) }); err != nil {
			return fmt.Errorf("store chain config: %w", err)
		}
	}
	return nil
}

// writeBatch runs write with a batch of the VM's own as the sink of every
// database write, then commits the batch.
func (vm *VM) writeBatch(write func() error) error {
	b := vm.kv.view.NewBatch()
	defer b.Close()
	vm.kv.setSink(b)
	err := write()
	vm.kv.clearSink()
	if err != nil {
		return err
	}
	return b.Commit()
}

// loadHead reads the stored head block, whose hash is headHash.
func (vm *VM) loadHead(headHash common.Hash) (*types.Block, error) {
	n, ok := rawdb.ReadHeaderNumber(vm.db, headHash)
	if !ok {
		return nil, fmt.Errorf("evm: head block %s has no number", headHash)
	}
	head := rawdb.ReadBlock(vm.db, headHash, n)
	if head == nil {
		return nil, fmt.Errorf("evm: head block %s missing", headHash)
	}
	return head, nil
}

// l1Genesis builds the genesis block of g and its state, uncommitted, as
// Subnet-EVM does (l1-evm.md §4.1): the precompile activations in force at
// the genesis time first, then the alloc, which overrides them (balance,
// code, nonce and storage are set, not added). The base fee defaults to
// minBaseFee; the withdrawals hash is there from Shanghai (Durango) on and
// the Cancun fields from Cancun (Etna) on. Empty accounts are kept, as in
// go-ethereum's and Subnet-EVM's genesis.
func (vm *VM) l1Genesis(g *l1params.Genesis) (*types.Block, *state.StateDB, error) {
	st, err := state.New(types.EmptyRootHash, vm.statedb)
	if err != nil {
		return nil, nil, fmt.Errorf("genesis state: %w", err)
	}
	eth, cfg := g.Eth, g.Config
	for _, p := range cfg.PrecompileActivations(nil, eth.Timestamp) {
		if err := precompile.Activate(st, p, 0, cfg.FeeConfig, cfg.AllowFeeRecipients); err != nil {
			return nil, nil, fmt.Errorf("genesis: %w", err)
		}
	}
	for addr, acc := range eth.Alloc {
		balance := new(uint256.Int)
		if acc.Balance != nil {
			var overflow bool
			if balance, overflow = uint256.FromBig(acc.Balance); overflow || acc.Balance.Sign() < 0 {
				return nil, nil, fmt.Errorf("genesis: balance of %s does not fit 256 bits", addr.Hex())
			}
		}
		st.SetBalance(addr, balance, tracing.BalanceIncreaseGenesisBalance)
		st.SetCode(addr, acc.Code, tracing.CodeChangeGenesis)
		st.SetNonce(addr, acc.Nonce, tracing.NonceChangeGenesis)
		for k, v := range acc.Storage {
			st.SetState(addr, k, v)
		}
	}
	h := &types.Header{
		Number:     new(big.Int),
		Nonce:      types.EncodeNonce(eth.Nonce),
		Time:       eth.Timestamp,
		ParentHash: eth.ParentHash,
		Extra:      eth.ExtraData,
		GasLimit:   eth.GasLimit,
		GasUsed:    eth.GasUsed,
		BaseFee:    eth.BaseFee,
		Difficulty: eth.Difficulty,
		MixDigest:  eth.Mixhash,
		Coinbase:   eth.Coinbase,
		Root:       st.IntermediateRoot(params.Rules{}),
	}
	if h.Difficulty == nil {
		h.Difficulty = new(big.Int).Set(params.GenesisDifficulty)
	}
	if h.BaseFee == nil {
		h.BaseFee = new(big.Int).Set(cfg.FeeConfig.MinBaseFee)
	}
	body := &types.Body{}
	if vm.chainCfg.IsShanghai(h.Number, h.Time) {
		body.Withdrawals = []*types.Withdrawal{}
	}
	if vm.chainCfg.IsCancun(h.Number, h.Time) {
		h.ParentBeaconRoot = new(common.Hash)
		h.ExcessBlobGas, h.BlobGasUsed = eth.ExcessBlobGas, eth.BlobGasUsed
		if h.ExcessBlobGas == nil {
			h.ExcessBlobGas = new(uint64)
		}
		if h.BlobGasUsed == nil {
			h.BlobGasUsed = new(uint64)
		}
	}
	return types.NewBlock(h, body, nil, trie.NewStackTrie(nil)), st, nil
}

// writeL1Genesis writes the genesis block blk, its state st and the chain
// config's JSON through the sink.
func (vm *VM) writeL1Genesis(blk *types.Block, st *state.StateDB, cfgJSON []byte) error {
	root, err := st.Commit(params.Rules{}, 0)
	if err != nil {
		return fmt.Errorf("commit genesis state: %w", err)
	}
	if root != blk.Root() {
		return headerError("genesis state root", blk.Root(), root)
	}
	if err := vm.triedb.Commit(root, false); err != nil {
		return fmt.Errorf("commit genesis trie: %w", err)
	}
	vm.triedb.WritePreimages() // a no-op unless developer methods are on
	hash := blk.Hash()
	eb := vm.db.NewBatch()
	rawdb.WriteBlock(eb, blk)
	rawdb.WriteReceipts(eb, hash, 0, nil)
	rawdb.WriteCanonicalHash(eb, hash, 0)
	rawdb.WriteHeadBlockHash(eb, hash)
	rawdb.WriteHeadFastBlockHash(eb, hash)
	rawdb.WriteHeadHeaderHash(eb, hash)
	rawdb.WriteChainConfig(eb, hash, vm.chainCfg)
	if err := eb.Put(l1ChainConfigKey, cfgJSON); err != nil {
		return err
	}
	return eb.Write()
}
