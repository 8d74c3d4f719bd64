package evm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"github.com/ethereum/go-ethereum/common"

	"github.com/cornice-node/cornice/chains"
)

// The keys of a chain's config.json (<chain-config-dir>/<blockchainID>/config.json,
// chains.Context.Config) that this node supports, with the reference's names and meanings:
// Subnet-EVM's (SE/plugin/evm/config) on an L1, coreth's (CO/plugin/evm/config) on the
// C-Chain. Other keys are ignored with a warning.
const (
	// chainFileFeeRecipient is the coinbase of the blocks this node
	// builds when the chain lets block producers choose (allowFeeRecipients
	// or the reward manager, l1-evm.md §3.9); without it, the blackhole.
	// L1s only: the C-Chain's coinbase is always the blackhole.
	chainFileFeeRecipient = "feeRecipient"
	// chainFileRPCGasCap caps the gas of eth_call and eth_estimateGas;
	// 0 means no cap.
	chainFileRPCGasCap = "rpc-gas-cap"
	// chainFileMaxBlocksPerRequest caps the blocks one eth_getLogs or
	// eth_getFilterLogs query may span, over the node's
	// --evm-logs-block-range-cap; 0 means no cap.
	chainFileMaxBlocksPerRequest = "api-max-blocks-per-request"
	// chainFileGasTarget is the gas per second this node prefers as the
	// C-Chain's ACP-176 target (Config.GasTarget). C-Chain only: an L1's
	// fees are its genesis's window rules.
	chainFileGasTarget = "gas-target"
)

// chainFileKeys is the set of keys one kind of chain supports.
type chainFileKeys map[string]bool

var (
	// l1FileKeys are an L1's keys (Subnet-EVM's names).
	l1FileKeys = chainFileKeys{chainFileFeeRecipient: true, chainFileRPCGasCap: true, chainFileMaxBlocksPerRequest: true}
	// cChainFileKeys are the C-Chain's keys (coreth's names).
	cChainFileKeys = chainFileKeys{chainFileGasTarget: true, chainFileRPCGasCap: true, chainFileMaxBlocksPerRequest: true}
)

// chainFile is a decoded config.json: nil fields are absent keys.
type chainFile struct {
	feeRecipient           *common.Address
	rpcGasCap              *uint64
	apiMaxBlocksPerRequest *int64
	gasTarget              *uint64
	// unknown lists the keys this node does not support, sorted.
	unknown []string
}

// parseChainFile decodes a config.json of a chain that supports keys: a JSON object (empty
// input or null is no file). A key of the wrong type, or a malformed file, is an error.
func parseChainFile(b []byte, keys chainFileKeys) (chainFile, error) {
	var f chainFile
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return f, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return f, err
	}
	for k, v := range m {
		if !keys[k] {
			f.unknown = append(f.unknown, k)
			continue
		}
		var err error
		switch k {
		case chainFileFeeRecipient:
			var s string
			if err = json.Unmarshal(v, &s); err == nil && s != "" {
				if !common.IsHexAddress(s) {
					err = notAnAddressError(s)
				} else {
					a := common.HexToAddress(s)
					f.feeRecipient = &a
				}
			}
		case chainFileRPCGasCap:
			f.rpcGasCap = new(uint64)
			err = json.Unmarshal(v, f.rpcGasCap)
		case chainFileMaxBlocksPerRequest:
			f.apiMaxBlocksPerRequest = new(int64)
			if err = json.Unmarshal(v, f.apiMaxBlocksPerRequest); err == nil && *f.apiMaxBlocksPerRequest < 0 {
				err = negativeCapError(*f.apiMaxBlocksPerRequest)
			}
		case chainFileGasTarget:
			err = json.Unmarshal(v, &f.gasTarget) // null is no preference, as the reference's pointer
		}
		if err != nil {
			return chainFile{}, fmt.Errorf("%s: %w", k, err)
		}
	}
	slices.Sort(f.unknown)
	return f, nil
}

// readChainFile decodes chain c's config.json with the keys its kind supports, and warns of
// the keys it ignores.
func readChainFile(c chains.Context, keys chainFileKeys) (chainFile, error) {
	f, err := parseChainFile(c.Config, keys)
	if err != nil {
		return chainFile{}, chainFileError(c.Chain.ID.String(), err)
	}
	if len(f.unknown) > 0 && c.Log != nil {
		c.Log.Warn("ignoring unsupported keys of the chain's config.json", "keys", f.unknown)
	}
	return f, nil
}

// apply returns cfg with the file's settings in place of the node's.
func (f chainFile) apply(cfg Config) Config {
	if f.feeRecipient != nil {
		cfg.Coinbase = *f.feeRecipient
	}
	if f.rpcGasCap != nil {
		cfg.RPCGasCap = *f.rpcGasCap
		if cfg.RPCGasCap == 0 {
			cfg.RPCGasCap = math.MaxUint64 / 2 // no cap, as go-ethereum's 0
		}
	}
	if f.gasTarget != nil {
		cfg.GasTarget = f.gasTarget
	}
	if f.apiMaxBlocksPerRequest != nil {
		cfg.LogsBlockRangeCap = -1
		if n := *f.apiMaxBlocksPerRequest; n > 0 {
			cfg.LogsBlockRangeCap = int(min(n, math.MaxInt32))
		}
	}
	return cfg
}
