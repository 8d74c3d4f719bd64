package platform

import (
	crand "crypto/rand"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"sort"
)

// newSeededSource returns a ChaCha8 source seeded from crypto/rand: the default sampler source of
// a VM (Factory.Rand).
func newSeededSource() (rand.Source, error) {
	var seed [32]byte
	if _, err := crand.Read(seed[:]); err != nil {
		return nil, fmt.Errorf("platform: seed the validator sampler: %w", err)
	}
	return rand.NewChaCha8(seed), nil
}

// sampleWeighted draws size units of weight uniformly without replacement from the total weight
// of weights (unit u of validator i is one of its weights[i] units) and returns the index of the
// validator owning each unit drawn, as the reference's weighted-without-replacement sampler does:
// a validator appears once per unit drawn, so a heavy one may appear several times. It fails with
// errInsufficientWeight when size exceeds the total weight and errWeightOverflow when the total
// does not fit in a uint64. r must not be used concurrently.
func sampleWeighted(r *rand.Rand, weights []uint64, size int) ([]int, error) {
	cum := make([]uint64, len(weights))
	var total uint64
	for i, w := range weights {
		var carry uint64
		total, carry = bits.Add64(total, w, 0)
		if carry != 0 {
			return nil, errWeightOverflow
		}
		cum[i] = total
	}
	if size < 0 || uint64(size) > total {
		return nil, errInsufficientWeight
	}
	// Floyd's algorithm: a uniform size-subset of [0, total) in size draws.
	chosen := make(map[uint64]struct{}, size)
	out := make([]int, 0, size)
	for j := total - uint64(size); j < total; j++ {
		t := r.Uint64N(j + 1)
		if _, dup := chosen[t]; dup {
			t = j
		}
		chosen[t] = struct{}{}
		out = append(out, sort.Search(len(cum), func(i int) bool { return cum[i] > t }))
	}
	return out, nil
}
