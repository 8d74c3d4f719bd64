package clock

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"
)

func TestFakeMovesOnlyWhenTold(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)
	c := NewFake(start)
	require.Equal(t, start, c.Now())
	c.Advance(time.Second)
	require.Equal(t, start.Add(time.Second), c.Now())
	c.Set(start)
	require.Equal(t, start, c.Now())
}

func TestSince(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)
	c := NewFake(start)
	c.Advance(3 * time.Second)
	require.Equal(t, 3*time.Second, c.Since(start))
	// Real's reading carries the monotonic clock, which never goes back.
	r := Real{}
	require.GreaterOrEqual(t, r.Since(r.Now()), time.Duration(0))
}

func TestSleep(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		require.NoError(t, Sleep(t.Context(), Real{}, time.Minute))
		require.Equal(t, time.Minute, time.Since(start), "slept d on the clock")

		ctx, cancel := context.WithTimeout(t.Context(), time.Second)
		defer cancel()
		require.ErrorIs(t, Sleep(ctx, Real{}, time.Hour), context.DeadlineExceeded)
		require.Equal(t, time.Minute+time.Second, time.Since(start), "woken by ctx")
	})
}
