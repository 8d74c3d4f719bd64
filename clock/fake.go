package clock

import (
	"sync"
	"time"
)

// Fake is a clock whose time only moves when told to. Its timers come from the real runtime, so use
// it for reading the time (block timestamps, acceptance times); use Real inside synctest for waits.
type Fake struct {
	mu  sync.Mutex // guards now
	now time.Time
}

var _ Clock = (*Fake)(nil)

// NewFake returns a Fake clock that reads t.
func NewFake(t time.Time) *Fake { return &Fake{now: t} }

// Now returns the fake time.
func (f *Fake) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

// Since returns the fake time elapsed since t.
func (f *Fake) Since(t time.Time) time.Duration { return f.Now().Sub(t) }

// Set moves the fake time to t.
func (f *Fake) Set(t time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.now = t
}

// Advance moves the fake time forward by d.
func (f *Fake) Advance(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.now = f.now.Add(d)
}

// NewTimer returns a real timer: see the type's doc.
func (f *Fake) NewTimer(d time.Duration) *time.Timer { return time.NewTimer(d) }

// AfterFunc returns a real timer: see the type's doc.
func (f *Fake) AfterFunc(d time.Duration, fn func()) *time.Timer { return time.AfterFunc(d, fn) }
