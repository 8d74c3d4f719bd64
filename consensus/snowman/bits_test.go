package snowman

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
)

// The bit order is the reference's ids.ID.Bit: least significant bit of the first byte first.
func TestBitOrder(t *testing.T) {
	id := ids.ID{0x06} // bits 0110 0000 …
	require.Equal(t, []int{0, 1, 1, 0, 0}, []int{bit(id, 0), bit(id, 1), bit(id, 2), bit(id, 3), bit(id, 4)})
	require.Equal(t, 1, bit(ids.ID{31: 0x80}, 255))
}

// firstDifference skips equal bytes; it must agree with a bit-by-bit scan on every range.
func TestFirstDifference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for range 2000 {
		var a, b ids.ID
		for i := range a {
			a[i] = byte(rng.UintN(256))
		}
		b = a
		for range rng.IntN(3) {
			i := rng.IntN(numBits)
			b[i/8] ^= 1 << (i % 8)
		}
		start := rng.IntN(numBits + 1)
		stop := start + rng.IntN(numBits+1-start)
		wantIndex, wantFound := 0, false
		for i := start; i < stop; i++ {
			if bit(a, i) != bit(b, i) {
				wantIndex, wantFound = i, true
				break
			}
		}
		index, found := firstDifference(start, stop, a, b)
		require.Equal(t, wantFound, found)
		require.Equal(t, wantIndex, index)
		require.Equal(t, !wantFound, equalBits(start, stop, a, b))
	}
}
