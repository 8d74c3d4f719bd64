package proposervm

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"math/bits"
	"slices"
	"time"

	"github.com/cornice-node/cornice/ids"
)

// Proposer windows after Durango (network-consensus-warp.md §2.8, `proposer/windower.go`).
const (
	// WindowDuration is the length of one slot: a block's slot is the number of whole windows
	// between its parent's timestamp and its own.
	WindowDuration = 5 * time.Second
	// MaxLookAheadSlots is how far ahead a builder searches for its next slot: one hour.
	MaxLookAheadSlots = 720
	// MaxSkew is how far ahead of the local clock a block's timestamp may be.
	MaxSkew = 10 * time.Second
)

// ErrAnyoneCanPropose is returned by ExpectedProposer for an empty validator set: every node may
// build, and its blocks must be unsigned.
var ErrAnyoneCanPropose = errors.New("anyone can propose")

// errNoSlot is returned by MinDelay when the node owns none of the slots it searches.
var errNoSlot = errors.New("the node is the proposer of no slot within the look-ahead")

// Weighted is one validator and its weight, as the windower samples them.
type Weighted struct {
	NodeID ids.NodeID
	Weight uint64
}

// Windower picks the proposer of each slot of one block: it holds the validator set the block is
// checked against, sorted and laid out for sampling. It is immutable.
type Windower struct {
	chainSource uint64
	height      uint64
	// heap is the sampler's implicit binary heap (children of p at 2p+1 and 2p+2), heaviest
	// first; cumulative[p] is the weight of p's subtree.
	heap       []Weighted
	cumulative []uint64
	total      uint64
}

// NewWindower returns the windower of the block at height blockHeight on chain chainID, whose
// validator set is vs. Validators without a NodeID (inactive ACP-77 validators) are left out and
// the weights of a NodeID listed twice add up; the rest is sorted by NodeID, as the reference does,
// before the stake-weighted sampler is laid out.
func NewWindower(chainID ids.ID, blockHeight uint64, vs []Weighted) *Windower {
	byNode := make(map[ids.NodeID]uint64, len(vs))
	for _, v := range vs {
		if v.NodeID != (ids.NodeID{}) && v.Weight > 0 {
			byNode[v.NodeID] += v.Weight
		}
	}
	sorted := make([]Weighted, 0, len(byNode))
	for id, w := range byNode {
		sorted = append(sorted, Weighted{NodeID: id, Weight: w})
	}
	slices.SortFunc(sorted, func(a, b Weighted) int { return bytes.Compare(a.NodeID[:], b.NodeID[:]) })
	// The heap order: heaviest first, ties in NodeID order (a stable sort of the sorted list).
	heap := slices.Clone(sorted)
	slices.SortStableFunc(heap, func(a, b Weighted) int {
		switch {
		case a.Weight > b.Weight:
			return -1
		case a.Weight < b.Weight:
			return 1
		}
		return 0
	})
	cumulative := make([]uint64, len(heap))
	for i := len(heap) - 1; i >= 0; i-- {
		cumulative[i] = heap[i].Weight
		for _, c := range []int{2*i + 1, 2*i + 2} {
			if c < len(heap) {
				cumulative[i] += cumulative[c]
			}
		}
	}
	w := &Windower{
		chainSource: binary.BigEndian.Uint64(chainID[:8]),
		height:      blockHeight,
		heap:        heap,
		cumulative:  cumulative,
	}
	if len(heap) > 0 {
		w.total = cumulative[0]
	}
	return w
}

// Empty reports whether the set has no validator: anyone may propose.
func (w *Windower) Empty() bool { return w.total == 0 }

// ExpectedProposer returns the proposer of slot, or ErrAnyoneCanPropose for an empty set.
func (w *Windower) ExpectedProposer(slot uint64) (ids.NodeID, error) {
	if w.Empty() {
		return ids.NodeID{}, ErrAnyoneCanPropose
	}
	rng := newMT64(w.chainSource ^ w.height ^ bits.Reverse64(slot))
	return w.sample(uint64Inclusive(rng, w.total-1)), nil
}

