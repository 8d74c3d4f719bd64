package snowman

import (
	"errors"
	"fmt"
	"time"
)

// Parameters are Snowman's parameters (network-consensus-warp.md §2.1). The field names are the
// reference's; the flags that set them are in config (--snow-sample-size and the rest).
type Parameters struct {
	// K is the number of stake units sampled for each poll.
	K int
	// AlphaPreference (αp) is the number of votes a child needs, counted transitively, for a
	// poll to move its parent's preference to it.
	AlphaPreference int
	// AlphaConfidence (αc) is the number of votes a poll needs to count toward Beta.
	AlphaConfidence int
	// Beta (β) is the number of consecutive successful polls that finalize an instance.
	Beta int
	// ConcurrentRepolls is the number of polls the engine keeps in flight while anything is
	// processing.
	ConcurrentRepolls int
	// OptimalProcessing: the engine builds no block while this many are processing.
	OptimalProcessing int
	// MaxOutstandingItems: health reports unhealthy above this many processing blocks.
	MaxOutstandingItems int
	// MaxItemProcessingTime: health reports unhealthy when a block processes longer than this.
	MaxItemProcessingTime time.Duration
}

// DefaultParameters returns the reference's defaults: K=20, αp=αc=15, β=20, 4 concurrent polls,
// optimal processing 10, 256 outstanding items and 30 s.
func DefaultParameters() Parameters {
	return Parameters{
		K:                     20,
		AlphaPreference:       15,
		AlphaConfidence:       15,
		Beta:                  20,
		ConcurrentRepolls:     4,
		OptimalProcessing:     10,
		MaxOutstandingItems:   256,
		MaxItemProcessingTime: 30 * time.Second,
	}
}

// Verify reports every condition p breaks, joined, each wrapping ErrParametersInvalid with the
// reference's text: K/2 < αp ≤ αc ≤ K, 0 < ConcurrentRepolls ≤ β, and OptimalProcessing,
// MaxOutstandingItems and MaxItemProcessingTime above 0. (K/2 < αp also keeps αp and K above 0.)
// The duration is printed in nanoseconds, as the reference prints it.
func (p Parameters) Verify() error {
	var errs []error
	fail := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("%w: "+format, append([]any{ErrParametersInvalid}, args...)...))
	}
	if p.AlphaPreference <= p.K/2 {
		fail("k = %d, alphaPreference = %d: %w", p.K, p.AlphaPreference, errAlphaPreferenceNotAboveHalfK)
	}
	if p.AlphaConfidence < p.AlphaPreference {
		fail("alphaPreference = %d, alphaConfidence = %d: %w", p.AlphaPreference, p.AlphaConfidence, errAlphaConfidenceBelowAlphaPreference)
	}
	if p.K < p.AlphaConfidence {
		fail("k = %d, alphaConfidence = %d: %w", p.K, p.AlphaConfidence, errAlphaConfidenceAboveK)
	}
	if p.ConcurrentRepolls <= 0 {
		fail("concurrentRepolls = %d: %w", p.ConcurrentRepolls, errConcurrentRepollsNotPositive)
	}
	if p.ConcurrentRepolls > p.Beta {
		fail("concurrentRepolls = %d, beta = %d: %w", p.ConcurrentRepolls, p.Beta, errConcurrentRepollsAboveBeta)
	}
	if p.OptimalProcessing <= 0 {
		fail("optimalProcessing = %d: %w", p.OptimalProcessing, errOptimalProcessingNotPositive)
	}
	if p.MaxOutstandingItems <= 0 {
		fail("maxOutstandingItems = %d: %w", p.MaxOutstandingItems, errMaxOutstandingItemsNotPositive)
	}
	if p.MaxItemProcessingTime <= 0 {
		fail("maxItemProcessingTime = %d: %w", int64(p.MaxItemProcessingTime), errMaxItemProcessingTimeNotPositive)
	}
	return errors.Join(errs...)
}

// ForWeight returns the parameters to poll a validator set of totalWeight stake units with.
// When the total is at least K they are p. Below K, sampling K units without replacement is
// impossible, and the reference drops every query, so the chain never accepts anything
// (§2.2, the small-network trap). cornice caps K at the total, so that every poll samples every
// unit; αc keeps its share of the sample, rounded up (with the defaults, 15 of 20: five units
// give αc = 4), and αp becomes a bare majority. A poll of every unit has no chance in it, so a
// split vote would otherwise last for ever (three units against two never reach an αp of 4);
// with a majority, the side of three moves the other, and the snowball tree always finds a bit
// where one side has a majority. The values keep K/2 < αp ≤ αc ≤ K. A total of 0 gives K = 0:
// there is no one to poll. p must be valid.
func (p Parameters) ForWeight(totalWeight uint64) Parameters {
	if totalWeight >= uint64(p.K) {
		return p
	}
	w := int(totalWeight)
	q := p
	q.K = w
	q.AlphaPreference = w/2 + 1
	q.AlphaConfidence = max(q.AlphaPreference, (p.AlphaConfidence*w+p.K-1)/p.K)
	if w == 0 {
		q.AlphaPreference, q.AlphaConfidence = 0, 0
	}
	return q
}
