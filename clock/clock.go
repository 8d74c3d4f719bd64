// Package clock is the one source of time for cornice: every component that reads the time or waits
// takes a Clock, so tests can run on synctest's virtual time and time travel can move block
// timestamps and upgrades.
//
// A Clock is safe for concurrent use.
package clock

import (
	"context"
	"time"
)

// Clock tells the time and makes timers. Real is the production implementation; tests use Real
// inside testing/synctest bubbles, where time is virtual.
type Clock interface {
	// Now returns the current time.
	Now() time.Time
	// Since returns the time elapsed since t, Now().Sub(t). Real reads only the monotonic
	// clock, one clock read where Now takes two (wall and monotonic).
	Since(t time.Time) time.Duration
	// NewTimer returns a timer that fires once after d.
	NewTimer(d time.Duration) *time.Timer
	// AfterFunc calls f in its own goroutine after d.
	AfterFunc(d time.Duration, f func()) *time.Timer
}

// Real is the wall clock.
type Real struct{}

var _ Clock = Real{}

// Now returns time.Now().
func (Real) Now() time.Time { return time.Now() }

// Since returns time.Since(t).
func (Real) Since(t time.Time) time.Duration { return time.Since(t) }

// NewTimer returns time.NewTimer(d).
func (Real) NewTimer(d time.Duration) *time.Timer { return time.NewTimer(d) }

// AfterFunc returns time.AfterFunc(d, f).
func (Real) AfterFunc(d time.Duration, f func()) *time.Timer { return time.AfterFunc(d, f) }

// Sleep waits d on c, or until ctx is done, and then returns ctx's error.
func Sleep(ctx context.Context, c Clock, d time.Duration) error {
	t := c.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
