package bootstrap

import (
	"fmt"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Metrics are the bootstrappers' Prometheus metrics, one series per chain (label "chain", the
// blockchain ID), named after the reference's bs_* metrics.
type Metrics struct {
	fetched  *prometheus.CounterVec
	executed *prometheus.CounterVec
	eta      *prometheus.GaugeVec
	done     *prometheus.GaugeVec
}

// NewMetrics makes the metrics and registers them with reg (none when reg is nil).
func NewMetrics(reg prometheus.Registerer) (*Metrics, error) {
	label := []string{"chain"}
	m := &Metrics{
		fetched: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "bs_fetched",
			Help: "blocks fetched while bootstrapping"}, label),
		executed: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "bs_executed",
			Help: "blocks executed (verified and accepted) while bootstrapping"}, label),
		eta: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "bs_eta_seconds",
			Help: "estimated time left to bootstrap, in seconds"}, label),
		done: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "bs_done",
			Help: "1 once the chain is bootstrapped, 0 while it bootstraps"}, label),
	}
	if reg != nil {
		for _, c := range []prometheus.Collector{m.fetched, m.executed, m.eta, m.done} {
			if err := reg.Register(c); err != nil {
				return nil, fmt.Errorf("register bootstrap metrics: %w", err)
			}
		}
	}
	return m, nil
}

// For returns chain's series; a nil Metrics gives a nil *ChainMetrics, which records nothing.
func (m *Metrics) For(chain string) *ChainMetrics {
	if m == nil {
		return nil
	}
	c := &ChainMetrics{
		fetchedC:  m.fetched.WithLabelValues(chain),
		executedC: m.executed.WithLabelValues(chain),
		etaG:      m.eta.WithLabelValues(chain),
		doneG:     m.done.WithLabelValues(chain),
	}
	c.doneG.Set(0)
	return c
}

// ChainMetrics are one chain's series. A nil *ChainMetrics records nothing.
type ChainMetrics struct {
	fetchedC, executedC prometheus.Counter
	etaG, doneG         prometheus.Gauge
}

func (c *ChainMetrics) fetched(n int) {
	if c != nil {
		c.fetchedC.Add(float64(n))
	}
}

func (c *ChainMetrics) executed() {
	if c != nil {
		c.executedC.Inc()
	}
}

func (c *ChainMetrics) setETA(d time.Duration) {
	if c != nil {
		c.etaG.Set(d.Seconds())
	}
}

func (c *ChainMetrics) finished() {
	if c != nil {
		c.etaG.Set(0)
		c.doneG.Set(1)
	}
}
