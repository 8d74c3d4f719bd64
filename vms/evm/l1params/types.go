package l1params

import (
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/common/math"
)

// Precompile addresses (l1-evm.md §5.0).
var (
	DeployerAllowListAddress = common.HexToAddress("0x0200000000000000000000000000000000000000")
	NativeMinterAddress      = common.HexToAddress("0x0200000000000000000000000000000000000001")
	TxAllowListAddress       = common.HexToAddress("0x0200000000000000000000000000000000000002")
	FeeManagerAddress        = common.HexToAddress("0x0200000000000000000000000000000000000003")
	RewardManagerAddress     = common.HexToAddress("0x0200000000000000000000000000000000000004")
	WarpAddress              = common.HexToAddress("0x0200000000000000000000000000000000000005")
)

// Precompile config keys, as they appear in the genesis, the upgrade file and the RPC results
// (l1-evm.md §4.2).
const (
	DeployerAllowListKey = "contractDeployerAllowListConfig"
	NativeMinterKey      = "contractNativeMinterConfig"
	TxAllowListKey       = "txAllowListConfig"
	FeeManagerKey        = "feeManagerConfig"
	RewardManagerKey     = "rewardManagerConfig"
	WarpKey              = "warpConfig"
)

// FeeConfig is an L1's fee config (l1-evm.md §3.1). Every field but TargetBlockRate is a big
// integer, printed as a JSON number.
type FeeConfig struct {
	GasLimit                 *big.Int `json:"gasLimit,omitempty"`
	TargetBlockRate          uint64   `json:"targetBlockRate,omitempty"`
	MinBaseFee               *big.Int `json:"minBaseFee,omitempty"`
	TargetGas                *big.Int `json:"targetGas,omitempty"`
	BaseFeeChangeDenominator *big.Int `json:"baseFeeChangeDenominator,omitempty"`
	MinBlockGasCost          *big.Int `json:"minBlockGasCost,omitempty"`
	MaxBlockGasCost          *big.Int `json:"maxBlockGasCost,omitempty"`
	BlockGasCostStep         *big.Int `json:"blockGasCostStep,omitempty"`
}

// NetworkUpgrades holds the network upgrade timestamps (unix seconds) of l1-evm.md §4.4; nil is
// unset.
type NetworkUpgrades struct {
	SubnetEVMTimestamp *uint64 `json:"subnetEVMTimestamp,omitempty"`
	DurangoTimestamp   *uint64 `json:"durangoTimestamp,omitempty"`
	EtnaTimestamp      *uint64 `json:"etnaTimestamp,omitempty"`
	FortunaTimestamp   *uint64 `json:"fortunaTimestamp,omitempty"`
	GraniteTimestamp   *uint64 `json:"graniteTimestamp,omitempty"`
	HeliconTimestamp   *uint64 `json:"heliconTimestamp,omitempty"`
}

// Upgrade is the part every precompile config has: when it takes effect and whether it disables
// the precompile (l1-evm.md §5.1).
type Upgrade struct {
	BlockTimestamp *uint64 `json:"blockTimestamp"`
	Disable        bool    `json:"disable,omitempty"`
}

// AllowListConfig is the allow-list part of four precompile configs (l1-evm.md §5.1).
type AllowListConfig struct {
	AdminAddresses   []common.Address `json:"adminAddresses,omitempty"`
	ManagerAddresses []common.Address `json:"managerAddresses,omitempty"`
	EnabledAddresses []common.Address `json:"enabledAddresses,omitempty"`
}

// DeployerAllowListConfig is contractDeployerAllowListConfig (l1-evm.md §5.2).
type DeployerAllowListConfig struct {
	AllowListConfig
	Upgrade
}

// TxAllowListConfig is txAllowListConfig (l1-evm.md §5.3).
type TxAllowListConfig struct {
	AllowListConfig
	Upgrade
}

// NativeMinterConfig is contractNativeMinterConfig (l1-evm.md §5.4); InitialMint amounts are
// printed as hex strings.
type NativeMinterConfig struct {
	AllowListConfig
	Upgrade
	InitialMint map[common.Address]*math.HexOrDecimal256 `json:"initialMint,omitempty"`
}

