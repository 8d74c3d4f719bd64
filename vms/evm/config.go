package evm

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core"

	"github.com/cornice-node/cornice/config"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/evm/l1params"
)

// BlackholeAddr is the coinbase of every block when fee recipients are not
// allowed (l1-evm.md §3.9): the fees sent there are out of circulation.
var BlackholeAddr = common.HexToAddress("0x0100000000000000000000000000000000000000")

// Defaults of Config.
const (
	// DefaultRPCGasCap is the gas cap of eth_call and eth_estimateGas
	// (issue #4 §3: 50M).
	DefaultRPCGasCap = 50_000_000
	// DefaultMempoolAccountSlots is how many transactions one sender may
	// have in the mempool.
	DefaultMempoolAccountSlots = 4096
	// DefaultMempoolGlobalSlots is how many transactions the mempool holds.
	DefaultMempoolGlobalSlots = 65536
	// DefaultLogsBlockRangeCap is how many blocks one eth_getLogs or
	// eth_getFilterLogs query may span (issue #4 §3).
	DefaultLogsBlockRangeCap = 2048
	// DevGasTarget is the C-Chain's preferred gas target, in gas per second, with developer
	// methods on and no gas-target in its config.json (Config.GasTarget): so far above what
	// one node executes (about 400M gas a second of transfers on a quiet 2-core machine) that
	// ACP-176's capacity and price never hold a developer's load back, while the gas limit it
	// gives (10 s of it: 10G gas) still fits every client's integers. docs/decisions.md.
	DevGasTarget = 1_000_000_000
)

// Config holds an EVM chain's settings besides its genesis. The zero value
// is the C-Chain's: every field's zero means its default.
type Config struct {
	// Fees is the C-Chain's fee config before Fortuna (l1-evm.md §3.1;
	// from Fortuna on ACP-176 prices its blocks); nil means
	// l1params.DefaultFeeConfig(). An L1 ignores it: its fee config comes
	// from its genesis and its FeeManager precompile (L1Factory).
	Fees *l1params.FeeConfig
	// Upgrades is the C-Chain's upgrade schedule: ACP-176 prices its
	// blocks from FortunaTime on, and eth_getChainConfig shows its times.
	// nil means config.UpgradesFor the chain's network. An L1 ignores it:
	// its upgrades come from its genesis and upgrade file.
	Upgrades *config.Upgrades
	// GasTarget is the gas per second this node prefers as the C-Chain's ACP-176 target
	// (coreth's gas-target, l1-evm.md §8): the blocks it builds move the target excess toward
	// the smallest one whose target reaches it, by at most 2^15 a block. nil keeps the
	// parent's target, or, with DevMethods, prefers DevGasTarget. With DevMethods a block may
	// move the target excess any distance, so the preference holds from the next block on
	// (cfees.go). An L1 ignores it: its fees are its genesis's.
	GasTarget *uint64
	// Coinbase receives every C-Chain block's fees; zero means
	// BlackholeAddr. On an L1 it is the node's fee recipient, used when
	// the chain lets block producers choose (allowFeeRecipients, or the
	// RewardManager's allowFeeRecipients, l1-evm.md §3.9); otherwise the
	// chain's rules fix the coinbase.
	Coinbase common.Address
	// RPCGasCap caps the gas of eth_call and eth_estimateGas; zero means
	// DefaultRPCGasCap.
	RPCGasCap uint64
	// MempoolAccountSlots and MempoolGlobalSlots limit the mempool per
	// sender and overall; zero means the defaults above.
	MempoolAccountSlots int
	MempoolGlobalSlots  int
	// LogsBlockRangeCap is how many blocks one eth_getLogs or
	// eth_getFilterLogs query may span; a longer range is refused with
	// "exceed maximum block range". Zero means DefaultLogsBlockRangeCap;
	// a negative value means no cap.
	LogsBlockRangeCap int
	// BatchResponseMaxSize caps, in bytes, the responses of one JSON-RPC
	// batch; the calls past it are answered "response too large"
	// (go-ethereum's rule). Zero means DefaultBatchResponseMaxSize; a
	// negative value means no cap.
	BatchResponseMaxSize int
	// DevMethods serves the developer methods (anvil_*, hardhat_*, evm_*, issue #16; devapi.go)
	// and lets them mine on demand, edit the state and roll the chain back; off, they answer
	// "method not found".
	DevMethods bool
	// DevIDs numbers the snapshots of every chain of the node, so that one chain's snapshot ID is
	// unknown to another; nil means the chain's own numbering.
	DevIDs *DevIDs
	// Atomic names the Primary Network chains the C-Chain's atomic txs move AVAX to and from
	// (package atomic); nil on L1s, which have none. The VM needs the chain's shared memory too
	// (chains.Context.SharedMemory).
	Atomic *AtomicConfig
}

