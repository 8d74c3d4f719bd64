package l1params

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/params"
)

const (
	// DefaultChainID is the chain ID of the default chain config, used when a genesis has no
	// config (l1-evm.md §4.1).
	DefaultChainID = 43214
	// MaxInitialMinDelayMS is the largest initialMinDelayMS: the delay of ACP-226's initial
	// excess, 7,970,124, which is 2000 ms (l1-evm.md §3.10).
	MaxInitialMinDelayMS uint64 = 2000
)

// DefaultChainConfig returns the chain config of a genesis without config (l1-evm.md §4.1):
// chain ID 43214, the default fee config, mainnet's upgrade timestamps.
func DefaultChainConfig() *ChainConfig {
	return &ChainConfig{
		ChainID:         big.NewInt(DefaultChainID),
		FeeConfig:       DefaultFeeConfig(),
		NetworkUpgrades: DefaultNetworkUpgrades(MainnetID),
	}
}

// Verify runs the chain config checks of the start-up pipeline (l1-evm.md §4.3 step 5) for a
// chain on the network networkID, in the reference's order and with its prefixes: the fee
// config ("invalid fee config: …"), the genesis precompile configs and the precompile upgrades
// ("invalid precompile upgrades: …"), the state upgrades ("invalid state upgrades: …"), the
// network upgrades against the network's defaults ("invalid network upgrades: …"),
// initialMinDelayMS, then the order of the network upgrades.
func (c *ChainConfig) Verify(networkID uint32) error {
	if err := c.FeeConfig.Verify(); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidFeeConfig, err)
	}
	if err := c.verifyPrecompileUpgrades(); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidPrecompileUpgrades, err)
	}
	if err := verifyStateUpgrades(c.Upgrades.StateUpgrades); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidStateUpgrades, err)
	}
	if err := c.NetworkUpgrades.VerifyWithDefaults(networkID); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidNetworkUpgrades, err)
	}
	if d := c.InitialMinDelayMS; d != nil && *d > MaxInitialMinDelayMS {
		return fmt.Errorf("%w: %d exceeds %d", ErrInitialMinDelayTooLarge, *d, MaxInitialMinDelayMS)
	}
	return c.NetworkUpgrades.CheckForkOrder()
}

// ShanghaiTime is Durango's timestamp when it is scheduled, nil otherwise (l1-evm.md §4.3
// step 6).
func (c *ChainConfig) ShanghaiTime() *uint64 { return scheduled(c.DurangoTimestamp) }

// CancunTime is Etna's timestamp when it is scheduled, nil otherwise.
func (c *ChainConfig) CancunTime() *uint64 { return scheduled(c.EtnaTimestamp) }

func scheduled(ts *uint64) *uint64 {
	if ts == nil || *ts >= UnscheduledActivation {
		return nil
	}
	return ptr(*ts)
}

// EthConfig returns go-ethereum's chain config for running the EVM of this chain: every block
// fork through London at block 0, Shanghai at Durango, Cancun at Etna, nothing later
// (l1-evm.md §4.3 step 6, §7.5). A nil chain ID becomes 0. The result is the caller's.
func (c *ChainConfig) EthConfig() *params.ChainConfig {
	id := new(big.Int)
	if c.ChainID != nil {
		id.Set(c.ChainID)
	}
	return EthChainConfig(id, c.ShanghaiTime(), c.CancunTime())
}

// EthChainConfig returns the go-ethereum chain config of an EVM chain with chain ID id (kept by
// the result): every block fork from Homestead through London at block 0, Shanghai and Cancun at
// the given times (nil: never), Prague and later off. It is the EVM's config only; the chain's own
// rules (fees, header) are package evm's. The C-Chain passes 0 for both times.
func EthChainConfig(id *big.Int, shanghai, cancun *uint64) *params.ChainConfig {
	b0 := func() *big.Int { return new(big.Int) }
	return &params.ChainConfig{
		ChainID:                 id,
		HomesteadBlock:          b0(),
		EIP150Block:             b0(),
		EIP155Block:             b0(),
		EIP158Block:             b0(),
		ByzantiumBlock:          b0(),
		ConstantinopleBlock:     b0(),
		PetersburgBlock:         b0(),
		IstanbulBlock:           b0(),
		MuirGlacierBlock:        b0(),
		BerlinBlock:             b0(),
		LondonBlock:             b0(),
		TerminalTotalDifficulty: b0(),
		ShanghaiTime:            shanghai,
		CancunTime:              cancun,
		BlobScheduleConfig:      &params.BlobScheduleConfig{Cancun: params.DefaultCancunBlobConfig},
	}
}

// BlockForkKeys are the Ethereum block forks the pipeline sets to 0 (l1-evm.md §4.3 step 6),
// as the C-Chain has them too.
var BlockForkKeys = [...]string{
	"homesteadBlock", "eip150Block", "eip155Block", "eip158Block", "byzantiumBlock",
	"constantinopleBlock", "petersburgBlock", "istanbulBlock", "muirGlacierBlock", "berlinBlock",
	"londonBlock",
}

