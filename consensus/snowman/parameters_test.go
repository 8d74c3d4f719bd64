package snowman_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/consensus/snowman"
)

func TestDefaultParameters(t *testing.T) {
	p := snowman.DefaultParameters()
	require.Equal(t, snowman.Parameters{K: 20, AlphaPreference: 15, AlphaConfidence: 15, Beta: 20,
		ConcurrentRepolls: 4, OptimalProcessing: 10, MaxOutstandingItems: 256,
		MaxItemProcessingTime: 30 * time.Second}, p)
	require.NoError(t, p.Verify())
}

// The texts are the reference's (snow/consensus/snowball/parameters.go), every broken
// condition reported.
func TestVerifyTexts(t *testing.T) {
	valid := snowman.DefaultParameters()
	tests := []struct {
		name   string
		change func(*snowman.Parameters)
		want   string
	}{
		{"alphaPreference at half k", func(p *snowman.Parameters) { p.AlphaPreference = 10 },
			"parameters invalid: k = 20, alphaPreference = 10: fails the condition that: k/2 < alphaPreference"},
		{"alphaConfidence below alphaPreference", func(p *snowman.Parameters) { p.AlphaConfidence = 14 },
			"parameters invalid: alphaPreference = 15, alphaConfidence = 14: fails the condition that: alphaPreference <= alphaConfidence"},
		{"alphaConfidence above k", func(p *snowman.Parameters) { p.AlphaConfidence = 21 },
			"parameters invalid: k = 20, alphaConfidence = 21: fails the condition that: alphaConfidence <= k"},
		{"concurrentRepolls 0", func(p *snowman.Parameters) { p.ConcurrentRepolls = 0 },
			"parameters invalid: concurrentRepolls = 0: fails the condition that: 0 < concurrentRepolls"},
		{"concurrentRepolls above beta", func(p *snowman.Parameters) { p.ConcurrentRepolls = 21 },
			"parameters invalid: concurrentRepolls = 21, beta = 20: fails the condition that: concurrentRepolls <= beta"},
		{"optimalProcessing 0", func(p *snowman.Parameters) { p.OptimalProcessing = 0 },
			"parameters invalid: optimalProcessing = 0: fails the condition that: 0 < optimalProcessing"},
		{"maxOutstandingItems 0", func(p *snowman.Parameters) { p.MaxOutstandingItems = 0 },
			"parameters invalid: maxOutstandingItems = 0: fails the condition that: 0 < maxOutstandingItems"},
		{"maxItemProcessingTime negative", func(p *snowman.Parameters) { p.MaxItemProcessingTime = -time.Second },
			"parameters invalid: maxItemProcessingTime = -1000000000: fails the condition that: 0 < maxItemProcessingTime"},
		{"k 0 and beta 0", func(p *snowman.Parameters) { p.K, p.Beta = 0, 0 },
			"parameters invalid: k = 0, alphaConfidence = 15: fails the condition that: alphaConfidence <= k\n" +
				"parameters invalid: concurrentRepolls = 4, beta = 0: fails the condition that: concurrentRepolls <= beta"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := valid
			tt.change(&p)
			err := p.Verify()
			require.ErrorIs(t, err, snowman.ErrParametersInvalid)
			require.EqualError(t, err, tt.want)
		})
	}
}

// Below K units of weight, K is capped at the weight, αp is a majority and αc keeps its share
// (§2.2, the small-network trap).
func TestForWeight(t *testing.T) {
	p := snowman.DefaultParameters()
	tests := []struct {
		weight            uint64
		k, alphaP, alphaC int
	}{
		{20, 20, 15, 15},
		{1 << 40, 20, 15, 15},
		{19, 19, 10, 15},
		{5, 5, 3, 4},
		{4, 4, 3, 3},
		{3, 3, 2, 3},
		{2, 2, 2, 2},
		{1, 1, 1, 1},
	}
	for _, tt := range tests {
		q := p.ForWeight(tt.weight)
		require.Equal(t, [3]int{tt.k, tt.alphaP, tt.alphaC}, [3]int{q.K, q.AlphaPreference, q.AlphaConfidence}, "weight %d", tt.weight)
		require.Equal(t, p.Beta, q.Beta)
		require.NoError(t, q.Verify(), "weight %d", tt.weight)
	}

	split := p
	split.AlphaPreference, split.AlphaConfidence = 11, 18
	for w := uint64(1); w < 20; w++ {
		require.NoError(t, split.ForWeight(w).Verify(), "weight %d", w)
	}
	require.Zero(t, p.ForWeight(0).K, "no weight, no one to poll")
}
