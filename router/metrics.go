package router

import (
	"fmt"

	"github.com/prometheus/client_golang/prometheus"
)

// The reasons of router_dropped.
const (
	reasonMalformed    = "malformed"
	reasonUnknownChain = "unknown_chain"
	reasonUnrequested  = "unrequested"
	reasonUnhandledOp  = "unhandled_op"
	reasonQueueFull    = "queue_full"
	// reasonExpired is an AppRequest whose deadline passed before a worker took it.
	reasonExpired = "expired"
)

// metrics are the router's Prometheus metrics, under the "router" namespace.
type metrics struct {
	received *prometheus.CounterVec
	dropped  *prometheus.CounterVec
	timeouts *prometheus.CounterVec
	benched  prometheus.Counter
}

func newMetrics(reg prometheus.Registerer) (*metrics, error) {
	m := &metrics{
		received: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: "router", Name: "received",
			Help: "chain messages received from peers, by op"}, []string{"op"}),
		dropped: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: "router", Name: "dropped",
			Help: "chain messages not delivered to an engine, by reason"}, []string{"reason"}),
		timeouts: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: "router", Name: "timeouts",
			Help: "requests that got no answer in time or could not be sent, by the op that should have answered"}, []string{"reply"}),
		benched: prometheus.NewCounter(prometheus.CounterOpts{Namespace: "router", Name: "benched",
			Help: "times a peer was benched on a chain for its timeouts"}),
	}
	if reg == nil {
		return m, nil
	}
	for _, c := range []prometheus.Collector{m.received, m.dropped, m.timeouts, m.benched} {
		if err := reg.Register(c); err != nil {
			return nil, fmt.Errorf("register router metrics: %w", err)
		}
	}
	return m, nil
}
