package main

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestParseAVAXAmount reads amounts in AVAX (up to 9 decimals) and nAVAX, a bare number being
// nAVAX, and refuses the rest.
func TestParseAVAXAmount(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]uint64{
		"2000AVAX": 2_000_000_000_000, "2000 AVAX": 2_000_000_000_000, "0.5AVAX": 500_000_000,
		"1.000000001AVAX": 1_000_000_001, "25000000000nAVAX": 25_000_000_000, "7": 7,
		"18446744073709551615": 1<<64 - 1, "18446744073.709551615AVAX": 1<<64 - 1,
	} {
		got, err := parseAVAXAmount("stake", in)
		require.NoError(t, err, in)
		require.Equal(t, want, got, in)
	}
	for _, in := range []string{"", "AVAX", "2x", "-1", "1.5", "1.5nAVAX", "0.0000000001AVAX", "1.AVAX", "18446744073709551616", "18446744073.709551616AVAX"} {
		_, err := parseAVAXAmount("stake", in)
		require.Error(t, err, in)
	}
	require.Equal(t, "2000 AVAX (2000000000000 nAVAX)", formatAVAX(2_000_000_000_000))
	require.Equal(t, "0.013691 AVAX (13691000 nAVAX)", formatAVAX(13_691_000))
	require.Equal(t, "0 AVAX (0 nAVAX)", formatAVAX(0))
}