// AtomicConfig is the C-Chain's view of the Primary Network for its atomic txs.
type AtomicConfig struct {
	// AVAXAssetID is the only asset atomic txs move (the reference's rule from Banff on).
	AVAXAssetID ids.ID
	// XChainID is the X-Chain's ID; the P-Chain's is the all-zero ID.
	XChainID ids.ID
}

// withDefaults returns c with its zero fields filled in.
func (c Config) withDefaults() Config {
	if c.Fees == nil {
		f := l1params.DefaultFeeConfig()
		c.Fees = &f
	}
	if c.Coinbase == (common.Address{}) {
		c.Coinbase = BlackholeAddr
	}
	if c.RPCGasCap == 0 {
		c.RPCGasCap = DefaultRPCGasCap
	}
	if c.MempoolAccountSlots == 0 {
		c.MempoolAccountSlots = DefaultMempoolAccountSlots
	}
	if c.MempoolGlobalSlots == 0 {
		c.MempoolGlobalSlots = DefaultMempoolGlobalSlots
	}
	if c.LogsBlockRangeCap == 0 {
		c.LogsBlockRangeCap = DefaultLogsBlockRangeCap
	}
	return c
}

// validate reports every problem of c at once.
func (c Config) validate() error {
	var errs []error
	if err := c.Fees.Verify(); err != nil {
		errs = append(errs, fmt.Errorf("%w: %w", l1params.ErrInvalidFeeConfig, err))
	} else if !c.Fees.GasLimit.IsUint64() {
		errs = append(errs, fmt.Errorf("%w: gasLimit = %d does not fit 64 bits", l1params.ErrInvalidFeeConfig, c.Fees.GasLimit))
	}
	if c.MempoolAccountSlots < 0 || c.MempoolGlobalSlots < 0 {
		errs = append(errs, errors.New("negative mempool slots"))
	}
	return errors.Join(errs...)
}

// ParseGenesis decodes a genesis in go-ethereum's JSON format (the
// cChainGenesis string of a network's genesis) and makes its chain config
// one with every Ethereum fork through Cancun active from genesis, keeping
// only its chain ID: the fork fields of the JSON (and its Avalanche upgrade
// keys) are ignored, as issue #4 §1 asks. A genesis without a base fee gets
// minBaseFee, the base fee the first block has (l1-evm.md §3.6).
func ParseGenesis(b []byte, fees l1params.FeeConfig) (*core.Genesis, error) {
	var g core.Genesis
	if err := json.Unmarshal(b, &g); err != nil {
		return nil, fmt.Errorf("decode genesis: %w", err)
	}
	if g.Config == nil || g.Config.ChainID == nil || g.Config.ChainID.Sign() <= 0 {
		return nil, errNoChainID
	}
	if g.Number != 0 {
		return nil, errGenesisNumber
	}
	zero := uint64(0)
	g.Config = l1params.EthChainConfig(new(big.Int).Set(g.Config.ChainID), &zero, &zero)
	if g.BaseFee == nil {
		g.BaseFee = new(big.Int).Set(fees.MinBaseFee)
	}
	if g.Difficulty == nil {
		g.Difficulty = new(big.Int)
	}
	return &g, nil
}
