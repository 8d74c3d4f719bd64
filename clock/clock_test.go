package clock

import (
	"testing"
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
