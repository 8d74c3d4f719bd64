package precompile

import (
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/vm"

	"github.com/cornice-node/cornice/vms/evm/l1params"
)

// Fee manager gas and layout (l1-evm.md §3.11, §5.5).
const (
	numFeeFields = 8
	// setFeeConfigGas writes the eight fields and lastChangedAt.
	setFeeConfigGas   = writeSlotGas * (numFeeFields + 1)
	getFeeConfigGas   = readSlotGas * numFeeFields
	getLastChangedGas = readSlotGas
	// feeConfigEventGas is FeeConfigChanged's cost: reading the old config, log, two topics,
	// sixteen words.
	feeConfigEventGas = readSlotGas*numFeeFields + logGas + 2*logTopicGas + 2*numFeeFields*32*logDataGas
	feeConfigInputLen = numFeeFields * common.HashLength
)

// lastChangedAtKey is "lca" followed by zeros.
var lastChangedAtKey = common.Hash{'l', 'c', 'a'}

// feeFieldKey is the storage key of field i (1..8): byte i followed by 31 zeros.
func feeFieldKey(i int) common.Hash { return common.Hash{byte(i)} }

// feeWords returns cfg's eight fields in storage and ABI order; nil fields are zero.
func feeWords(cfg l1params.FeeConfig) [numFeeFields]common.Hash {
	b := func(v *big.Int) common.Hash {
		if v == nil {
			return common.Hash{}
		}
		return common.BigToHash(v)
	}
	return [numFeeFields]common.Hash{
		b(cfg.GasLimit),
		common.BigToHash(new(big.Int).SetUint64(cfg.TargetBlockRate)),
		b(cfg.MinBaseFee),
		b(cfg.TargetGas),
		b(cfg.BaseFeeChangeDenominator),
		b(cfg.MinBlockGasCost),
		b(cfg.MaxBlockGasCost),
		b(cfg.BlockGasCostStep),
	}
}

// feeConfigFromWords is feeWords' inverse. targetBlockRate keeps its low 64 bits, as the
// reference reads it.
func feeConfigFromWords(w [numFeeFields]common.Hash) l1params.FeeConfig {
	return l1params.FeeConfig{
		GasLimit:                 w[0].Big(),
		TargetBlockRate:          w[1].Big().Uint64(),
		MinBaseFee:               w[2].Big(),
		TargetGas:                w[3].Big(),
		BaseFeeChangeDenominator: w[4].Big(),
		MinBlockGasCost:          w[5].Big(),
		MaxBlockGasCost:          w[6].Big(),
		BlockGasCostStep:         w[7].Big(),
	}
}

func storedFeeWords(state StateReader) [numFeeFields]common.Hash {
	var w [numFeeFields]common.Hash
	for i := range w {
		w[i] = state.GetState(l1params.FeeManagerAddress, feeFieldKey(i+1))
	}
	return w
}

// StoredFeeConfig returns the fee config in the fee manager's storage and the block number
// it was last changed at (l1-evm.md §3.11). It fails when the stored targetBlockRate does
// not fit in 64 bits, which only a state upgrade could cause. Call it while
// feeManagerConfig is active, on the parent's state: block N uses the config of N−1
// (§3.4).
func StoredFeeConfig(state StateReader) (l1params.FeeConfig, *big.Int, error) {
	w := storedFeeWords(state)
	if !w[1].Big().IsUint64() {
		return l1params.FeeConfig{}, nil, fmt.Errorf("read stored fee config: targetBlockRate %s does not fit in 64 bits", w[1].Big())
	}
	return feeConfigFromWords(w), state.GetState(l1params.FeeManagerAddress, lastChangedAtKey).Big(), nil
}

// StoreFeeConfig verifies cfg (FeeConfig.Verify; `cannot verify fee config: …` on
// failure) and writes it with lastChangedAt = blockNumber (l1-evm.md §3.11).
func StoreFeeConfig(state StateWriter, cfg l1params.FeeConfig, blockNumber *big.Int) error {
	if err := cfg.Verify(); err != nil {
		return fmt.Errorf("%w: %w", ErrCannotVerifyFeeConfig, err)
	}
	if blockNumber == nil {
		blockNumber = new(big.Int)
	}
	for i, w := range feeWords(cfg) {
		state.SetState(l1params.FeeManagerAddress, feeFieldKey(i+1), w)
	}
	state.SetState(l1params.FeeManagerAddress, lastChangedAtKey, common.BigToHash(blockNumber))
	return nil
}

// addFeeManager registers the fee manager's functions in c.
func addFeeManager(c *contract) {
	m := feeManagerABI.Methods
	c.add(m["setFeeConfig"].ID, function{run: setFeeConfig})
	c.add(m["getFeeConfig"].ID, function{run: getFeeConfig})
	c.add(m["getFeeConfigLastChangedAt"].ID, function{run: getFeeConfigLastChangedAt})
}

// setFeeConfig: charge → read-only → decode → caller Enabled+ → (Durango) event → store
// (l1-evm.md §5.5). The new config applies from the next block.
func setFeeConfig(c *call) ([]byte, error) {
	if err := c.use(setFeeConfigGas); err != nil {
		return nil, err
	}
	if c.readOnly {
		return nil, vm.ErrWriteProtection
	}
	if c.strict() && len(c.input) != feeConfigInputLen {
		return nil, fmt.Errorf("%w: %d", ErrInvalidFeeConfigLen, len(c.input))
	}
	vals, err := unpackInputs(feeManagerABI, "setFeeConfig", c.input)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errUnpackInput, err)
	}
	var w [numFeeFields]common.Hash
	for i := range w {
		w[i] = common.BigToHash(vals[i].(*big.Int))
	}
	cfg := feeConfigFromWords(w)
	if !RoleOf(c.state, c.addr, c.caller).IsEnabled() {
		return nil, cannotChangeFeeError(c.caller)
	}
	if c.rules.IsDurango {
		if err := c.use(feeConfigEventGas); err != nil {
			return nil, err
		}
		old := feeWords(feeConfigFromWords(storedFeeWords(c.state)))
		data := make([]byte, 0, 2*numFeeFields*common.HashLength)
		for _, h := range old {
			data = append(data, h[:]...)
		}
		for _, h := range feeWords(cfg) {
			data = append(data, h[:]...)
		}
		c.log([]common.Hash{
			feeManagerABI.Events["FeeConfigChanged"].ID,
			common.BytesToHash(c.caller.Bytes()),
		}, data)
	}
	if err := StoreFeeConfig(c.state, cfg, c.r.evm.Context.BlockNumber); err != nil {
		return nil, err
	}
	return []byte{}, nil
}

// getFeeConfig returns the stored config (40,000 gas; anyone).
func getFeeConfig(c *call) ([]byte, error) {
	if err := c.use(getFeeConfigGas); err != nil {
		return nil, err
	}
	out := make([]byte, 0, feeConfigInputLen)
	for _, h := range feeWords(feeConfigFromWords(storedFeeWords(c.state))) {
		out = append(out, h[:]...)
	}
	return out, nil
}

// getFeeConfigLastChangedAt returns the block number of the last change (5,000 gas;
// anyone).
func getFeeConfigLastChangedAt(c *call) ([]byte, error) {
	if err := c.use(getLastChangedGas); err != nil {
		return nil, err
	}
	h := c.state.GetState(c.addr, lastChangedAtKey)
	return h.Bytes(), nil
}
