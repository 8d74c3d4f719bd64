package api

import (
	"bufio"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/cornice-node/cornice/clock"
)

// metrics are the server's Prometheus collectors.
type metrics struct {
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
	inFlight prometheus.Gauge
}

func newMetrics(reg prometheus.Registerer) (*metrics, error) {
	labels := []string{"route", "method"}
	m := &metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: "api",
			Name:      "requests_total",
			Help:      "HTTP requests that passed the host filter, by matched route and method.",
		}, labels),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: "api",
			Name:      "request_duration_seconds",
			Help:      "Time to serve an HTTP request, by matched route and method.",
			Buckets:   prometheus.DefBuckets,
		}, labels),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Namespace: "api",
			Name:      "requests_in_flight",
			Help:      "HTTP requests being served.",
		}),
	}
	if reg == nil {
		return m, nil
	}
	for _, c := range []prometheus.Collector{m.requests, m.duration, m.inFlight} {
		if err := reg.Register(c); err != nil {
			return nil, fmt.Errorf("register api metrics: %w", err)
		}
	}
	return m, nil
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

// routeSeries holds one route's series of the request metrics, one per method label, each
// looked up in the vectors on its first request: a lookup hashes the label values and takes the
// vector's lock, on every request otherwise. A series appears in the output once it has
// counted a request, as before.
type routeSeries [len(methodLabels)]atomic.Pointer[series]

// series are the request counter and duration histogram of one route and method.
type series struct {
	requests prometheus.Counter
	duration prometheus.Observer
}

// of returns the series of route label and method index i, looking them up the first time.
func (rs *routeSeries) of(m *metrics, label string, i int) *series {
	if s := rs[i].Load(); s != nil {
		return s
	}
	s := &series{
		requests: m.requests.WithLabelValues(label, methodLabels[i]),
		duration: m.duration.WithLabelValues(label, methodLabels[i]),
	}
	rs[i].Store(s)
	return s
}

// dispatch routes the request, sets its deadline, and records metrics and one Debug log line
// under the matched route.
type dispatch struct {
	router  *router
	metrics *metrics
	log     *slog.Logger
	clock   clock.Clock
	// epoch is a reading of clock taken once: a request's start is the time since epoch, one
	// monotonic clock read where Now takes two (wall and monotonic). Its deadline is epoch
	// advanced by start and the timeout: exact on the monotonic clock, by which time.Until and
	// the context package measure it.
	epoch    time.Time
	deadline time.Duration
}

func (d *dispatch) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h, label, rs := d.router.lookup(r)

	d.metrics.inFlight.Inc()
	defer d.metrics.inFlight.Dec()
	start := d.clock.Since(d.epoch)

	// The request deadline is set here, once for every API (STYLE.md rule 5), but for the
	// handlers that never wait (Instant). Upgraded connections (websockets) outlive the request
	// and keep the plain context.
	if _, never := h.(instant); !never && !isUpgrade(r) {
		ctx, release := withDeadline(r.Context(), d.clock, d.epoch.Add(start+d.deadline))
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

	elapsed := d.clock.Since(d.epoch) - start
	s := rs.of(d.metrics, label, methodIndex(r.Method))
	s.requests.Inc()
	s.duration.Observe(elapsed.Seconds())
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
