package precompile

import (
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/vm"
)

// Warp gas before Granite and from Granite (l1-evm.md §5.7).
const (
	warpGetBlockchainIDGas        = 2
	warpGetBlockchainIDGasGranite = 200
	warpGetVerifiedGas            = 2
	warpGetVerifiedGasGranite     = 750
	// warpSendBaseGas is log, three topics and two slot writes; 8 per input byte follows.
	warpSendBaseGas = logGas + 3*logTopicGas + 2*writeSlotGas
)

// addWarp registers the warp functions in c. This node carries no warp predicates yet, so
// getVerifiedWarpMessage and getVerifiedWarpBlockHash answer "not valid", which is what the
// reference answers for an index with no predicate; sendWarpMessage fails with
// ErrWarpNotSupported (all gas consumed).
func addWarp(c *contract) {
	m := warpABI.Methods
	c.add(m["getBlockchainID"].ID, function{run: getBlockchainID})
	c.add(m["getVerifiedWarpMessage"].ID, function{run: getVerified("getVerifiedWarpMessage")})
	c.add(m["getVerifiedWarpBlockHash"].ID, function{run: getVerified("getVerifiedWarpBlockHash")})
	c.add(m["sendWarpMessage"].ID, function{run: sendWarpMessage})
}

func getBlockchainID(c *call) ([]byte, error) {
	gas := uint64(warpGetBlockchainIDGas)
	if c.rules.IsGranite {
		gas = warpGetBlockchainIDGasGranite
	}
	if err := c.use(gas); err != nil {
		return nil, err
	}
	id := c.r.env.BlockchainID
	return id.Bytes(), nil
}

// getVerified returns fn: decode the index, then the "invalid" output, charging the base
// gas only (l1-evm.md §5.7).
func getVerified(fn string) func(c *call) ([]byte, error) {
	return func(c *call) ([]byte, error) {
		gas := uint64(warpGetVerifiedGas)
		if c.rules.IsGranite {
			gas = warpGetVerifiedGasGranite
		}
		if err := c.use(gas); err != nil {
			return nil, err
		}
		if _, err := unpackInputs(warpABI, fn, c.input); err != nil {
			return nil, err
		}
		return invalidWarpOutput(fn), nil
	}
}

// invalidWarpOutput is the ABI output of fn with an empty message and valid = false.
func invalidWarpOutput(fn string) []byte {
	var out []byte
	var err error
	if fn == "getVerifiedWarpMessage" {
		msg := struct {
			SourceChainID       [32]byte
			OriginSenderAddress common.Address
			Payload             []byte
		}{Payload: []byte{}}
		out, err = warpABI.Methods[fn].Outputs.Pack(msg, false)
	} else {
		hash := struct {
			SourceChainID [32]byte
			BlockHash     [32]byte
		}{}
		out, err = warpABI.Methods[fn].Outputs.Pack(hash, false)
	}
	if err != nil {
		panic("precompile: pack warp output: " + err.Error()) // constant arguments
	}
	return out
}

// sendWarpMessage charges its gas and refuses: messaging is not built yet.
func sendWarpMessage(c *call) ([]byte, error) {
	if err := c.use(warpSendBaseGas + logDataGas*uint64(len(c.input))); err != nil {
		return nil, err
	}
	if c.readOnly {
		return nil, vm.ErrWriteProtection
	}
	return nil, ErrWarpNotSupported
}
