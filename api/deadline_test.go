package api

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/clock"
)

type testKey struct{}

func TestDeadlineCtxBeforeDone(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clk := clock.NewFake(start)
	parent := context.WithValue(t.Context(), testKey{}, "v")
	ctx, release := withDeadline(parent, clk, start.Add(30*time.Second))
	defer release()

	d, ok := ctx.Deadline()
	require.True(t, ok)
	require.Equal(t, start.Add(30*time.Second), d)
	require.Equal(t, "v", ctx.Value(testKey{}))
	require.NoError(t, ctx.Err())
	// Without Done, Err follows the clock: a loop checking ctx.Err() stops at the deadline.
	clk.Advance(30 * time.Second)
	require.ErrorIs(t, ctx.Err(), context.DeadlineExceeded)
	require.Nil(t, ctx.armed.Load(), "no timer was armed")
}

func TestDeadlineCtxParentCancelled(t *testing.T) {
	t.Parallel()
	parent, cancel := context.WithCancel(t.Context())
	ctx, release := withDeadline(parent, clock.Real{}, time.Now().Add(time.Hour))
	defer release()
	child, stop := context.WithCancel(ctx) // arms the deadline: the context package calls Done
	defer stop()
	cancel()
	<-ctx.Done()
	<-child.Done()
	require.ErrorIs(t, ctx.Err(), context.Canceled)
	require.ErrorIs(t, child.Err(), context.Canceled)
	require.Equal(t, parent.Value(testKey{}), ctx.Value(testKey{}))
}

func TestDeadlineCtxArmed(t *testing.T) {
	t.Parallel()
	ctx, release := withDeadline(t.Context(), clock.Real{}, time.Now().Add(time.Millisecond))
	defer release()
	<-ctx.Done() // closed by the armed timer
	require.ErrorIs(t, ctx.Err(), context.DeadlineExceeded)

	// Released before its deadline, an armed context's timer is stopped.
	ctx, release = withDeadline(t.Context(), clock.Real{}, time.Now().Add(time.Hour))
	done := ctx.Done()
	release()
	<-done
	require.ErrorIs(t, ctx.Err(), context.Canceled)
}

// TestDispatchDeadlineFromEpoch: the dispatcher dates a request from its epoch and the clock's time
// since, so its deadline is the moment it came plus the timeout.
func TestDispatchDeadlineFromEpoch(t *testing.T) {
	t.Parallel()
	epoch := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clk := clock.NewFake(epoch)
	m, err := newMetrics(nil)
	require.NoError(t, err)
	rt := newRouter()
	var got time.Time
	require.NoError(t, rt.add("d", http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		got, _ = r.Context().Deadline()
	})))
	d := &dispatch{router: rt, metrics: m, log: slog.New(slog.DiscardHandler), clock: clk, epoch: epoch, deadline: time.Minute}
	clk.Advance(5 * time.Hour)
	d.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/ext/d", nil))
	require.Equal(t, epoch.Add(5*time.Hour+time.Minute), got)
}
