package evm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"github.com/ethereum/go-ethereum/common"
)

// The keys of an L1's config.json (<chain-config-dir>/<blockchainID>/
// config.json, chains.Context.Config) that this node supports, with
// Subnet-EVM's names and meanings (SE/plugin/evm/config). Other keys are
// ignored with a warning.
const (
	// chainFileFeeRecipient is the coinbase of the blocks this node
	// builds when the chain lets block producers choose (allowFeeRecipients
	// or the reward manager, l1-evm.md §3.9); without it, the blackhole.
	chainFileFeeRecipient = "feeRecipient"
	// chainFileRPCGasCap caps the gas of eth_call and eth_estimateGas;
	// 0 means no cap.
	chainFileRPCGasCap = "rpc-gas-cap"
	// chainFileMaxBlocksPerRequest caps the blocks one eth_getLogs or
	// eth_getFilterLogs query may span, over the node's
	// --evm-logs-block-range-cap; 0 means no cap.
	chainFileMaxBlocksPerRequest = "api-max-blocks-per-request"
)

// chainFile is a decoded config.json: nil fields are absent keys.
type chainFile struct {
	feeRecipient           *common.Address
	rpcGasCap              *uint64
	apiMaxBlocksPerRequest *int64
	// unknown lists the keys this node does not support, sorted.
	unknown []string
}

// parseChainFile decodes a config.json: a JSON object (empty input or null
// is no file). A key of the wrong type, or a malformed file, is an error.
func parseChainFile(b []byte) (chainFile, error) {
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
		default:
			f.unknown = append(f.unknown, k)
		}
		if err != nil {
			return chainFile{}, fmt.Errorf("%s: %w", k, err)
		}
	}
	slices.Sort(f.unknown)
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
	if f.apiMaxBlocksPerRequest != nil {
		cfg.LogsBlockRangeCap = -1
		if n := *f.apiMaxBlocksPerRequest; n > 0 {
			cfg.LogsBlockRangeCap = int(min(n, math.MaxInt32))
		}
	}
	return cfg
}
