package l1params

import (
	"encoding/json"
	"math/big"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestDefaultFeeConfig(t *testing.T) {
	t.Parallel()
	f := DefaultFeeConfig()
	require.NoError(t, f.Verify())
	b, err := json.Marshal(f)
	require.NoError(t, err)
	require.JSONEq(t, `{"gasLimit":8000000,"targetBlockRate":2,"minBaseFee":25000000000,"targetGas":15000000,
		"baseFeeChangeDenominator":36,"minBlockGasCost":0,"maxBlockGasCost":1000000,"blockGasCostStep":200000}`, string(b))
	// Byte-exact: struct order, numbers (l1-evm.md §1.2).
	require.Equal(t, `{"gasLimit":8000000,"targetBlockRate":2,"minBaseFee":25000000000,"targetGas":15000000,"baseFeeChangeDenominator":36,"minBlockGasCost":0,"maxBlockGasCost":1000000,"blockGasCostStep":200000}`, string(b))
	g := DefaultFeeConfig()
	g.GasLimit.SetInt64(1)
	require.Equal(t, int64(8_000_000), f.GasLimit.Int64(), "each call returns fresh integers")
}

func TestFeeConfigVerify(t *testing.T) {
	t.Parallel()
	big33 := new(big.Int).Lsh(big.NewInt(1), 256) // 33 bytes
	tests := []struct {
		name    string
		edit    func(f *FeeConfig)
		wantErr error
		want    string
	}{
		{"default", func(*FeeConfig) {}, nil, ""},
		{"gasLimit nil", func(f *FeeConfig) { f.GasLimit = nil }, ErrGasLimitNil, "gasLimit cannot be nil"},
		{"minBaseFee nil", func(f *FeeConfig) { f.MinBaseFee = nil }, ErrMinBaseFeeNil, "minBaseFee cannot be nil"},
		{"targetGas nil", func(f *FeeConfig) { f.TargetGas = nil }, ErrTargetGasNil, "targetGas cannot be nil"},
		{"denominator nil", func(f *FeeConfig) { f.BaseFeeChangeDenominator = nil }, ErrBaseFeeChangeDenominatorNil, "baseFeeChangeDenominator cannot be nil"},
		{"minBlockGasCost nil", func(f *FeeConfig) { f.MinBlockGasCost = nil }, ErrMinBlockGasCostNil, "minBlockGasCost cannot be nil"},
		{"maxBlockGasCost nil", func(f *FeeConfig) { f.MaxBlockGasCost = nil }, ErrMaxBlockGasCostNil, "maxBlockGasCost cannot be nil"},
		{"blockGasCostStep nil", func(f *FeeConfig) { f.BlockGasCostStep = nil }, ErrBlockGasCostStepNil, "blockGasCostStep cannot be nil"},
		{"gasLimit 0", func(f *FeeConfig) { f.GasLimit = big.NewInt(0) }, ErrGasLimitTooLow, "gasLimit cannot be less than or equal to 0: gasLimit = 0"},
		{"targetBlockRate 0", func(f *FeeConfig) { f.TargetBlockRate = 0 }, ErrTargetBlockRateTooLow, "targetBlockRate cannot be less than or equal to 0: targetBlockRate = 0"},
		{"minBaseFee negative", func(f *FeeConfig) { f.MinBaseFee = big.NewInt(-1) }, ErrMinBaseFeeNegative, "minBaseFee cannot be less than 0: minBaseFee = -1"},
		{"targetGas 0", func(f *FeeConfig) { f.TargetGas = big.NewInt(0) }, ErrTargetGasTooLow, "targetGas cannot be less than or equal to 0: targetGas = 0"},
		{"denominator -2", func(f *FeeConfig) { f.BaseFeeChangeDenominator = big.NewInt(-2) }, ErrBaseFeeChangeDenominatorTooLow, "baseFeeChangeDenominator cannot be less than or equal to 0: baseFeeChangeDenominator = -2"},
		{"minBlockGasCost negative", func(f *FeeConfig) { f.MinBlockGasCost = big.NewInt(-5) }, ErrMinBlockGasCostNegative, "minBlockGasCost cannot be less than 0: minBlockGasCost = -5"},
		{"min above max", func(f *FeeConfig) { f.MinBlockGasCost = big.NewInt(7); f.MaxBlockGasCost = big.NewInt(6) }, ErrMinBlockGasCostTooHigh, "minBlockGasCost cannot be greater than maxBlockGasCost: minBlockGasCost = 7, maxBlockGasCost = 6"},
		{"step negative", func(f *FeeConfig) { f.BlockGasCostStep = big.NewInt(-1) }, ErrBlockGasCostStepNegative, "blockGasCostStep cannot be less than 0: blockGasCostStep = -1"},
		{"max not uint64", func(f *FeeConfig) { f.MaxBlockGasCost = new(big.Int).Lsh(big.NewInt(1), 64) }, ErrMaxBlockGasCostNotUint64, "maxBlockGasCost is not a valid uint64: maxBlockGasCost = 18446744073709551616"},
		{"gasLimit 33 bytes", func(f *FeeConfig) { f.GasLimit = big33 }, ErrExceedsHashLength, "gasLimit exceeds hash length: 32 bytes"},
		{"minBaseFee 33 bytes", func(f *FeeConfig) { f.MinBaseFee = big33 }, ErrExceedsHashLength, "minBaseFee exceeds hash length: 32 bytes"},
		{"targetGas 33 bytes", func(f *FeeConfig) { f.TargetGas = big33 }, ErrExceedsHashLength, "targetGas exceeds hash length: 32 bytes"},
		{"denominator 33 bytes", func(f *FeeConfig) { f.BaseFeeChangeDenominator = big33 }, ErrExceedsHashLength, "baseFeeChangeDenominator exceeds hash length: 32 bytes"},
		{"step 33 bytes", func(f *FeeConfig) { f.BlockGasCostStep = big33 }, ErrExceedsHashLength, "blockGasCostStep exceeds hash length: 32 bytes"},
		{"minBlockGasCost 33 bytes", func(f *FeeConfig) { f.MinBlockGasCost = big33; f.MaxBlockGasCost = big33 }, ErrMaxBlockGasCostNotUint64, "maxBlockGasCost is not a valid uint64: maxBlockGasCost = " + big33.String()},
		{"32 bytes fits", func(f *FeeConfig) { f.MinBaseFee = new(big.Int).Sub(big33, big.NewInt(1)) }, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := DefaultFeeConfig()
			tt.edit(&f)
			err := f.Verify()
			if tt.wantErr == nil {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, tt.wantErr)
			require.EqualError(t, err, tt.want)
		})
	}
}

