package router

import (
	"math"
	"sync"
	"time"

	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
)

// The benchlist of the reference v1.14.2 (network-consensus-warp.md §1.9): per chain, each peer's
// failure probability is an average of its requests' outcomes (a timeout 1, an answer 0) that
// halves its memory every half-life; a peer above benchProbability is benched on that chain until
// it falls below unbenchProbability or benchDuration passes.
const (
	benchHalfLife      = time.Minute
	benchProbability   = 0.5
	unbenchProbability = 0.2
	benchDuration      = 5 * time.Minute
	// maxBenchedPortion is the most of a chain's validator weight benched at once: (1 − αc/K)/3
	// with the default αc = 15 and K = 20, so a quorum stays reachable.
	maxBenchedPortion = (1 - 15.0/20) / 3
)

// Weights gives a chain's validator weights to the benchlist: nodeID's weight in the set of the
// chain's subnet, and the set's total. Only validators (weight above 0) are benched.
type Weights func(chainID ids.ID, nodeID ids.NodeID) (weight, total uint64)

// failureRate is a time-weighted average of outcomes: an observation's weight halves every
// half-life. It starts at 0 with the weight of one observation, so one timeout alone never
// benches a peer.
type failureRate struct {
	sum, norm float64
	at        time.Time
}

func newFailureRate(now time.Time) failureRate { return failureRate{norm: 1, at: now} }

func (f *failureRate) observe(x float64, now time.Time) {
	decay := 1.0
	if d := now.Sub(f.at); d > 0 {
		decay = math.Exp2(-d.Seconds() / benchHalfLife.Seconds())
	}
	f.sum = x + decay*f.sum
	f.norm = 1 + decay*f.norm
	f.at = now
}

func (f *failureRate) value() float64 { return f.sum / f.norm }

// benchEntry is one peer on one chain.
type benchEntry struct {
	rate    failureRate
	weight  uint64
	benched bool
	// unbench ends the bench after benchDuration.
	unbench *time.Timer
}

// benchlist holds every chain's benched peers.
type benchlist struct {
	clk     clock.Clock
	weights Weights

	mu     sync.Mutex
	chains map[ids.ID]map[ids.NodeID]*benchEntry
}

func newBenchlist(clk clock.Clock, weights Weights) *benchlist {
	return &benchlist{clk: clk, weights: weights, chains: make(map[ids.ID]map[ids.NodeID]*benchEntry)}
}

// observe records a request's outcome and reports whether nodeID was benched (+1) or unbenched
// (−1) on chainID by it, 0 if neither. onExpire is called when a bench runs out, with the same
// arguments, unless an observation ended it first.
func (b *benchlist) observe(chainID ids.ID, nodeID ids.NodeID, timedOut bool, onExpire func(ids.ID, ids.NodeID)) int {
	weight, total := uint64(1), uint64(0)
	if b.weights != nil {
		weight, total = b.weights(chainID, nodeID)
		if weight == 0 {
			return 0
		}
	}
	now := b.clk.Now()
	b.mu.Lock()
	defer b.mu.Unlock()
	peers := b.chains[chainID]
	if peers == nil {
		peers = make(map[ids.NodeID]*benchEntry)
		b.chains[chainID] = peers
	}
	e := peers[nodeID]
	if e == nil {
		e = &benchEntry{rate: newFailureRate(now)}
		peers[nodeID] = e
	}
	e.weight = weight
	x := 0.0
	if timedOut {
		x = 1
	}
	e.rate.observe(x, now)
	p := e.rate.value()
	switch {
	case e.benched && p < unbenchProbability:
		e.benched = false
		e.unbench.Stop()
		return -1
	case !e.benched && p > benchProbability && b.roomLocked(peers, weight, total):
		e.benched = true
		e.unbench = b.clk.AfterFunc(benchDuration, func() {
			if b.expire(chainID, nodeID, e) {
				onExpire(chainID, nodeID)
			}
		})
		return 1
	}
	return 0
}

// roomLocked reports whether weight more benched stays within maxBenchedPortion of total; with no
// weights every peer counts 1 and there is no cap. Assumes b.mu is held.
func (b *benchlist) roomLocked(peers map[ids.NodeID]*benchEntry, weight, total uint64) bool {
	if b.weights == nil {
		return true
	}
	benched := weight
	for _, e := range peers {
		if e.benched {
			benched += e.weight
		}
	}
	return float64(benched) <= maxBenchedPortion*float64(total)
}

// expire ends e's bench after benchDuration, with a fresh failure rate, as the reference's
// timeout path does; false if it ended already.
func (b *benchlist) expire(chainID ids.ID, nodeID ids.NodeID, e *benchEntry) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.chains[chainID][nodeID] != e || !e.benched {
		return false
	}
	e.benched = false
	e.rate = newFailureRate(b.clk.Now())
	return true
}

// isBenched reports whether nodeID is benched on chainID.
func (b *benchlist) isBenched(chainID ids.ID, nodeID ids.NodeID) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	e := b.chains[chainID][nodeID]
	return e != nil && e.benched
}

// benchedOn returns the chains nodeID is benched on.
func (b *benchlist) benchedOn(nodeID ids.NodeID) []ids.ID {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []ids.ID
	for chainID, peers := range b.chains {
		if e := peers[nodeID]; e != nil && e.benched {
			out = append(out, chainID)
		}
	}
	return out
}

// forget drops chainID's entries (the chain is gone).
func (b *benchlist) forget(chainID ids.ID) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, e := range b.chains[chainID] {
		if e.benched {
			e.unbench.Stop()
		}
	}
	delete(b.chains, chainID)
}
