package precompile

import (
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/vms/evm/l1params"
)

func packFee(t testing.TB, name string, c l1params.FeeConfig) []byte {
	return pack(t, FeeManagerABI(), name, c.GasLimit, new(big.Int).SetUint64(c.TargetBlockRate), c.MinBaseFee, c.TargetGas,
		c.BaseFeeChangeDenominator, c.MinBlockGasCost, c.MaxBlockGasCost, c.BlockGasCostStep)
}

func feeBytes(c l1params.FeeConfig) []byte {
	var out []byte
	for _, w := range feeWords(c) {
		out = append(out, w[:]...)
	}
	return out
}

func TestSetFeeConfig(t *testing.T) {
	t.Parallel()
	newCfg := testFeeConfig()
	newCfg.MinBaseFee = big.NewInt(1)
	newCfg.TargetBlockRate = 3
	bad := testFeeConfig()
	bad.GasLimit = big.NewInt(0)
	tests := []struct {
		name    string
		rules   Rules
		from    common.Address
		input   []byte
		used    uint64
		wantErr string
		event   bool
	}{
		{name: "admin", rules: Rules{IsDurango: true}, from: admin, used: 225_221, event: true},
		{name: "manager", rules: Rules{IsDurango: true}, from: manager, used: 225_221, event: true},
		{name: "enabled", rules: Rules{IsDurango: true}, from: enabled, used: 225_221, event: true},
		{name: "none", rules: Rules{IsDurango: true}, from: nobody, wantErr: "non-enabled cannot change fee config: " + nobody.Hex()},
		{name: "pre-durango", from: admin, used: 180_000},
		{name: "strict length", from: admin, input: append(packFee(t, "setFeeConfig", newCfg), 0), wantErr: "invalid input length for fee config Input: 257"},
		{name: "invalid config", rules: Rules{IsDurango: true}, from: admin, input: packFee(t, "setFeeConfig", bad), wantErr: "cannot verify fee config: gasLimit cannot be less than or equal to 0: gasLimit = 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, tt.rules, allConfigs()[3])
			input := tt.input
			if input == nil {
				input = packFee(t, "setFeeConfig", newCfg)
			}
			_, used, err := h.call(tt.from, l1params.FeeManagerAddress, input, 300_000)
			got, at, rerr := StoredFeeConfig(h.state)
			require.NoError(t, rerr)
			if tt.wantErr != "" {
				require.EqualError(t, err, tt.wantErr)
				require.EqualValues(t, 300_000, used)
				require.Equal(t, feeBytes(testFeeConfig()), feeBytes(got))
				require.Zero(t, at.Sign())
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.used, used)
			require.Equal(t, feeBytes(newCfg), feeBytes(got))
			require.EqualValues(t, 7, at.Uint64())
			logs := h.state.Logs()
			if !tt.event {
				require.Empty(t, logs)
				return
			}
			require.Len(t, logs, 1)
			require.Equal(t, []common.Hash{FeeManagerABI().Events["FeeConfigChanged"].ID, common.BytesToHash(tt.from.Bytes())}, logs[0].Topics)
			require.Equal(t, append(feeBytes(testFeeConfig()), feeBytes(newCfg)...), logs[0].Data)
			// The event data decodes with the ABI as (old, new).
			vals, err := FeeManagerABI().Events["FeeConfigChanged"].Inputs.NonIndexed().Unpack(logs[0].Data)
			require.NoError(t, err)
			require.Len(t, vals, 2)
		})
	}
}

func TestGetFeeConfig(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Rules{IsDurango: true}, allConfigs()[3])
	ret, used, err := h.call(nobody, l1params.FeeManagerAddress, pack(t, FeeManagerABI(), "getFeeConfig"), 100_000)
	require.NoError(t, err)
	require.EqualValues(t, 40_000, used)
	require.Equal(t, feeBytes(testFeeConfig()), ret)

	ret, used, err = h.call(nobody, l1params.FeeManagerAddress, pack(t, FeeManagerABI(), "getFeeConfigLastChangedAt"), 100_000)
	require.NoError(t, err)
	require.EqualValues(t, 5_000, used)
	require.Equal(t, word(0), ret)

	// Storage layout (l1-evm.md §3.11).
	require.Equal(t, common.BigToHash(big.NewInt(8_000_000)), h.state.GetState(l1params.FeeManagerAddress, common.Hash{1}))
	require.Equal(t, common.BigToHash(big.NewInt(200_000)), h.state.GetState(l1params.FeeManagerAddress, common.Hash{8}))
	require.NoError(t, StoreFeeConfig(h.state, testFeeConfig(), big.NewInt(42)))
	require.Equal(t, common.BigToHash(big.NewInt(42)), h.state.GetState(l1params.FeeManagerAddress, common.HexToHash("0x6c63610000000000000000000000000000000000000000000000000000000000")))

	// A targetBlockRate beyond 64 bits (only a state upgrade can write one) is reported.
	h.state.SetState(l1params.FeeManagerAddress, common.Hash{2}, common.Hash{0: 1})
	_, _, err = StoredFeeConfig(h.state)
	require.Error(t, err)
}
