package network

import (
	"fmt"
	"strings"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/cornice-node/cornice/network/wire"
)

// metrics are the network's Prometheus metrics, named after the reference's (§1.12) under the
// "network" namespace.
type metrics struct {
	peers           prometheus.Gauge
	connects        prometheus.Counter
	disconnects     prometheus.Counter
	tlsRejected     prometheus.Counter
	inboundRejected prometheus.Counter
	refusals        *prometheus.CounterVec
	clockSkew       prometheus.Summary
	rtt             prometheus.Summary
	msgs            *prometheus.CounterVec
	msgBytes        *prometheus.CounterVec
	parseFailed     prometheus.Counter
	sendFailed      prometheus.Counter
}

func newMetrics(reg prometheus.Registerer) (*metrics, error) {
	opts := func(name, help string) prometheus.Opts {
		return prometheus.Opts{Namespace: "network", Name: name, Help: help}
	}
	counter := func(name, help string) prometheus.Counter {
		return prometheus.NewCounter(prometheus.CounterOpts(opts(name, help)))
	}
	m := &metrics{
		peers:           prometheus.NewGauge(prometheus.GaugeOpts(opts("peers", "number of connected peers"))),
		connects:        counter("times_connected", "times a peer connected"),
		disconnects:     counter("times_disconnected", "times a peer disconnected"),
		tlsRejected:     counter("tls_conn_rejected", "connections whose TLS handshake failed"),
		inboundRejected: counter("inbound_conn_throttled", "inbound connections refused by the per-IP cooldown or the accept rate"),
		refusals: prometheus.NewCounterVec(prometheus.CounterOpts(opts("peer_refused", "connections refused or dropped, by reason")),
			[]string{"reason"}),
		clockSkew: prometheus.NewSummary(prometheus.SummaryOpts{Namespace: "network", Name: "clock_skew",
			Help: "local time minus a peer's handshake time, in seconds"}),
		rtt: prometheus.NewSummary(prometheus.SummaryOpts{Namespace: "network", Name: "round_trip",
			Help: "ping to pong time, in seconds"}),
		msgs: prometheus.NewCounterVec(prometheus.CounterOpts(opts("msgs", "messages by op and direction")),
			[]string{"op", "io"}),
		msgBytes: prometheus.NewCounterVec(prometheus.CounterOpts(opts("msgs_bytes", "framed bytes by op and direction")),
			[]string{"op", "io"}),
		parseFailed: counter("msgs_failed_to_parse", "frames that did not parse and were skipped"),
		sendFailed:  counter("send_failed", "messages dropped because a peer's send queue was full"),
	}
	if reg == nil {
		return m, nil
	}
	for _, c := range []prometheus.Collector{m.peers, m.connects, m.disconnects, m.tlsRejected, m.inboundRejected,
		m.refusals, m.clockSkew, m.rtt, m.msgs, m.msgBytes, m.parseFailed, m.sendFailed} {
		if err := reg.Register(c); err != nil {
			return nil, fmt.Errorf("register network metrics: %w", err)
		}
	}
	return m, nil
}

func (m *metrics) sent(op wire.Op, n int) {
	m.msgs.WithLabelValues(op.String(), "sent").Inc()
	m.msgBytes.WithLabelValues(op.String(), "sent").Add(float64(n))
}

func (m *metrics) received(op wire.Op, n int) {
	m.msgs.WithLabelValues(op.String(), "received").Inc()
	m.msgBytes.WithLabelValues(op.String(), "received").Add(float64(n))
}

// refused counts a refused or dropped connection by reason.
func (m *metrics) refused(err error) {
	m.refusals.WithLabelValues(strings.ReplaceAll(reason(err), " ", "_")).Inc()
}
