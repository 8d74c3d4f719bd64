package platform

import (
	"bytes"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/crypto/bls"
	"github.com/cornice-node/cornice/vms/platform/txs"
)

func TestSampleWeighted(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name    string
		weights []uint64
		size    int
		want    []int // counts per index; nil when only the error matters
		err     error
	}{
		{"none", []uint64{3}, 0, []int{0}, nil},
		{"every unit", []uint64{2, 3, 1}, 6, []int{2, 3, 1}, nil},
		{"one heavy validator", []uint64{1 << 60}, 4, []int{4}, nil},
		{"zero weights are never drawn", []uint64{0, 2, 0}, 2, []int{0, 2, 0}, nil},
		{"beyond the weight", []uint64{2, 3}, 6, nil, errInsufficientWeight},
		{"empty", nil, 1, nil, errInsufficientWeight},
		{"overflow", []uint64{math.MaxUint64, 1}, 1, nil, errWeightOverflow},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			idx, err := sampleWeighted(rand.New(rand.NewPCG(1, 2)), tt.weights, tt.size)
			require.ErrorIs(t, err, tt.err)
			if tt.err != nil {
				return
			}
			counts := make([]int, len(tt.weights))
			for _, i := range idx {
				counts[i]++
			}
			require.Equal(t, tt.want, counts)
		})
	}
}

// TestSampleWeightedDeterministic checks that one seed gives one sample, and that draws follow the
// weights: without replacement a unit is drawn at most once.
func TestSampleWeightedDeterministic(t *testing.T) {
	t.Parallel()
	weights := []uint64{1, 10, 100, 1000}
	a, err := sampleWeighted(rand.New(rand.NewPCG(7, 7)), weights, 50)
	require.NoError(t, err)
	b, err := sampleWeighted(rand.New(rand.NewPCG(7, 7)), weights, 50)
	require.NoError(t, err)
	require.Equal(t, a, b)

	r := rand.New(rand.NewPCG(3, 4))
	counts := make([]int, len(weights))
	const rounds = 2000
	for range rounds {
		idx, err := sampleWeighted(r, weights, 2)
		require.NoError(t, err)
		for _, i := range idx {
			counts[i]++
		}
	}
	// Index 0 has 1 unit of 1111: drawn at most once a round, about 2/1111 of the time.
	require.Less(t, counts[0], rounds/50)
	require.Greater(t, counts[3], counts[2])
	require.Greater(t, counts[2], counts[1])
}

// TestCompareWarpKeys checks the compressed-key order against the uncompressed keys' byte order,
// which the reference sorts warp sets by.
func TestCompareWarpKeys(t *testing.T) {
	t.Parallel()
	type key struct {
		compressed   [txs.BLSPublicKeyLen]byte
		uncompressed []byte
	}
	keys := make([]key, 64)
	for i := range keys {
		sk, err := bls.NewSecretKey()
		require.NoError(t, err)
		pk := sk.PublicKey()
		copy(keys[i].compressed[:], pk.Compress())
		keys[i].uncompressed = pk.Bytes()
	}
	byCompressed := slices.Clone(keys)
	slices.SortFunc(byCompressed, func(a, b key) int { return compareWarpKeys(&a.compressed, &b.compressed) })
	byUncompressed := slices.Clone(keys)
	slices.SortFunc(byUncompressed, func(a, b key) int { return bytes.Compare(a.uncompressed, b.uncompressed) })
	require.Equal(t, byUncompressed, byCompressed)

	// One x, both signs: the sign bit decides.
	var lo, hi [txs.BLSPublicKeyLen]byte
	lo[0], hi[0] = 0x85, 0xa5
	require.Negative(t, compareWarpKeys(&lo, &hi))
	require.Zero(t, compareWarpKeys(&lo, &lo))
}