// MarshalJSON renders eth_getChainConfig's result (l1-evm.md §1.3, §4.6): the Ethereum keys,
// eip150Hash, the chain's own keys and the genesis precompile configs, sorted by key, then
// "upgrades" last ({} when there is no upgrade file).
func (c *ChainConfig) MarshalJSON() ([]byte, error) {
	m := make(map[string]json.RawMessage, 32)
	put := func(key string, v any) error {
		b, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("encode %s: %w", key, err)
		}
		m[key] = b
		return nil
	}
	if err := put("chainId", c.ChainID); err != nil {
		return nil, err
	}
	for _, k := range BlockForkKeys {
		m[k] = json.RawMessage("0")
	}
	if err := put("eip150Hash", c.EIP150Hash); err != nil {
		return nil, err
	}
	for k, v := range map[string]*uint64{
		"shanghaiTime":       c.ShanghaiTime(),
		"cancunTime":         c.CancunTime(),
		"subnetEVMTimestamp": c.SubnetEVMTimestamp,
		"durangoTimestamp":   c.DurangoTimestamp,
		"etnaTimestamp":      c.EtnaTimestamp,
		"fortunaTimestamp":   c.FortunaTimestamp,
		"graniteTimestamp":   c.GraniteTimestamp,
		"heliconTimestamp":   c.HeliconTimestamp,
	} {
		if v != nil {
			m[k] = json.RawMessage(fmt.Sprint(*v))
		}
	}
	if err := put("feeConfig", c.FeeConfig); err != nil {
		return nil, err
	}
	if c.AllowFeeRecipients {
		m["allowFeeRecipients"] = json.RawMessage("true")
	}
	if d := c.InitialMinDelayMS; d != nil && *d != 0 {
		m["initialMinDelayMS"] = json.RawMessage(fmt.Sprint(*d))
	}
	for key, p := range c.GenesisPrecompiles {
		if err := put(key, p); err != nil {
			return nil, err
		}
	}
	root, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	up, err := json.Marshal(c.Upgrades)
	if err != nil {
		return nil, fmt.Errorf("encode upgrades: %w", err)
	}
	var buf bytes.Buffer
	buf.Grow(len(root) + len(up) + 13)
	buf.Write(root[:len(root)-1])
	if len(root) > 2 {
		buf.WriteByte(',')
	}
	buf.WriteString(`"upgrades":`)
	buf.Write(up)
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// UnmarshalJSON decodes what MarshalJSON writes: the genesis config keys, the precompile
// configs at the root and "upgrades". Ethereum keys other than chainId and eip150Hash are
// ignored: they are derived.
func (c *ChainConfig) UnmarshalJSON(b []byte) error {
	cfg, err := decodeChainConfig(b, true)
	if err != nil {
		return err
	}
	*c = *cfg
	return nil
}

// chainConfigFields are the keys of a genesis config that are not precompile configs.
type chainConfigFields struct {
	ChainID            *big.Int    `json:"chainId"`
	EIP150Hash         common.Hash `json:"eip150Hash"`
	FeeConfig          FeeConfig   `json:"feeConfig"`
	AllowFeeRecipients bool        `json:"allowFeeRecipients"`
	InitialMinDelayMS  *uint64     `json:"initialMinDelayMS"`
	NetworkUpgrades
}

// decodeChainConfig decodes a chain config object. Genesis configs are decoded without
// "upgrades": the reference ignores that key there, the upgrade file is separate (§4.2).
func decodeChainConfig(b []byte, withUpgrades bool) (*ChainConfig, error) {
	var f chainConfigFields
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, err
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, err
	}
	c := &ChainConfig{
		ChainID:            f.ChainID,
		FeeConfig:          f.FeeConfig,
		AllowFeeRecipients: f.AllowFeeRecipients,
		InitialMinDelayMS:  f.InitialMinDelayMS,
		NetworkUpgrades:    f.NetworkUpgrades,
		EIP150Hash:         f.EIP150Hash,
	}
	for _, m := range moduleTable {
		v, ok := raw[m.Key]
		if !ok {
			continue
		}
		p, err := m.Decode(v)
		if err != nil {
			return nil, fmt.Errorf("decode %s: %w", m.Key, err)
		}
		if c.GenesisPrecompiles == nil {
			c.GenesisPrecompiles = make(map[string]PrecompileConfig)
		}
		c.GenesisPrecompiles[m.Key] = p
	}
	if v, ok := raw["upgrades"]; ok && withUpgrades {
		u, err := ParseUpgradeConfig(v)
		if err != nil {
			return nil, err
		}
		c.Upgrades = *u
	}
	return c, nil
}
