package l1params

import (
	"encoding/json"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
)

// GenesisSpec describes a Subnet-EVM genesis for a program to write, as tools and load
// generators that create L1s need: ParseGenesis reads back what JSON writes.
type GenesisSpec struct {
	// ChainID is the EVM chain ID.
	ChainID uint64
	// FeeConfig is the genesis fee config; the genesis gas limit is its GasLimit (l1-evm.md
	// §3.3 rule 4).
	FeeConfig FeeConfig
	// Precompiles are written inline in the config, each under its key (l1-evm.md §4.2).
	Precompiles []PrecompileConfig
	// Alloc funds each address with its balance in wei.
	Alloc map[common.Address]*big.Int
	// Timestamp is the genesis block's time, unix seconds.
	Timestamp uint64
}

// JSON returns the genesis file: config (chainId, feeConfig, the precompile configs), alloc,
// gasLimit, difficulty 0 and the zero values of the other block fields.
func (s GenesisSpec) JSON() ([]byte, error) {
	if err := s.FeeConfig.Verify(); err != nil {
		return nil, fmt.Errorf("genesis spec: %w", err)
	}
	if !s.FeeConfig.GasLimit.IsUint64() {
		return nil, fmt.Errorf("genesis spec: %w: gasLimit = %s does not fit 64 bits", ErrInvalidFeeConfig, s.FeeConfig.GasLimit)
	}
	config := map[string]any{"chainId": s.ChainID, "feeConfig": s.FeeConfig}
	for _, p := range s.Precompiles {
		config[p.Key()] = p
	}
	type account struct {
		Balance *hexutil.Big `json:"balance"`
	}
	alloc := make(map[common.Address]account, len(s.Alloc))
	for addr, balance := range s.Alloc {
		alloc[addr] = account{Balance: (*hexutil.Big)(balance)}
	}
	return json.Marshal(struct {
		Config     map[string]any             `json:"config"`
		Alloc      map[common.Address]account `json:"alloc"`
		Timestamp  hexutil.Uint64             `json:"timestamp"`
		GasLimit   hexutil.Uint64             `json:"gasLimit"`
		Difficulty hexutil.Uint64             `json:"difficulty"`
		ExtraData  hexutil.Bytes              `json:"extraData"`
	}{
		Config:    config,
		Alloc:     alloc,
		Timestamp: hexutil.Uint64(s.Timestamp),
		GasLimit:  hexutil.Uint64(s.FeeConfig.GasLimit.Uint64()),
		ExtraData: hexutil.Bytes{},
	})
}
