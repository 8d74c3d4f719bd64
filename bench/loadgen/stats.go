package main

import (
	"fmt"
	"math"
	"slices"
	"time"
)

// result is what one concurrency level measured.
type result struct {
	concurrency int
	// requests counts every request that completed inside the limit, errors included.
	requests int
	// errors counts transport failures, non-200 statuses and JSON-RPC error replies.
	errors  int
	elapsed time.Duration
	// latencies has one entry per request that got an HTTP response (transport failures have none),
	// in no particular order.
	latencies []time.Duration
}

// summary is a result reduced to the numbers reported.
type summary struct {
	concurrency      int
	requests, errors int
	elapsed          time.Duration
	perSecond        float64
	p50, p99, max    time.Duration
}

// summarize sorts r.latencies in place and computes the exact percentiles from every sample.
func summarize(r result) summary {
	slices.Sort(r.latencies)
	s := summary{
		concurrency: r.concurrency,
		requests:    r.requests,
		errors:      r.errors,
		elapsed:     r.elapsed,
		p50:         percentile(r.latencies, 50),
		p99:         percentile(r.latencies, 99),
		max:         percentile(r.latencies, 100),
	}
	if r.elapsed > 0 {
		s.perSecond = float64(r.requests) / r.elapsed.Seconds()
	}
	return s
}

// percentile returns the p-th percentile (0 < p <= 100) of sorted by the nearest-rank method: the
// smallest sample such that at least p% of the samples are less than or equal to it. It returns 0
// for no samples. Integer p keeps the rank computation exact.
func percentile(sorted []time.Duration, p int) time.Duration {
	n := len(sorted)
	if n == 0 {
		return 0
	}
	rank := int(math.Ceil(float64(p*n) / 100))
	rank = max(1, min(rank, n))
	return sorted[rank-1]
}

// tableHeader is the markdown header matching summary.row.
func tableHeader() string {
	return "| target | method | c | requests | errors | req/s | p50 µs | p99 µs | max µs | time s |\n" +
		"|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
}

// row formats s as one markdown table row.
func (s summary) row(label, method string) string {
	return fmt.Sprintf("| %s | %s | %d | %d | %d | %.0f | %d | %d | %d | %.2f |",
		label, method, s.concurrency, s.requests, s.errors, s.perSecond,
		micros(s.p50), micros(s.p99), micros(s.max), s.elapsed.Seconds())
}

// micros rounds d to whole microseconds.
func micros(d time.Duration) int64 { return d.Round(time.Microsecond).Microseconds() }
