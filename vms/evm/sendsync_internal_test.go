package evm

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestTxSyncTimeout(t *testing.T) {
	t.Parallel()
	ms := func(v uint64) *uint64 { return &v }
	tests := []struct {
		name      string
		timeoutMs *uint64
		want      time.Duration
	}{
		{name: "omitted", want: txSyncDefaultTimeout},
		{name: "zero", timeoutMs: ms(0), want: txSyncDefaultTimeout},
		{name: "one", timeoutMs: ms(1), want: time.Millisecond},
		{name: "below the maximum", timeoutMs: ms(59_999), want: 59_999 * time.Millisecond},
		{name: "the maximum", timeoutMs: ms(60_000), want: txSyncMaxTimeout},
		{name: "above the maximum", timeoutMs: ms(600_000), want: txSyncMaxTimeout},
		// time.Duration(ms)*time.Millisecond wraps around to a negative wait.
		{name: "too large for a duration", timeoutMs: ms(math.MaxInt64/1_000_000 + 1), want: txSyncMaxTimeout},
		{name: "largest", timeoutMs: ms(math.MaxUint64), want: txSyncMaxTimeout},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tt.want, txSyncTimeout(tt.timeoutMs))
		})
	}
}
