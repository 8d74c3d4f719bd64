package api

import (
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/stretchr/testify/require"
)

func TestDurationBounds(t *testing.T) {
	t.Parallel()
	require.Len(t, durationBounds, len(prometheus.DefBuckets))
	for i, b := range durationBounds {
		require.Equal(t, prometheus.DefBuckets[i], b.Seconds())
	}
}

// TestMetricsCollect checks the series as a scrape sees them: a bound is inclusive, as in the
// client library's histogram, the count is the requests', and the in-flight gauge is current.
func TestMetricsCollect(t *testing.T) {
	t.Parallel()
	reg := prometheus.NewRegistry()
	m, err := newMetrics(reg)
	require.NoError(t, err)
	var rs routeSeries
	get := rs.of(m, "/ext/info", methodIndex("GET"))
	get.observe(5 * time.Millisecond)
	get.observe(5*time.Millisecond + 1)
	get.observe(11 * time.Second)
	rs.of(m, "/ext/info", methodIndex("BREW")).observe(time.Millisecond)
	require.Same(t, get, rs.of(m, "/ext/info", methodIndex("GET")))
	m.inFlight.Add(2)

	want := `
# HELP api_request_duration_seconds Time to serve an HTTP request, by matched route and method.
# TYPE api_request_duration_seconds histogram
api_request_duration_seconds_bucket{method="GET",route="/ext/info",le="0.005"} 1
api_request_duration_seconds_bucket{method="GET",route="/ext/info",le="0.01"} 2
api_request_duration_seconds_bucket{method="GET",route="/ext/info",le="0.025"} 2
api_request_duration_seconds_bucket{method="GET",route="/ext/info",le="0.05"} 2
api_request_duration_seconds_bucket{method="GET",route="/ext/info",le="0.1"} 2
api_request_duration_seconds_bucket{method="GET",route="/ext/info",le="0.25"} 2
api_request_duration_seconds_bucket{method="GET",route="/ext/info",le="0.5"} 2
api_request_duration_seconds_bucket{method="GET",route="/ext/info",le="1"} 2
api_request_duration_seconds_bucket{method="GET",route="/ext/info",le="2.5"} 2
api_request_duration_seconds_bucket{method="GET",route="/ext/info",le="5"} 2
api_request_duration_seconds_bucket{method="GET",route="/ext/info",le="10"} 2
api_request_duration_seconds_bucket{method="GET",route="/ext/info",le="+Inf"} 3
api_request_duration_seconds_sum{method="GET",route="/ext/info"} 11.010000001
api_request_duration_seconds_count{method="GET",route="/ext/info"} 3
api_request_duration_seconds_bucket{method="other",route="/ext/info",le="0.005"} 1
api_request_duration_seconds_bucket{method="other",route="/ext/info",le="0.01"} 1
api_request_duration_seconds_bucket{method="other",route="/ext/info",le="0.025"} 1
api_request_duration_seconds_bucket{method="other",route="/ext/info",le="0.05"} 1
api_request_duration_seconds_bucket{method="other",route="/ext/info",le="0.1"} 1
api_request_duration_seconds_bucket{method="other",route="/ext/info",le="0.25"} 1
api_request_duration_seconds_bucket{method="other",route="/ext/info",le="0.5"} 1
api_request_duration_seconds_bucket{method="other",route="/ext/info",le="1"} 1
api_request_duration_seconds_bucket{method="other",route="/ext/info",le="2.5"} 1
api_request_duration_seconds_bucket{method="other",route="/ext/info",le="5"} 1
api_request_duration_seconds_bucket{method="other",route="/ext/info",le="10"} 1
api_request_duration_seconds_bucket{method="other",route="/ext/info",le="+Inf"} 1
api_request_duration_seconds_sum{method="other",route="/ext/info"} 0.001
api_request_duration_seconds_count{method="other",route="/ext/info"} 1
# HELP api_requests_in_flight HTTP requests being served.
# TYPE api_requests_in_flight gauge
api_requests_in_flight 2
# HELP api_requests_total HTTP requests that passed the host filter, by matched route and method.
# TYPE api_requests_total counter
api_requests_total{method="GET",route="/ext/info"} 3
api_requests_total{method="other",route="/ext/info"} 1
`
	require.NoError(t, testutil.GatherAndCompare(reg, strings.NewReader(want)))
}
