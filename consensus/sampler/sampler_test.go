package sampler_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/consensus/sampler"
)

func count(idx []int) map[int]int {
	m := make(map[int]int)
	for _, i := range idx {
		m[i]++
	}
	return m
}

// The cases the reference's harness checked (§0 (a), §2.2): a total below K is refused; a lone
// validator of weight ≥ K is drawn K times.
func TestSampleSmallNetworks(t *testing.T) {
	src := rand.New(rand.NewPCG(1, 2))
	tests := []struct {
		name    string
		weights []uint64
		k       uint64
		want    map[int]int
		wantErr error
	}{
		{"weight 1, k 20", []uint64{1}, 20, nil, sampler.ErrInsufficientWeight},
		{"weight 19, k 20", []uint64{19}, 20, nil, sampler.ErrInsufficientWeight},
		{"five of weight 3, k 20", []uint64{3, 3, 3, 3, 3}, 20, nil, sampler.ErrInsufficientWeight},
		{"weight 20, k 20", []uint64{20}, 20, map[int]int{0: 20}, nil},
		{"weight 100, k 20", []uint64{100}, 20, map[int]int{0: 20}, nil},
		{"every unit", []uint64{2, 0, 3}, 5, map[int]int{0: 2, 2: 3}, nil},
		{"nothing", nil, 0, map[int]int{}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, err := sampler.NewWeighted(tt.weights)
			require.NoError(t, err)
			got, err := w.Sample(src, tt.k)
			require.ErrorIs(t, err, tt.wantErr)
			if tt.wantErr == nil {
				require.Equal(t, tt.want, count(got))
			}
		})
	}
}

func TestSampleNeverExceedsWeight(t *testing.T) {
	src := rand.New(rand.NewPCG(3, 4))
	weights := []uint64{1, 2, 0, 5, 1, 7}
	w, err := sampler.NewWeighted(weights)
	require.NoError(t, err)
	require.Equal(t, uint64(16), w.Total())
	for range 1000 {
		got, err := w.Sample(src, 12)
		require.NoError(t, err)
		require.Len(t, got, 12)
		for i, n := range count(got) {
			require.LessOrEqual(t, uint64(n), weights[i])
		}
	}
}

// Each unit is equally likely, so a validator's expected share of a sample is its share of the
// weight. 20,000 samples of 4 units of 10: each unit is drawn with probability 0.4, so the
// validator of weight 5 is drawn 40,000 times on average; the bounds are far outside chance.
func TestSampleIsProportional(t *testing.T) {
	src := rand.New(rand.NewPCG(5, 6))
	w, err := sampler.NewWeighted([]uint64{5, 3, 2})
	require.NoError(t, err)
	totals := make(map[int]int)
	for range 20_000 {
		got, err := w.Sample(src, 4)
		require.NoError(t, err)
		for i, n := range count(got) {
			totals[i] += n
		}
	}
	require.InDelta(t, 40_000, totals[0], 1_500)
	require.InDelta(t, 24_000, totals[1], 1_500)
	require.InDelta(t, 16_000, totals[2], 1_500)
}

func TestHugeWeights(t *testing.T) {
	_, err := sampler.NewWeighted([]uint64{math.MaxUint64, 1})
	require.Error(t, err)

	src := rand.New(rand.NewPCG(7, 8))
	w, err := sampler.NewWeighted([]uint64{math.MaxUint64 / 2, math.MaxUint64 / 2})
	require.NoError(t, err)
	got, err := w.Sample(src, 20)
	require.NoError(t, err)
	require.Len(t, got, 20)
}
