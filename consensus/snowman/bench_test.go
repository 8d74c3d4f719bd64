package snowman_test

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/cornice-node/cornice/consensus/sampler"
	"github.com/cornice-node/cornice/consensus/snowman"
)

// BenchmarkRecordPoll records, with the default parameters, a poll of K votes for the tip of a
// chain of n processing blocks each with a conflicting sibling (2n blocks processing): the work
// a poll does while blocks pile up. β is raised so that nothing is ever accepted.
func BenchmarkRecordPoll(b *testing.B) {
	for _, n := range []int{1, 10, 100} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			p := snowman.DefaultParameters()
			p.Beta = 1 << 30
			c, err := snowman.New(p, genesis.ID, genesis.Height)
			if err != nil {
				b.Fatal(err)
			}
			var ch chain
			tip := genesis
			for range n {
				next, sibling := ch.child(tip), ch.child(tip)
				if err := c.Add(next); err != nil {
					b.Fatal(err)
				}
				if err := c.Add(sibling); err != nil {
					b.Fatal(err)
				}
				tip = next
			}
			var votes snowman.Votes
			votes.Add(tip.ID, p.K)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.RecordPoll(votes); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSample draws K = 20 units from n validators of random stake.
func BenchmarkSample(b *testing.B) {
	for _, n := range []int{5, 100, 2000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 2))
			ws := make([]uint64, n)
			for i := range ws {
				ws[i] = 1 + rng.Uint64N(1<<40)
			}
			w, err := sampler.NewWeighted(ws)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := w.Sample(rng, 20); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
