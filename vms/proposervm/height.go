package proposervm

import (
	"sync"
	"time"
)

// How far back HeightWindow looks: the reference's recently accepted window
// (vms/platformvm/validators/manager.go, GetMinimumHeight).
const (
	recentTTL  = 30 * time.Second
	recentSize = 64
)

// HeightWindow gives the P-Chain height a new block pins: the height just before the oldest
// P-Chain block accepted in the last 30 s (or the last 64 blocks), or the current height when none
// was. Pinning a slightly old height lets every validator, even one a few blocks behind, verify
// the block at once (§2.8). It is safe for concurrent use.
type HeightWindow struct {
	mu sync.Mutex // guards recent
	// recent are the P-Chain blocks accepted lately, oldest first.
	recent []accepted
}

type accepted struct {
	height uint64
	at     time.Time
}

// Accepted records that the P-Chain accepted the block at height at time at.
func (w *HeightWindow) Accepted(height uint64, at time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.recent = append(w.recent, accepted{height: height, at: at})
	if len(w.recent) > recentSize {
		w.recent = append(w.recent[:0], w.recent[len(w.recent)-recentSize:]...)
	}
}

// Minimum returns the height a block built at now pins at least, current being the P-Chain's
// height.
func (w *HeightWindow) Minimum(now time.Time, current uint64) uint64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	i := 0
	for i < len(w.recent) && now.Sub(w.recent[i].at) > recentTTL {
		i++
	}
	w.recent = w.recent[i:]
	if len(w.recent) == 0 {
		return current
	}
	return min(max(w.recent[0].height, 1)-1, current)
}