// FeeManagerConfig is feeManagerConfig (l1-evm.md §5.5).
type FeeManagerConfig struct {
	AllowListConfig
	Upgrade
	InitialFeeConfig *FeeConfig `json:"initialFeeConfig,omitempty"`
}

// InitialRewardConfig is the reward manager's initial setting (l1-evm.md §5.6).
type InitialRewardConfig struct {
	AllowFeeRecipients bool           `json:"allowFeeRecipients"`
	RewardAddress      common.Address `json:"rewardAddress"`
}

// RewardManagerConfig is rewardManagerConfig (l1-evm.md §5.6).
type RewardManagerConfig struct {
	AllowListConfig
	Upgrade
	InitialRewardConfig *InitialRewardConfig `json:"initialRewardConfig,omitempty"`
}

// WarpConfig is warpConfig (l1-evm.md §5.7): accepted and reported; messaging comes later.
type WarpConfig struct {
	Upgrade
	QuorumNumerator              uint64 `json:"quorumNumerator"`
	RequirePrimaryNetworkSigners bool   `json:"requirePrimaryNetworkSigners"`
}

// PrecompileConfig is one of the six configs above (a pointer to it).
type PrecompileConfig interface {
	// Key is the config key (DeployerAllowListKey, …).
	Key() string
	// Address is the precompile's address.
	Address() common.Address
	// Timestamp is BlockTimestamp; nil when unset.
	Timestamp() *uint64
	// IsDisabled reports whether this config disables the precompile.
	IsDisabled() bool
	// Verify checks the config against the chain config it belongs to (l1-evm.md §5), with
	// the reference's texts.
	Verify(c *ChainConfig) error
	// Equal reports whether other is the same kind of config with the same settings.
	Equal(other PrecompileConfig) bool
}

// StateUpgrade is one entry of the upgrade file's stateUpgrades (l1-evm.md §4.5).
type StateUpgrade struct {
	BlockTimestamp *uint64                                `json:"blockTimestamp"`
	Accounts       map[common.Address]StateUpgradeAccount `json:"accounts"`
}

// StateUpgradeAccount is what a state upgrade does to one account.
type StateUpgradeAccount struct {
	Code          hexutil.Bytes               `json:"code,omitempty"`
	Storage       map[common.Hash]common.Hash `json:"storage,omitempty"`
	BalanceChange *math.HexOrDecimal256       `json:"balanceChange,omitempty"`
}

// PrecompileUpgrade is one entry of precompileUpgrades: a JSON object with exactly one key, the
// config key.
type PrecompileUpgrade struct {
	Config PrecompileConfig
}

// UpgradeConfig is a chain's upgrade file, upgrade.json in its chain-config directory
// (l1-evm.md §4.5).
type UpgradeConfig struct {
	NetworkUpgradeOverrides *NetworkUpgrades    `json:"networkUpgradeOverrides,omitempty"`
	StateUpgrades           []StateUpgrade      `json:"stateUpgrades,omitempty"`
	PrecompileUpgrades      []PrecompileUpgrade `json:"precompileUpgrades,omitempty"`
}

// ChainConfig is an L1's chain config after the start-up pipeline of l1-evm.md §4.3: upgrade
// timestamps filled in from the network's defaults and overrides, the fee config defaulted.
type ChainConfig struct {
	ChainID            *big.Int
	FeeConfig          FeeConfig
	AllowFeeRecipients bool
	InitialMinDelayMS  *uint64
	NetworkUpgrades
	// EIP150Hash is the genesis config's eip150Hash, zero when absent; printed always
	// (reference/README.md: the spec includes it).
	EIP150Hash common.Hash
	// GenesisPrecompiles are the precompile configs given inline in the genesis config, by key.
	GenesisPrecompiles map[string]PrecompileConfig
	// Upgrades is the upgrade file; the zero value when there is none.
	Upgrades UpgradeConfig
}
