package evm

import (
	"encoding/binary"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/core/types"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/vms/evm/l1params"
)

// TestNextBaseFee checks the worked examples of l1-evm.md §3.6: a parent
// with base fee 30 gwei and W[8] = 5M, W[9] = 4M, under the default config.
func TestNextBaseFee(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		gasUsed uint64
		delta   uint64
		want    int64
	}{
		{"full, 2 s", 8_000_000, 2, 30_111_111_111},
		{"full, 0 s", 8_000_000, 0, 30_111_111_111},
		{"empty, 1 s", 0, 1, 29_666_666_667},
		{"empty, 5 s", 0, 5, 29_666_666_667},
		{"light, 25 s", 100_000, 25, 28_333_333_334},
		{"empty, 31 s", 0, 31, 27_500_000_001},
	}
	fees := l1params.DefaultFeeConfig()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			extra := make([]byte, windowSize)
			binary.BigEndian.PutUint64(extra[8*8:], 5_000_000)
			binary.BigEndian.PutUint64(extra[9*8:], 4_000_000)
			parent := &types.Header{Number: big.NewInt(5), Time: 1000, GasUsed: tt.gasUsed, BaseFee: big.NewInt(30_000_000_000), Extra: extra}
			got, window, err := NextBaseFee(&fees, parent, 1000+tt.delta)
			require.NoError(t, err)
			require.Equal(t, big.NewInt(tt.want), got)
			require.Len(t, window, windowSize)
		})
	}
}

func TestNextBaseFeeErrors(t *testing.T) {
	t.Parallel()
	fees := l1params.DefaultFeeConfig()
	genesis := &types.Header{Number: big.NewInt(0), Time: 1000}
	got, window, err := NextBaseFee(&fees, genesis, 1000)
	require.NoError(t, err)
	require.Equal(t, fees.MinBaseFee, got)
	require.Equal(t, make([]byte, windowSize), window)

	short := &types.Header{Number: big.NewInt(1), Time: 1000, BaseFee: big.NewInt(1), Extra: []byte{0}}
	_, _, err = NextBaseFee(&fees, short, 1000)
	require.EqualError(t, err, "insufficient length for window: expected at least 80 bytes but got 1 bytes")
	old := &types.Header{Number: big.NewInt(1), Time: 1000, BaseFee: big.NewInt(1), Extra: make([]byte, windowSize)}
	_, _, err = NextBaseFee(&fees, old, 999)
	require.EqualError(t, err, "invalid timestamp: timestamp 999 prior to parent timestamp 1000")
}
