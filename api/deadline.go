package api

import (
	"context"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cornice-node/cornice/clock"
)

// deadlineCtx is a request's context: its parent's values and cancellation, and a deadline. It
// arms no timer until something asks for Done: most calls (info.*) never do, and a timer per
// request, set and stopped under the runtime's timer locks, cost about a twentieth of the CPU an
// info.getNodeVersion call costs the node (docs/benchmarks.md). Until then Err compares the clock
// with the deadline, so a loop that checks ctx.Err() stops at the deadline all the same. The
// context package sees, once Done was called, an ordinary context.WithDeadline: children derived
// from it are cancelled through it as usual.
type deadlineCtx struct {
	parent   context.Context
	deadline time.Time
	clock    clock.Clock

	once sync.Once
	// armed is the context.WithDeadline made by the first Done; nil before.
	armed  atomic.Pointer[armedCtx]
	cancel context.CancelFunc // set with armed; released by release
}

// armedCtx wraps the armed context, so that it can live in an atomic.Pointer.
type armedCtx struct{ context.Context }

// withDeadline returns ctx with parent's values and cancellation and the deadline, and the
// function that releases its resources, to call when the request is done. The caller passes the
// deadline rather than a duration because it has read the clock already: a clock read is a
// visible share of a light call's CPU.
func withDeadline(parent context.Context, clk clock.Clock, deadline time.Time) (*deadlineCtx, func()) {
	c := &deadlineCtx{parent: parent, deadline: deadline, clock: clk}
	return c, c.release
}

// Deadline returns the request's deadline.
func (c *deadlineCtx) Deadline() (time.Time, bool) { return c.deadline, true }

// Done arms the deadline on first use and returns the channel closed when it passes or the parent
// is done.
func (c *deadlineCtx) Done() <-chan struct{} {
	c.once.Do(func() {
		ctx, cancel := context.WithDeadline(c.parent, c.deadline)
		c.cancel = cancel
		c.armed.Store(&armedCtx{ctx})
	})
	return c.armed.Load().Done()
}

// Err returns context.DeadlineExceeded once the deadline has passed, the parent's error once it
// is done, and nil before.
func (c *deadlineCtx) Err() error {
	if a := c.armed.Load(); a != nil {
		return a.Err()
	}
	if err := c.parent.Err(); err != nil {
		return err
	}
	if !c.clock.Now().Before(c.deadline) {
		return context.DeadlineExceeded
	}
	return nil
}

// Value returns the parent's values; once armed, the armed context answers, so that the context
// package finds its own cancelCtx there and registers children with it.
func (c *deadlineCtx) Value(key any) any {
	if a := c.armed.Load(); a != nil {
		return a.Value(key)
	}
	return c.parent.Value(key)
}

// release stops the armed timer, if any.
func (c *deadlineCtx) release() {
	if c.armed.Load() != nil {
		c.cancel()
	}
}

// Instant marks h as a handler every call of which answers at once, from memory or from reads
// that never wait (info.*): its requests get no deadline context of their own. That spares the
// two allocations a request a deadline costs (the context, and net/http's copy of the request
// that carries it), about a tenth of what the node spends beside a bare server on such a call
// (docs/benchmarks.md). The server's read and write timeouts still bound the connection, and the
// request's context is still cancelled when the client goes away. A handler that may wait (for a
// lock, a heavy-call slot, a peer or a long scan) must not be marked. Aliases of its route keep
// the mark.
func Instant(h http.Handler) http.Handler { return instant{h} }

// instant is a handler marked by Instant.
type instant struct{ http.Handler }
