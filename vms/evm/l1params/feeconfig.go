package l1params

import (
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
)

// DefaultFeeConfig returns Subnet-EVM's default fee config (l1-evm.md §3.2), used when a
// genesis has no feeConfig. Each call returns fresh big integers.
func DefaultFeeConfig() FeeConfig {
	return FeeConfig{
		GasLimit:                 big.NewInt(8_000_000),
		TargetBlockRate:          2,
		MinBaseFee:               big.NewInt(25_000_000_000),
		TargetGas:                big.NewInt(15_000_000),
		BaseFeeChangeDenominator: big.NewInt(36),
		MinBlockGasCost:          big.NewInt(0),
		MaxBlockGasCost:          big.NewInt(1_000_000),
		BlockGasCostStep:         big.NewInt(200_000),
	}
}

// IsEmpty reports whether no field of f is set, the case in which the start-up pipeline
// substitutes DefaultFeeConfig (l1-evm.md §4.3 step 2).
func (f *FeeConfig) IsEmpty() bool {
	return f.GasLimit == nil && f.TargetBlockRate == 0 && f.MinBaseFee == nil && f.TargetGas == nil &&
		f.BaseFeeChangeDenominator == nil && f.MinBlockGasCost == nil && f.MaxBlockGasCost == nil &&
		f.BlockGasCostStep == nil
}

// Verify checks f with the rules and texts of l1-evm.md §3.3: nil fields first, then ranges,
// then the 32-byte limit. It reports the first problem found, as the reference does.
func (f *FeeConfig) Verify() error {
	switch {
	case f.GasLimit == nil:
		return ErrGasLimitNil
	case f.MinBaseFee == nil:
		return ErrMinBaseFeeNil
	case f.TargetGas == nil:
		return ErrTargetGasNil
	case f.BaseFeeChangeDenominator == nil:
		return ErrBaseFeeChangeDenominatorNil
	case f.MinBlockGasCost == nil:
		return ErrMinBlockGasCostNil
	case f.MaxBlockGasCost == nil:
		return ErrMaxBlockGasCostNil
	case f.BlockGasCostStep == nil:
		return ErrBlockGasCostStepNil
	}
	switch {
	case f.GasLimit.Sign() <= 0:
		return fmt.Errorf("%w: gasLimit = %d", ErrGasLimitTooLow, f.GasLimit)
	case f.TargetBlockRate == 0:
		return fmt.Errorf("%w: targetBlockRate = %d", ErrTargetBlockRateTooLow, f.TargetBlockRate)
	case f.MinBaseFee.Sign() < 0:
		return fmt.Errorf("%w: minBaseFee = %d", ErrMinBaseFeeNegative, f.MinBaseFee)
	case f.TargetGas.Sign() <= 0:
		return fmt.Errorf("%w: targetGas = %d", ErrTargetGasTooLow, f.TargetGas)
	case f.BaseFeeChangeDenominator.Sign() <= 0:
		return fmt.Errorf("%w: baseFeeChangeDenominator = %d", ErrBaseFeeChangeDenominatorTooLow, f.BaseFeeChangeDenominator)
	case f.MinBlockGasCost.Sign() < 0:
		return fmt.Errorf("%w: minBlockGasCost = %d", ErrMinBlockGasCostNegative, f.MinBlockGasCost)
	case f.MinBlockGasCost.Cmp(f.MaxBlockGasCost) > 0:
		return fmt.Errorf("%w: minBlockGasCost = %d, maxBlockGasCost = %d", ErrMinBlockGasCostTooHigh, f.MinBlockGasCost, f.MaxBlockGasCost)
	case f.BlockGasCostStep.Sign() < 0:
		return fmt.Errorf("%w: blockGasCostStep = %d", ErrBlockGasCostStepNegative, f.BlockGasCostStep)
	case !f.MaxBlockGasCost.IsUint64():
		return fmt.Errorf("%w: maxBlockGasCost = %d", ErrMaxBlockGasCostNotUint64, f.MaxBlockGasCost)
	}
	// Every value must fit a 32-byte storage slot of the fee manager (§3.11). targetBlockRate is
	// a uint64 and always fits; maxBlockGasCost was checked to be one above.
	for _, v := range []struct {
		name string
		n    *big.Int
	}{
		{"gasLimit", f.GasLimit},
		{"minBaseFee", f.MinBaseFee},
		{"targetGas", f.TargetGas},
		{"baseFeeChangeDenominator", f.BaseFeeChangeDenominator},
		{"minBlockGasCost", f.MinBlockGasCost},
		{"blockGasCostStep", f.BlockGasCostStep},
	} {
		if len(v.n.Bytes()) > common.HashLength {
			return exceedsHashLength(v.name)
		}
	}
	return nil
}

// Equal reports whether f and o hold the same values; a nil o is never equal.
func (f *FeeConfig) Equal(o *FeeConfig) bool {
	if o == nil {
		return false
	}
	return bigEqual(f.GasLimit, o.GasLimit) &&
		f.TargetBlockRate == o.TargetBlockRate &&
		bigEqual(f.MinBaseFee, o.MinBaseFee) &&
		bigEqual(f.TargetGas, o.TargetGas) &&
		bigEqual(f.BaseFeeChangeDenominator, o.BaseFeeChangeDenominator) &&
		bigEqual(f.MinBlockGasCost, o.MinBlockGasCost) &&
		bigEqual(f.MaxBlockGasCost, o.MaxBlockGasCost) &&
		bigEqual(f.BlockGasCostStep, o.BlockGasCostStep)
}

// Copy returns a deep copy of f.
func (f FeeConfig) Copy() FeeConfig {
	return FeeConfig{
		GasLimit:                 copyBig(f.GasLimit),
		TargetBlockRate:          f.TargetBlockRate,
		MinBaseFee:               copyBig(f.MinBaseFee),
		TargetGas:                copyBig(f.TargetGas),
		BaseFeeChangeDenominator: copyBig(f.BaseFeeChangeDenominator),
		MinBlockGasCost:          copyBig(f.MinBlockGasCost),
		MaxBlockGasCost:          copyBig(f.MaxBlockGasCost),
		BlockGasCostStep:         copyBig(f.BlockGasCostStep),
	}
}

// FeeConfigResult is eth_feeConfig's result (l1-evm.md §1.2): the fee config in force for the
// child of a block and the number of the block that last changed it, nil when the key is left
// out (SubnetEVM not active).
type FeeConfigResult struct {
	FeeConfig     FeeConfig `json:"feeConfig"`
	LastChangedAt *big.Int  `json:"lastChangedAt,omitempty"`
}

func bigEqual(a, b *big.Int) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Cmp(b) == 0
}

func copyBig(n *big.Int) *big.Int {
	if n == nil {
		return nil
	}
	return new(big.Int).Set(n)
}
