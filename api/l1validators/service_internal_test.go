package l1validators

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestPercentage(t *testing.T) {
	t.Parallel()
	const start = 1_000
	at := time.Unix(start+100, 0)
	tests := []struct {
		name  string
		up    time.Duration
		at    time.Time
		start uint64
		want  float32
	}{
		{name: "always up", up: 100 * time.Second, at: at, start: start, want: 100},
		{name: "half up", up: 50 * time.Second, at: at, start: start, want: 50},
		{name: "never up", at: at, start: start, want: 0},
		{name: "no time passed", at: time.Unix(start, 0), start: start, want: 100},
		// The reference divides by a negative duration here (l1-evm.md §2.4).
		{name: "start in the future", up: time.Second, at: at, start: start + 200, want: 100},
		{name: "start beyond int64", at: at, start: math.MaxUint64, want: 100},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.InDelta(t, tt.want, percentage(tt.up, tt.at, tt.start), 1e-4)
		})
	}
}
