package api

import (
	"bufio"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/cornice-node/cornice/clock"
)

// metrics are the server's request metrics. They are kept in plain atomics per route and method
// and turned into Prometheus series only when scraped (Collect): a request costs two atomic adds
// for its duration and two for the in-flight count, where the client library's counter,
// histogram and gauge took seven, four of them compare-and-swap loops on floats, all on cache
// lines every core shares (issue #11 §4).
type metrics struct {
	requestsDesc, durationDesc, inFlightDesc *prometheus.Desc

	inFlight atomic.Int64

	mu     sync.Mutex // guards series
	series []*series  // every series that has counted a request, in order of creation
}

// durationBounds are the upper bounds of the duration histogram's buckets: Prometheus's default
// buckets (prometheus.DefBuckets, which TestDurationBounds holds them to) as durations, so that a
// request is placed without a float.
var durationBounds = [...]time.Duration{
	5 * time.Millisecond, 10 * time.Millisecond, 25 * time.Millisecond, 50 * time.Millisecond,
	100 * time.Millisecond, 250 * time.Millisecond, 500 * time.Millisecond,
	time.Second, 2500 * time.Millisecond, 5 * time.Second, 10 * time.Second,
}

func newMetrics(reg prometheus.Registerer) (*metrics, error) {
	labels := []string{"route", "method"}
	m := &metrics{
		requestsDesc: prometheus.NewDesc("api_requests_total",
			"HTTP requests that passed the host filter, by matched route and method.", labels, nil),
		durationDesc: prometheus.NewDesc("api_request_duration_seconds",
			"Time to serve an HTTP request, by matched route and method.", labels, nil),
		inFlightDesc: prometheus.NewDesc("api_requests_in_flight", "HTTP requests being served.", nil, nil),
	}
	if reg == nil {
		return m, nil
	}
	if err := reg.Register(m); err != nil {
		return nil, fmt.Errorf("register api metrics: %w", err)
	}
	return m, nil
}

// Describe implements prometheus.Collector.
func (m *metrics) Describe(ch chan<- *prometheus.Desc) {
	ch <- m.requestsDesc
	ch <- m.durationDesc
	ch <- m.inFlightDesc
}

// Collect implements prometheus.Collector. A series' count is the sum of its buckets as read
// here, so count and buckets always agree; its sum is read separately and may already include a
// request that the buckets do not yet, which a scrape cannot tell from one that came later.
func (m *metrics) Collect(ch chan<- prometheus.Metric) {
	ch <- prometheus.MustNewConstMetric(m.inFlightDesc, prometheus.GaugeValue, float64(m.inFlight.Load()))
	m.mu.Lock()
	all := slices.Clone(m.series)
	m.mu.Unlock()
	for _, s := range all {
		cumulative := make(map[float64]uint64, len(durationBounds))
		var count uint64
		for i, ub := range durationBounds {
			count += s.buckets[i].Load()
			cumulative[ub.Seconds()] = count
		}
		count += s.buckets[len(durationBounds)].Load()
		sum := time.Duration(s.sum.Load()).Seconds()
		ch <- prometheus.MustNewConstMetric(m.requestsDesc, prometheus.CounterValue, float64(count), s.route, s.method)
		ch <- prometheus.MustNewConstHistogram(m.durationDesc, count, sum, cumulative, s.route, s.method)
	}
}

// methodLabels are the values of the method label: the standard methods, and "other" for the
// rest, so that the label's values stay bounded.
var methodLabels = [...]string{
	http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
	http.MethodDelete, http.MethodConnect, http.MethodOptions, http.MethodTrace, "other",
}

// methodIndex returns the index of m's label in methodLabels.
func methodIndex(m string) int {
	for i, l := range methodLabels[:len(methodLabels)-1] {
		if m == l {
			return i
		}
	}
	return len(methodLabels) - 1
}

// routeSeries holds one route's series, one per method label, each made on its first request. A
// series appears in the output once it has counted a request.
type routeSeries [len(methodLabels)]atomic.Pointer[series]

