package main

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func ms(vs ...int) []time.Duration {
	out := make([]time.Duration, len(vs))
	for i, v := range vs {
		out[i] = time.Duration(v) * time.Millisecond
	}
	return out
}

func TestPercentile(t *testing.T) {
	t.Parallel()
	hundred := make([]time.Duration, 100)
	for i := range hundred {
		hundred[i] = time.Duration(i+1) * time.Millisecond
	}
	tests := []struct {
		name   string
		sorted []time.Duration
		p      int
		want   time.Duration
	}{
		{name: "empty", sorted: nil, p: 50, want: 0},
		{name: "one sample p50", sorted: ms(7), p: 50, want: 7 * time.Millisecond},
		{name: "one sample p99", sorted: ms(7), p: 99, want: 7 * time.Millisecond},
		{name: "odd median", sorted: ms(1, 2, 3), p: 50, want: 2 * time.Millisecond},
		{name: "even median is the lower middle", sorted: ms(1, 2, 3, 4), p: 50, want: 2 * time.Millisecond},
		{name: "p99 of 100 is the 99th", sorted: hundred, p: 99, want: 99 * time.Millisecond},
		{name: "p50 of 100 is the 50th", sorted: hundred, p: 50, want: 50 * time.Millisecond},
		{name: "p100 is the max", sorted: hundred, p: 100, want: 100 * time.Millisecond},
		{name: "p1 of 100 is the min", sorted: hundred, p: 1, want: time.Millisecond},
		{name: "p99 of 10 is the max", sorted: ms(1, 2, 3, 4, 5, 6, 7, 8, 9, 10), p: 99, want: 10 * time.Millisecond},
		{name: "p90 of 10 is the 9th", sorted: ms(1, 2, 3, 4, 5, 6, 7, 8, 9, 10), p: 90, want: 9 * time.Millisecond},
		{name: "p99 of 201 is the 199th", sorted: ms(seq(201)...), p: 99, want: 199 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tt.want, percentile(tt.sorted, tt.p))
		})
	}
}

func seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i + 1
	}
	return out
}

func TestSummarizeSortsAndComputes(t *testing.T) {
	t.Parallel()
	r := result{
		concurrency: 4,
		requests:    6,
		errors:      1,
		elapsed:     2 * time.Second,
		latencies:   ms(9, 1, 5, 3, 7), // one request failed in transport: no sample
	}
	s := summarize(r)
	require.Equal(t, summary{
		concurrency: 4, requests: 6, errors: 1, elapsed: 2 * time.Second, perSecond: 3,
		p50: 5 * time.Millisecond, p99: 9 * time.Millisecond, max: 9 * time.Millisecond,
	}, s)
	require.Equal(t, ms(1, 3, 5, 7, 9), r.latencies)
}

func TestSummarizeEmpty(t *testing.T) {
	t.Parallel()
	require.Equal(t, summary{concurrency: 1}, summarize(result{concurrency: 1}))
}

func TestRow(t *testing.T) {
	t.Parallel()
	s := summary{
		concurrency: 16, requests: 20000, errors: 2, elapsed: 1250 * time.Millisecond, perSecond: 16000,
		p50: 512400 * time.Nanosecond, p99: 1830600 * time.Nanosecond, max: 9 * time.Millisecond,
	}
	require.Equal(t, "| bare | info.getNodeVersion | 16 | 20000 | 2 | 16000 | 512 | 1831 | 9000 | 1.25 |",
		s.row("bare", "info.getNodeVersion"))
}
