package main

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestAmountFlag checks that --amount takes AVAX and nAVAX as --stake does.
func TestAmountFlag(t *testing.T) {
	t.Parallel()
	var v uint64
	f := amountFlag{&v}
	for in, want := range map[string]uint64{"1500000000": 1_500_000_000, "1500000000nAVAX": 1_500_000_000, "1.5AVAX": 1_500_000_000} {
		require.NoError(t, f.Set(in))
		require.Equal(t, want, v)
		require.Equal(t, "1500000000", f.String())
	}
	require.ErrorIs(t, f.Set("1.5"), errAmount)
	require.Equal(t, "amount", f.Type())
}