func TestFeeConfigEqualCopy(t *testing.T) {
	t.Parallel()
	a := DefaultFeeConfig()
	b := a.Copy()
	require.True(t, a.Equal(&b))
	require.False(t, a.Equal(nil))
	b.MinBaseFee.SetInt64(1)
	require.False(t, a.Equal(&b))
	require.Equal(t, int64(25_000_000_000), a.MinBaseFee.Int64(), "copy is deep")
	c := a.Copy()
	c.TargetBlockRate = 3
	require.False(t, a.Equal(&c))
	var e1, e2 FeeConfig
	require.True(t, e1.Equal(&e2))
	require.True(t, e1.IsEmpty())
	require.False(t, a.IsEmpty())
}

func TestFeeConfigJSONBigNumbers(t *testing.T) {
	t.Parallel()
	// Values beyond 2^53 survive exactly both ways (l1-evm.md §1.2).
	in := `{"gasLimit":8000000,"targetBlockRate":2,"minBaseFee":123456789012345678901234567890,"targetGas":15000000,"baseFeeChangeDenominator":36,"minBlockGasCost":0,"maxBlockGasCost":18446744073709551615,"blockGasCostStep":9007199254740993}`
	var f FeeConfig
	require.NoError(t, json.Unmarshal([]byte(in), &f))
	require.Equal(t, "123456789012345678901234567890", f.MinBaseFee.String())
	require.Equal(t, "9007199254740993", f.BlockGasCostStep.String())
	require.NoError(t, f.Verify())
	out, err := json.Marshal(f)
	require.NoError(t, err)
	require.Equal(t, in, string(out))
	// A zero big integer is printed; only nil is left out.
	out, err = json.Marshal(FeeConfig{GasLimit: new(big.Int)})
	require.NoError(t, err)
	require.Equal(t, `{"gasLimit":0}`, string(out))
}

func TestFeeConfigResultJSON(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		res  FeeConfigResult
		want string
	}{
		{"changed at 0", FeeConfigResult{FeeConfig: DefaultFeeConfig(), LastChangedAt: big.NewInt(0)},
			`{"feeConfig":{"gasLimit":8000000,"targetBlockRate":2,"minBaseFee":25000000000,"targetGas":15000000,"baseFeeChangeDenominator":36,"minBlockGasCost":0,"maxBlockGasCost":1000000,"blockGasCostStep":200000},"lastChangedAt":0}`},
		{"never", FeeConfigResult{FeeConfig: FeeConfig{GasLimit: big.NewInt(1)}}, `{"feeConfig":{"gasLimit":1}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b, err := json.Marshal(tt.res)
			require.NoError(t, err)
			require.Equal(t, tt.want, string(b))
			var back FeeConfigResult
			require.NoError(t, json.Unmarshal(b, &back))
			require.True(t, back.FeeConfig.Equal(&tt.res.FeeConfig))
			require.True(t, bigEqual(back.LastChangedAt, tt.res.LastChangedAt))
		})
	}
}
