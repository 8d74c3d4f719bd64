package config

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestTxFeesFor(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		networkID uint32
		txFee     uint64
		assetFee  uint64
		want      TxFees
	}{
		{
			name: "mainnet ignores flags", networkID: MainnetID, txFee: 1, assetFee: 2,
			want: TxFees{1000000, 10000000, 1000000000, 10000000000, 1000000000, 0, 0, 1000000, 1000000},
		},
		{
			name: "fuji ignores flags", networkID: FujiID, txFee: 1, assetFee: 2,
			want: TxFees{1000000, 10000000, 100000000, 1000000000, 100000000, 0, 0, 1000000, 1000000},
		},
		{
			name: "local defaults", networkID: LocalID, txFee: 1000000, assetFee: 1000000,
			want: TxFees{1000000, 1000000, 100000000, 100000000, 100000000, 0, 0, 1000000, 1000000},
		},
		{
			name: "custom network uses flags", networkID: 99, txFee: 7, assetFee: 8,
			want: TxFees{7, 8, 100000000, 100000000, 100000000, 0, 0, 1000000, 1000000},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tt.want, TxFeesFor(tt.networkID, tt.txFee, tt.assetFee))
		})
	}
}

func TestDefaultFeesMatchLocalReference(t *testing.T) {
	t.Parallel()
	// node-api.md §3.9: the verified local result of info.getTxFee.
	cfg := Default()
	require.Equal(t,
		TxFees{1000000, 1000000, 100000000, 100000000, 100000000, 0, 0, 1000000, 1000000},
		TxFeesFor(cfg.NetworkID, cfg.TxFee, cfg.CreateAssetTxFee))
}
