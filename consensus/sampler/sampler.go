// Package sampler draws the validators a Snowman poll asks: units of stake without replacement,
// so a validator is drawn at most its weight in times and each draw is one vote
// (reference/network-consensus-warp.md §2.2). It is pure: the caller passes the randomness.
//
// A Weighted is safe for concurrent use once made; its Sample calls share nothing but the
// Source each is given.
package sampler

import (
	"errors"
	"fmt"
	"math/bits"
	"sort"
)

// ErrInsufficientWeight refuses a sample of more units than the weights hold. The text is the
// reference's (its validator set's Sample; §2.2).
var ErrInsufficientWeight = errors.New("insufficient weight")

// errWeightOverflow refuses weights whose sum does not fit in 64 bits.
var errWeightOverflow = errors.New("total weight overflows uint64")

// Source gives uniform random numbers; *math/rand/v2.Rand is one.
type Source interface {
	// Uint64N returns a uniform number in [0, n); n > 0.
	Uint64N(n uint64) uint64
}

// Weighted samples from a fixed list of weights.
type Weighted struct {
	// ends[i] is the sum of the weights up to and including i: unit u belongs to the first i
	// with u < ends[i].
	ends []uint64
}

// NewWeighted returns a sampler over weights; index i of a sample is weights[i]'s owner. The
// slice is not kept.
func NewWeighted(weights []uint64) (*Weighted, error) {
	ends := make([]uint64, len(weights))
	var total uint64
	for i, w := range weights {
		var carry uint64
		total, carry = bits.Add64(total, w, 0)
		if carry != 0 {
			return nil, errWeightOverflow
		}
		ends[i] = total
	}
	return &Weighted{ends: ends}, nil
}

// Total returns the sum of the weights.
func (w *Weighted) Total() uint64 {
	if len(w.ends) == 0 {
		return 0
	}
	return w.ends[len(w.ends)-1]
}

// Sample draws k distinct units of weight uniformly and returns the index of each unit's owner,
// so an index appears as many times as its owner was drawn (at most its weight). The order of
// the result says nothing. k above Total is refused with ErrInsufficientWeight.
func (w *Weighted) Sample(src Source, k uint64) ([]int, error) {
	total := w.Total()
	if k > total {
		return nil, fmt.Errorf("sample %d units of %d: %w", k, total, ErrInsufficientWeight)
	}
	// Floyd's algorithm: k draws give k distinct units of [0, total), each k-subset alike.
	units := make(map[uint64]struct{}, k)
	out := make([]int, 0, k)
	for j := total - k; j < total; j++ {
		u := src.Uint64N(j + 1)
		if _, taken := units[u]; taken {
			u = j
		}
		units[u] = struct{}{}
		out = append(out, sort.Search(len(w.ends), func(i int) bool { return u < w.ends[i] }))
	}
	return out, nil
}
