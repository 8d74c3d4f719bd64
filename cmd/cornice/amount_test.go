package main

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParseAmount(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		want    uint64
		wantErr error
	}{
		{in: "1500000000", want: 1_500_000_000},
		{in: "1500000000nAVAX", want: 1_500_000_000},
		{in: "1500000000 nAVAX", want: 1_500_000_000},
		{in: "1.5AVAX", want: 1_500_000_000},
		{in: "1.5 AVAX", want: 1_500_000_000},
		{in: "0.000000001AVAX", want: 1},
		{in: "3AVAX", want: 3_000_000_000},
		{in: "0.0000000001AVAX", wantErr: errAmount},
		{in: "-1AVAX", wantErr: errAmount},
		{in: "1.5", wantErr: errAmount},
		{in: "abc", wantErr: errAmount},
		{in: "99999999999AVAX", wantErr: errAmount},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			got, err := parseAmount(tt.in)
			require.ErrorIs(t, err, tt.wantErr)
			require.Equal(t, tt.want, got)
		})
	}
}

func TestFormatAmount(t *testing.T) {
	t.Parallel()
	require.Equal(t, "1000000 nAVAX (0.001 AVAX)", formatAmount(1_000_000))
	require.Equal(t, "3000000000 nAVAX (3 AVAX)", formatAmount(3_000_000_000))
	require.Equal(t, "0 nAVAX (0 AVAX)", formatAmount(0))
	require.Equal(t, "1500000001 nAVAX (1.500000001 AVAX)", formatAmount(1_500_000_001))
}