// sample returns the validator the uniform draw u (< total) falls on, walking the heap.
func (w *Windower) sample(u uint64) ids.NodeID {
	p := 0
	for {
		if u < w.heap[p].Weight {
			return w.heap[p].NodeID
		}
		u -= w.heap[p].Weight
		p = 2*p + 1 // the left child; the walk stays inside the heap since u < cumulative[p]
		if w.cumulative[p] <= u {
			u -= w.cumulative[p]
			p++ // the right sibling
		}
	}
}

// MinDelay returns how long after its parent nodeID may first propose a block: the start of the
// first slot from startSlot on that nodeID owns, searched MaxLookAheadSlots ahead.
func (w *Windower) MinDelay(nodeID ids.NodeID, startSlot uint64) (time.Duration, error) {
	if w.Empty() {
		return 0, nil
	}
	for slot := startSlot; slot < startSlot+MaxLookAheadSlots; slot++ {
		if p, _ := w.ExpectedProposer(slot); p == nodeID {
			return time.Duration(slot) * WindowDuration, nil
		}
	}
	return 0, errNoSlot
}

// Slot returns the slot a block at time ts falls in, for a parent at parentTime: the number of
// whole windows between them, 0 for a block not after its parent.
func Slot(parentTime, ts time.Time) uint64 {
	if !ts.After(parentTime) {
		return 0
	}
	return uint64(ts.Sub(parentTime) / WindowDuration)
}

// uint64Inclusive draws uniformly from [0, n] as the reference's sampler source does (gonum's
// rejection sampling over 63-bit outputs), so that every node draws the same proposer.
func uint64Inclusive(rng *mt64, n uint64) uint64 {
	switch {
	case n&(n+1) == 0: // n+1 is a power of two, or n is MaxUint64
		return rng.next() & n
	case n > math.MaxInt64:
		v := rng.next()
		for v > n {
			v = rng.next()
		}
		return v
	}
	limit := uint64(math.MaxInt64) - (uint64(1)<<63)%(n+1)
	v := rng.next() & math.MaxInt64
	for v > limit {
		v = rng.next() & math.MaxInt64
	}
	return v % (n + 1)
}

// mt64 is the 64-bit Mersenne Twister MT19937-64 (Matsumoto and Nishimura, 2004), seeded as
// init_genrand64 does: the generator the reference's windower draws from.
type mt64 struct {
	mt  [mtN]uint64
	idx int
}

const (
	mtN       = 312
	mtM       = 156
	mtMatrixA = 0xB5026F5AA96619E9
	mtUpper   = 0xFFFFFFFF80000000
	mtLower   = 0x7FFFFFFF
)

func newMT64(seed uint64) *mt64 {
	r := &mt64{idx: mtN}
	r.mt[0] = seed
	for i := 1; i < mtN; i++ {
		r.mt[i] = 6364136223846793005*(r.mt[i-1]^(r.mt[i-1]>>62)) + uint64(i)
	}
	return r
}

func (r *mt64) next() uint64 {
	if r.idx >= mtN {
		r.twist()
	}
	x := r.mt[r.idx]
	r.idx++
	x ^= (x >> 29) & 0x5555555555555555
	x ^= (x << 17) & 0x71D67FFFEDA60000
	x ^= (x << 37) & 0xFFF7EEE000000000
	return x ^ (x >> 43)
}

func (r *mt64) twist() {
	mix := func(i, j, k int) {
		x := (r.mt[i] & mtUpper) | (r.mt[j] & mtLower)
		v := r.mt[k] ^ (x >> 1)
		if x&1 == 1 {
			v ^= mtMatrixA
		}
		r.mt[i] = v
	}
	for i := 0; i < mtN-1; i++ {
		mix(i, i+1, (i+mtM)%mtN)
	}
	mix(mtN-1, 0, mtM-1)
	r.idx = 0
}
