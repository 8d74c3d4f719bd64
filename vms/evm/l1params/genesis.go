package l1params

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/core"
)

// Genesis is a parsed and verified L1 genesis.
type Genesis struct {
	// Config is the chain config after the start-up pipeline (l1-evm.md §4.3).
	Config *ChainConfig
	// Eth holds the genesis block's fields as the genesis file gives them (alloc, gasLimit,
	// timestamp, difficulty, extraData, coinbase, baseFeePerGas, mixHash, parentHash, nonce,
	// number, …); Eth.Config is Config.EthConfig(). Nothing is defaulted here: building the
	// genesis block (precompile activations, then alloc; baseFeePerGas defaulting to
	// minBaseFee; l1-evm.md §4.1) is package evm's job.
	Eth *core.Genesis
}

// ParseGenesis parses a Subnet-EVM genesis and the chain's upgrade file (nil or empty when
// there is none) for a chain on network networkID, running the start-up pipeline of
// l1-evm.md §4.3:
//
//  1. decode the genesis; without config, the default chain config (chain ID 43214);
//  2. an empty feeConfig becomes the default fee config;
//  3. upgrade timestamps that are nil or 0 become the network's defaults;
//  4. the upgrade file is decoded and its networkUpgradeOverrides applied;
//  5. the genesis is verified: the gas limit check, then ChainConfig.Verify;
//  6. the Ethereum fork times follow (ChainConfig.EthConfig, ShanghaiTime, CancunTime).
//
// alloc, gasLimit and difficulty are required; numbers may be hex or decimal (§4.1).
func ParseGenesis(genesisJSON, upgradeJSON []byte, networkID uint32) (*Genesis, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(genesisJSON, &raw); err != nil {
		return nil, fmt.Errorf("parse genesis: %w", err)
	}
	cfgJSON, hasConfig := raw["config"]
	// The config is ours to decode: go-ethereum's ChainConfig is not Subnet-EVM's.
	delete(raw, "config")
	rest, err := json.Marshal(raw)
	if err != nil {
		return nil, fmt.Errorf("parse genesis: %w", err)
	}
	eth := new(core.Genesis)
	if err := json.Unmarshal(rest, eth); err != nil {
		return nil, fmt.Errorf("parse genesis: %w", err)
	}

	var cfg *ChainConfig
	if !hasConfig || bytes.Equal(bytes.TrimSpace(cfgJSON), []byte("null")) {
		cfg = DefaultChainConfig()
	} else if cfg, err = decodeChainConfig(cfgJSON, false); err != nil {
		return nil, fmt.Errorf("parse genesis config: %w", err)
	}
	if cfg.FeeConfig.IsEmpty() {
		cfg.FeeConfig = DefaultFeeConfig()
	}
	cfg.NetworkUpgrades.SetDefaults(networkID)

	up, err := ParseUpgradeConfig(upgradeJSON)
	if err != nil {
		return nil, err
	}
	cfg.Upgrades = *up
	cfg.NetworkUpgrades.Override(up.NetworkUpgradeOverrides)

	g := &Genesis{Config: cfg, Eth: eth}
	if err := g.Verify(networkID); err != nil {
		return nil, err
	}
	eth.Config = cfg.EthConfig()
	return g, nil
}

// Verify checks that the fee config's gas limit is the genesis gas limit ("gas limit in fee
// config (X) does not match gas limit in header (Y)", l1-evm.md §3.3), then the chain config.
func (g *Genesis) Verify(networkID uint32) error {
	if gl := g.Config.FeeConfig.GasLimit; gl != nil {
		header := new(big.Int).SetUint64(g.Eth.GasLimit)
		if gl.Cmp(header) != 0 {
			return &gasLimitError{config: gl, header: header}
		}
	}
	return g.Config.Verify(networkID)
}