// series are the request count and duration histogram of one route and method.
type series struct {
	route, method string
	// buckets count requests by the first bound of durationBounds they do not exceed, the last
	// one those above every bound. They are not cumulative: Collect adds them up.
	buckets [len(durationBounds) + 1]atomic.Uint64
	sum     atomic.Int64 // nanoseconds
}

// observe counts one request that took d.
func (s *series) observe(d time.Duration) {
	i := 0
	for i < len(durationBounds) && d > durationBounds[i] {
		i++
	}
	s.buckets[i].Add(1)
	s.sum.Add(int64(d))
}

// of returns the series of route label and method index i, making it the first time.
func (rs *routeSeries) of(m *metrics, label string, i int) *series {
	if s := rs[i].Load(); s != nil {
		return s
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	// Another request may have made it meanwhile; the lock orders them.
	if s := rs[i].Load(); s != nil {
		return s
	}
	s := &series{route: label, method: methodLabels[i]}
	m.series = append(m.series, s)
	rs[i].Store(s)
	return s
}

// dispatch routes the request, sets its deadline, and records metrics and one Debug log line
// under the matched route.
type dispatch struct {
	router   *router
	metrics  *metrics
	log      *slog.Logger
	clock    clock.Clock
	deadline time.Duration
}

func (d *dispatch) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h, label, rs := d.router.lookup(r)

	d.metrics.inFlight.Add(1)
	defer d.metrics.inFlight.Add(-1)
	start := d.clock.Now()

	// The request deadline is set here, once for every API (STYLE.md rule 5), but for the
	// handlers that never wait (Instant). Upgraded connections (websockets) outlive the request
	// and keep the plain context.
	if _, never := h.(instant); !never && !isUpgrade(r) {
		ctx, release := withDeadline(r.Context(), d.clock, start.Add(d.deadline))
		defer release()
		r = r.WithContext(ctx)
	}
	// The status is only logged: without Debug logging, the handler gets w itself.
	logged := d.log.Enabled(r.Context(), slog.LevelDebug)
	var rec *recorder
	if logged {
		rec = &recorder{ResponseWriter: w}
		w = rec
	}
	h.ServeHTTP(w, r)

	elapsed := d.clock.Since(start)
	rs.of(d.metrics, label, methodIndex(r.Method)).observe(elapsed)
	if !logged {
		return
	}
	d.log.LogAttrs(r.Context(), slog.LevelDebug, "API request",
		slog.String("method", r.Method),
		slog.String("path", r.URL.Path),
		slog.String("route", label),
		slog.Int("status", rec.statusCode()),
		slog.Duration("duration", elapsed),
		slog.String("remoteAddr", r.RemoteAddr),
	)
}

func isUpgrade(r *http.Request) bool {
	for _, v := range r.Header.Values("Connection") {
		for tok := range strings.SplitSeq(v, ",") {
			if strings.EqualFold(strings.TrimSpace(tok), "upgrade") {
				return true
			}
		}
	}
	return false
}

// recorder remembers the status code written through it. It passes Flush and Hijack through and
// implements Unwrap for http.ResponseController, so streaming and websocket handlers keep working.
type recorder struct {
	http.ResponseWriter
	status int
}

func (r *recorder) WriteHeader(code int) {
	if r.status == 0 && code >= 200 {
		r.status = code
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	return r.ResponseWriter.Write(b)
}

func (r *recorder) statusCode() int {
	if r.status == 0 {
		return http.StatusOK
	}
	return r.status
}

// Unwrap returns the underlying writer, for http.ResponseController.
func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// Flush sends buffered data to the client if the underlying writer can.
func (r *recorder) Flush() {
	if f, ok := r.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Hijack takes over the connection if the underlying writer allows it (HTTP/1 only).
func (r *recorder) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	if r.status == 0 {
		r.status = http.StatusSwitchingProtocols
	}
	return http.NewResponseController(r.ResponseWriter).Hijack()
}
