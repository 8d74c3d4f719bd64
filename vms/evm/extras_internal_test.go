package evm

import (
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/params"
	"github.com/stretchr/testify/require"
)

func TestNewPriceOptions(t *testing.T) {
	t.Parallel()
	gwei := func(n float64) *big.Int { return big.NewInt(int64(n * params.GWei)) }
	tests := []struct {
		name                    string
		baseFee, tip            *big.Int
		slow, normal, fast      *big.Int
		slowFee, normFee, fast2 *big.Int
	}{
		{
			name: "plain", baseFee: gwei(25), tip: gwei(1),
			slow: gwei(0.95), normal: gwei(1), fast: gwei(1.05),
			slowFee: gwei(50.95), normFee: gwei(51), fast2: gwei(51.05),
		},
		{
			name: "tip over the normal cap: slow and normal capped, fast not", baseFee: gwei(1), tip: gwei(30),
			slow: gwei(19), normal: gwei(20), fast: gwei(31.5),
			slowFee: gwei(21), normFee: gwei(22), fast2: gwei(33.5),
		},
		{
			name: "one wei: slow floored at one wei", baseFee: big.NewInt(0), tip: big.NewInt(1),
			slow: big.NewInt(1), normal: big.NewInt(1), fast: big.NewInt(1),
			slowFee: big.NewInt(1), normFee: big.NewInt(1), fast2: big.NewInt(1),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := newPriceOptions(tt.baseFee, tt.tip)
			require.Equal(t, tt.slow, p.Slow.MaxPriorityFeePerGas.ToInt())
			require.Equal(t, tt.normal, p.Normal.MaxPriorityFeePerGas.ToInt())
			require.Equal(t, tt.fast, p.Fast.MaxPriorityFeePerGas.ToInt())
			require.Equal(t, tt.slowFee, p.Slow.MaxFeePerGas.ToInt())
			require.Equal(t, tt.normFee, p.Normal.MaxFeePerGas.ToInt())
			require.Equal(t, tt.fast2, p.Fast.MaxFeePerGas.ToInt())
		})
	}
}
